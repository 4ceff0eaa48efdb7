"""Privatization in C++: namespace variables, static data members, function statics, objects
of non-trivial type that each task constructs, and the located errors for what cannot be made
per task."""
import subprocess

from conftest import HAVE_MPICC, RUNTIME_INCLUDE, errors

PROLOGUE = "#include <mpi.h>\n"


def test_parsed_as_cxx_by_suffix_or_option(translate):
    code = PROLOGUE + "namespace ns { int x; }\nint main() { return ns::x; }\n"
    for name, args in (("t.cpp", ()), ("t.cc", ()), ("t.c", ("-x", "c++"))):
        res = translate(code, name=name, args=args)
        assert res.ok, errors(res)
        assert res.text.startswith('#define BAMBOO_TRANSLATED_CXX 1\n')
        assert '\n#include "bamboo.h"\n' in res.text.split("#line", 1)[0]
        assert "return BAMBOO_PRIVATE_IN(ns, x); }" in res.text


def test_namespace_variables_register_in_their_scope(translate):
    res = translate(PROLOGUE + "namespace ns { int a = 1; namespace { double b; } }\n"
                    "static int c;\nint main() { ns::a++; ::c = 2; return ns::b + sizeof(ns::a); }\n",
                    name="t.cpp")
    assert res.ok, errors(res)
    t = res.text
    assert ('namespace ns { int bamboo_initial_a = 1; size_t bamboo_offset_a = bamboo_register_global('
            '{"ns::a", &bamboo_offset_a, &bamboo_initial_a, sizeof(bamboo_initial_a), '
            '__alignof__(bamboo_initial_a)});') in t
    assert "static size_t bamboo_offset_b = bamboo_register_global({\"ns::(anonymous namespace)::b\"" in t
    assert "static int bamboo_initial_c; static size_t bamboo_offset_c = bamboo_register_global(" in t
    assert "BAMBOO_PRIVATE_IN(ns, a)++; BAMBOO_PRIVATE_IN(, c) = 2;" in t
    assert "return BAMBOO_PRIVATE_IN(ns, b) + sizeof(ns::bamboo_initial_a);" in t
    assert "bamboo_register_this_file_globals" not in t  # C's constructor: not in C++


def test_static_members_and_member_function_statics(translate):
    res = translate(PROLOGUE + "class C {\n  static int made;\npublic:\n  C() { ++made; }\n"
                    "  int tick() { static int calls = 0; return ++calls + made; }\n};\n"
                    "int C::made = 0;\nint main() { C c; return c.tick(); }\n", name="t.cpp")
    assert res.ok, errors(res)
    t = res.text
    # the template of the member function's static goes before the class, at namespace scope
    class_line = next(line for line in t.split("\n") if "class C {" in line)
    assert class_line.startswith("static int bamboo_initial_tick__calls = 0; static size_t "
                                       "bamboo_offset_tick__calls = bamboo_register_global(")
    assert "static int bamboo_initial_made; static size_t bamboo_offset_made;" in t
    # registered where the offset is defined: the initializer may name private members
    assert ("int C::bamboo_initial_made = 0; size_t C::bamboo_offset_made = bamboo_register_global("
            '{"C::made", &bamboo_offset_made, &bamboo_initial_made,') in t
    assert "C() { ++BAMBOO_PRIVATE(made); }" in t
    assert "return ++BAMBOO_PRIVATE(tick__calls) + BAMBOO_PRIVATE(made);" in t


def test_constants_and_library_objects_untouched(translate):
    res = translate(PROLOGUE + "#include <iostream>\nconstexpr int n = 3;\nconst double eps = 1e-9;\n"
                    "int main() { std::cout << n << eps; return 0; }\n", name="t.cpp")
    assert res.ok, errors(res)
    assert "BAMBOO_PRIVATE" not in res.text


