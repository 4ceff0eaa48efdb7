static inline int next_id(void)
{
    static int id = 0;
    return ++id;
}
