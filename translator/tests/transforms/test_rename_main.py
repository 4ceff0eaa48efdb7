from conftest import errors


def test_main_with_args(translate):
    res = translate("int main(int argc, char *argv[])\n{\n  return argc;\n}\n")
    assert res.ok
    assert "int bamboo_main(int argc, char *argv[])" in res.text
    assert "bamboo_main_noargs" not in res.text
    assert "implicit return" not in res.text


def test_main_void_gets_wrapper_and_return(translate):
    res = translate("int main(void)\n{\n  int x = 1;\n  (void)x;\n}\n", explain=True)
    assert res.ok
    t = res.text
    assert "int bamboo_main_noargs(void)" in t
    assert "return 0; /* bamboo: main's implicit return */ }" in t
    assert "int bamboo_main(int argc, char **argv)\n{" in t
    assert "return bamboo_main_noargs();" in t
    assert "main renamed to bamboo_main_noargs" in res.explanation


def test_bad_main(translate):
    res = translate("int main(int a, char **b, char **c) { return 0; }\n")
    assert "main with 3 parameters is not supported" in errors(res)[0]