def test_refused_with_located_errors(translate):
    res = translate(PROLOGUE + "#include <vector>\n"
                    "std::vector<int> log_;\n"                               # line 3
                    "template <class T> struct Box { static T shared; };\n"   # line 4
                    "template <class T> T Box<T>::shared;\n"
                    "template <class T> int count() { static int n; return ++n; }\n"  # line 6
                    "struct S { static inline int live = 0; static int used; };\n"     # line 7
                    "int S::used;\n"
                    "int next(int start) { static int at = start; return at++; }\n"   # line 9
                    "int value = 1;\nint copy_of = value;\n"                          # line 11
                    "int main() { S s; return s.used + count<int>(); }\n",            # line 12
                    name="t.cpp")
    assert errors(res) == [  # std::vector<int> log_ is an object each task constructs
        "t.cpp:4:42: error: variable 'Box::shared' cannot be privatized: it belongs to a "
        "template, whose every instantiation has its own; move it out of the template",
        "t.cpp:5:30: error: variable 'Box::shared' cannot be privatized: it belongs to a "
        "template, whose every instantiation has its own; move it out of the template",
        "t.cpp:6:45: error: static variable 'n' of count() cannot be privatized: it belongs to "
        "a template, whose every instantiation has its own; move it out of the template",
        "t.cpp:7:30: error: variable 'S::live' cannot be privatized: it is defined in its class "
        "(an inline static member), where its copy's registration cannot name it; declare it in "
        "the class and define it outside",
        "t.cpp:9:34: error: static variable 'at' of next() cannot be privatized: its initializer "
        "is not a constant, and each task's copy starts from a value computed before main, not "
        "at the first call; initialize it with a constant and set it at run time",
        "t.cpp:11:15: error: the initializer of 'copy_of' uses privatized variable 'value' (each "
        "task has its own copy, which does not exist yet when the initializer runs); set it at "
        "run time instead",
        "t.cpp:12:26: error: static member 'S::used' is used through an object; privatization "
        "rewrites it by name: write 'S::used'",
    ]


def test_objects_are_constructed_by_each_task(translate):
    res = translate(PROLOGUE + "#include <map>\n#include <mutex>\n#include <string>\n#include <vector>\n"
                    "int count = 3;\n"
                    "std::vector<int> log_(count, 7);\n"                           # line 7
                    "static std::string a = \"x\", b{\"y\"}, c;\n"
                    "std::string names[] = {\"p\", \"q\"};\n"
                    "namespace ns { std::map<int, int> table = {\n  {1, count},\n}; }\n"  # 10-12
                    "extern std::mutex m;\nstd::mutex m;\n"                         # 13-14
                    "int main() { log_.push_back(sizeof(a)); ns::table[2] = names[1].size(); "
                    "return ::b.size(); }\n", name="t.cpp")
    assert res.ok, errors(res)
    t = res.text
    # the declaration becomes a typedef of the type; the registration constructs from the
    # initializer as written, which reads the task's own copies
    assert ("typedef std::vector<int> bamboo_initial_log_; size_t bamboo_offset_log_ = "
            'bamboo_register_object({"log_", &bamboo_offset_log_, sizeof(bamboo_initial_log_), '
            "alignof(bamboo_initial_log_), [](void *bamboo_at) { ::new (bamboo_at) "
            "bamboo_initial_log_(BAMBOO_PRIVATE(count), 7); }, bamboo_destroy<bamboo_initial_log_>});") in t
    # several variables: one typedef; copy-initialization stays one (returned as the type)
    assert ("typedef std::string bamboo_initial_a , bamboo_initial_b, bamboo_initial_c; "
            "static size_t bamboo_offset_a = bamboo_register_object({\"a\", ") in t
    assert ("[](void *bamboo_at) { ::new (bamboo_at) bamboo_initial_a([]() -> bamboo_initial_a "
            '{ return "x"; }()); }') in t
    assert '[](void *bamboo_at) { ::new (bamboo_at) bamboo_initial_b{"y"}; }' in t
    assert "[](void *bamboo_at) { ::new (bamboo_at) bamboo_initial_c; }" in t
    # an array's bound from its initializer; its `= {...}` constructs it
    assert "typedef std::string bamboo_initial_names[2] ;" in t
    assert '::new (bamboo_at) bamboo_initial_names{"p", "q"}; }' in t
    # a multi-line initializer moves with its lines
    assert ("namespace ns { typedef std::map<int, int> bamboo_initial_table \n#line 12 ") in t
    assert ("return \n#line 10 \"" in t and "{\n  {1, BAMBOO_PRIVATE(count)},\n}; }()); }, "
            "bamboo_destroy<bamboo_initial_table>});") in t
    # declared, then defined: the definition file constructs
    assert "typedef std::mutex bamboo_initial_m; extern size_t bamboo_offset_m;" in t
    assert ("typedef std::mutex bamboo_initial_m; size_t bamboo_offset_m = bamboo_register_object("
            '{"m", ') in t
    assert ("BAMBOO_PRIVATE(log_).push_back(sizeof(BAMBOO_PRIVATE(a))); BAMBOO_PRIVATE_IN(ns, table)[2] = "
            "BAMBOO_PRIVATE(names)[1].size(); return BAMBOO_PRIVATE_IN(, b).size();") in t


