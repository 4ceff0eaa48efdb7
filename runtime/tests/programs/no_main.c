/* A program whose main() was not translated: the runtime's default bamboo_main explains. */
int unrelated_helper(void) { return 0; }