def test_static_member_and_function_local_objects(translate):
    res = translate(PROLOGUE + "#include <string>\n#include <vector>\n"
                    "class Log {\n  static std::vector<std::string> all;\n"
                    "public:\n  static void add(int k) { static std::string prefix = std::to_string(k); "
                    "all.push_back(prefix); }\n};\n"
                    "std::vector<std::string> Log::all = {\"start\"};\n"
                    "int main() { Log::add(1); return 0; }\n", name="t.cpp")
    assert res.ok, errors(res)
    t = res.text
    assert ("  typedef std::vector<std::string> bamboo_initial_all; static size_t bamboo_offset_all;"
            in t)
    # the definition with its qualifier is left out; the registration has the class's scope
    assert ('\n; size_t Log::bamboo_offset_all = bamboo_register_object({"Log::all", &bamboo_offset_all, '
            "sizeof(bamboo_initial_all), alignof(bamboo_initial_all), [](void *bamboo_at) { ::new "
            "(bamboo_at) bamboo_initial_all([]() -> bamboo_initial_all { return {\"start\"}; }()); }, "
            "bamboo_destroy<bamboo_initial_all>});") in t
    # a function-local static: its type and offset before the class, constructed at the
    # task's first pass, where it stands (the initializer may read the function's parameters)
    class_line = next(line for line in t.split("\n") if "class Log {" in line)
    assert class_line.startswith(
        "typedef std::string bamboo_initial_add__prefix; static size_t bamboo_offset_add__prefix = "
        'bamboo_register_object({"t.cpp:add:prefix", &bamboo_offset_add__prefix, '
        "sizeof(bamboo_initial_add__prefix), alignof(bamboo_initial_add__prefix), nullptr, "
        "bamboo_destroy<bamboo_initial_add__prefix>});")
    assert ("static void add(int k) { if (BAMBOO_FIRST_PASS(add__prefix)) { void *bamboo_at = "
            "BAMBOO_GLOBALS + bamboo_offset_add__prefix; ::new (bamboo_at) bamboo_initial_add__prefix("
            "[&]() -> bamboo_initial_add__prefix { return std::to_string(k); }()); "
            "bamboo_constructed(&bamboo_offset_add__prefix); } "
            "BAMBOO_PRIVATE(all).push_back(BAMBOO_PRIVATE(add__prefix)); }") in t


def test_objects_refused_with_located_errors(translate):
    res = translate(PROLOGUE + "#include <string>\n#include <vector>\n"
                    "auto deduced = std::string(\"x\");\n"    # line 4
                    "std::vector guessed = {1, 2};\n"
                    "std::string s, *p;\n"                       # line 6
                    "int f() { static std::string a, *b; return a.size() + !b; }\n"
                    "std::string *at = &s;\n"                    # line 8
                    "int main() { return deduced.size() + guessed[0] + !p + f() + !at; }\n",
                    name="t.cpp")
    assert errors(res) == [
        "t.cpp:4:6: error: variable 'deduced' cannot be privatized: its type is deduced from its "
        "initializer (auto, or a class template's arguments), and each task constructs its own "
        "object from a declaration of the type: write the type",
        "t.cpp:5:13: error: variable 'guessed' cannot be privatized: its type is deduced from its "
        "initializer (auto, or a class template's arguments), and each task constructs its own "
        "object from a declaration of the type: write the type",
        "t.cpp:6:1: error: a declaration mixing variables of a non-trivial type, which each task "
        "constructs, with other variables cannot be privatized; split it",
        "t.cpp:7:11: error: a declaration mixing variables of a non-trivial type, which each task "
        "constructs, with other variables cannot be privatized; split it",
        "t.cpp:8:20: error: the initializer of 'at' uses privatized variable 's' (each task has "
        "its own copy, which does not exist yet when the initializer runs); set it at run time "
        "instead",
    ]


def test_header_variables_refused(translate):
    res = translate('#include "shared.h"\nint main() { return ns::x; }\n', name="t.cpp",
                    shared_h="namespace ns { extern int x; }\n")
    assert errors(res) == [
        "shared.h:1:27: error: variable 'ns::x' is declared in a header, which the translator "
        "does not rewrite, and each task needs its own copy: in C++, declare the program's "
        "mutable globals, static members and statics in the translated file"]


def test_cxx_constructs_in_regions_refused(translate):
    res = translate(PROLOGUE + "int main() { int x = 0, r = 0;\n#pragma bamboo olap\nfor (;;) {\n"
                    "#pragma bamboo receive\n{ MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, "
                    "MPI_STATUS_IGNORE); auto f = [&] { r += x; }; f(); }\n"
                    "try { if (x) throw 1; } catch (int) {} }\n}\n", name="t.cpp")
    assert errors(res) == [
        "t.cpp:6:79: error: a lambda inside the olap region at line 3: the firing-rule analysis "
        "does not follow it; move it into a function the region calls",
        "t.cpp:7:1: error: a try block inside the olap region at line 3: the firing-rule "
        "analysis does not follow it; move it into a function the region calls",
        "t.cpp:7:14: error: a throw expression inside the olap region at line 3: the "
        "firing-rule analysis does not follow it; move it into a function the region calls"]


def test_reference_parameters_are_not_tracked_by_value(translate):
    # in the window, `pick(source)` changes source through its reference: the rule, before
    # the window, cannot know the receive's source
    res = translate(PROLOGUE + "void pick(int &s) { s = 1; }\nint main() { int source = 0, x;\n"
                    "#pragma bamboo olap\nfor (;;) {\n#pragma bamboo receive\n{ pick(source);\n"
                    "  MPI_Recv(&x, 1, MPI_INT, source, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); }\n}\n}\n",
                    name="t.cpp", explain=True)
    assert res.ok, errors(res)
    assert "message from source" not in res.explanation


def test_output_compiles_with_mpicxx(translate, tmp_path):
    if not HAVE_MPICC:
        return
    res = translate(PROLOGUE + "#include <algorithm>\n#include <cstdlib>\n#include <unistd.h>\n"
                    "#include <memory>\n#include <string>\n#include <vector>\n"
                    "namespace ns { int a; }\nstruct C { static int n; static std::vector<int> v; };\n"
                    "int C::n;\nstd::vector<int> C::v(2);\nstd::unique_ptr<int> box{new int(1)};\n"
                    "std::string names[2][2] = {{\"a\"}}, last = names[0][0];\n"
                    "int f() { static int k = 2; static std::string s = last + \"!\"; "
                    "char copy[sizeof last]; (void)copy;\n"
                    "return k++ + s.size() + C::v.size() + *box + sizeof names + sizeof(s); }\n"
                    "int main(int argc, char **argv) { MPI_Init(&argc, &argv); ns::a = C::n + f();"
                    " std::srand(ns::a); if (std::rand() < 0) std::exit(1); sleep(0);"
                    " MPI_Finalize(); return 0; }\n", name="t.cpp")
    assert res.ok, errors(res)
    out = tmp_path / "out.cpp"
    out.write_text(res.text)
    done = subprocess.run(["mpicxx", "-c", "-Wall", "-I" + RUNTIME_INCLUDE, str(out), "-o",
                           str(tmp_path / "out.o")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
