from conftest import errors

PROLOGUE = "#include <mpi.h>\n"


def test_globals_renamed_and_registered(translate):
    res = translate(PROLOGUE + "int count = 1, other;\nstatic double eps;\nconst int N = 3;\n"
                    "extern int ext;\n"
                    "int main(int argc, char **argv) { MPI_Init(&argc, &argv);\n"
                    "  count += N + ext; other = (int)eps; return count; }\n")
    assert res.ok, errors(res)
    t = res.text
    assert "int bamboo_initial_count = 1, bamboo_initial_other; size_t bamboo_offset_count; " \
           "size_t bamboo_offset_other;" in t
    assert "static double bamboo_initial_eps; static size_t bamboo_offset_eps;" in t
    assert "const int N = 3;" in t
    assert "extern int bamboo_initial_ext; extern size_t bamboo_offset_ext;" in t
    assert "BAMBOO_PRIVATE(count) += N + BAMBOO_PRIVATE(ext);" in t
    assert "return BAMBOO_PRIVATE(count); }" in t
    assert '{"count", &bamboo_offset_count, &bamboo_initial_count, sizeof(bamboo_initial_count)' in t
    assert '{"t.c:eps", &bamboo_offset_eps' in t
    assert "bamboo_offset_ext, &" not in t  # declared only: registered by its defining file
    assert "int bamboo_main(int argc, char **argv)" in t


def test_function_local_statics_move_before_function(translate):
    res = translate(PROLOGUE + "int f(void)\n{\n  static int calls = 0;\n  return ++calls;\n}\n"
                    "int g(void)\n{\n  static int calls;\n  return calls--;\n}\n")
    assert res.ok, errors(res)
    lines = res.text.split("\n")
    f_line = next(l for l in lines if l.endswith("int f(void)"))
    assert f_line.startswith("static int bamboo_initial_f__calls = 0; static size_t "
                             "bamboo_offset_f__calls;")
    assert "return ++BAMBOO_PRIVATE(f__calls);" in res.text
    assert "return BAMBOO_PRIVATE(g__calls)--;" in res.text
    assert '"t.c:g:calls"' in res.text
    # the function keeps its line: no #line needed before it
    assert res.text.count("#line") == 1


def test_function_local_static_keeps_its_string_literals(translate):
    """The template moved before the function is joined onto one line: the spaces inside its
    literals stay, a line splice inside one is removed as the preprocessor would."""
    res = translate(PROLOGUE + 'const char *f(int i)\n{\n  static char a[] = "x    y", b[] =\n'
                    '    "p  \\\n  q";\n  return i ? a : b;\n}\n')
    assert res.ok, errors(res)
    template = next(l for l in res.text.split("\n") if l.endswith("const char *f(int i)"))
    assert 'static char bamboo_initial_f__a[] = "x    y", bamboo_initial_f__b[] = "p    q";' \
        in template


def test_header_extern_gets_declaration(translate):
    res = translate('#include "common.h"\nint main(void) { return shared + 1; }\n',
                    common_h="extern int shared;\n")
    assert res.ok, errors(res)
    assert "extern __typeof__(shared) bamboo_initial_shared; extern size_t " \
           "bamboo_offset_shared;" in res.text
    assert "return BAMBOO_PRIVATE(shared) + 1;" in res.text
    assert "bamboo_register_this_file_globals" not in res.text


def test_macro_in_main_file_rewritten(translate):
    res = translate("int total;\n#define ADD(x) (total += (x))\n#define ID(x) (x)\n"
                    "int main(void) { ADD(2); return ID(total); }\n")
    assert res.ok, errors(res)
    assert "#define ADD(x) (BAMBOO_PRIVATE(total) += (x))" in res.text
    assert "return ID(BAMBOO_PRIVATE(total));" in res.text


def test_system_globals_untouched(translate):
    res = translate("#include <stdio.h>\nint main(void) { fprintf(stderr, \"x\"); return 0; }\n")
    assert res.ok
    assert "BAMBOO_PRIVATE" not in res.text


def test_errors(translate):
    res = translate("int a;\nint *p = &a;\nint main(void) { return *p; }\n")
    assert errors(res) == ["t.c:2:11: error: the initializer of 'p' takes the address of "
                           "privatized variable 'a' (each task has its own copy); set the "
                           "pointer at run time instead"]
    res = translate("__thread int tl;\nint main(void) { return tl; }\n")
    assert "thread-local variable 'tl'" in errors(res)[0]


def test_const_tables_are_shared_wherever_they_are_defined(translate):
    # Read-only data needs no copy per task, in a header as in the file (arrays of const
    # elements too, which libclang's canonical types hide).
    res = translate(PROLOGUE + '#include "tables.h"\n'
                    "static const double weights[3] = {0.5, 0.25, 0.25};\n"
                    "int main(int argc, char **argv) { MPI_Init(&argc, &argv);\n"
                    "  return (int)(scale(weights[0]) + grid[1][1]); }\n",
                    tables_h="typedef const int cint;\n"
                             "static cint grid[2][2] = {{1, 2}, {3, 4}};\n"
                             "static const double factor[2] = {0.5, 0.25};\n"
                             "static inline double scale(double x) { return factor[0] * x; }\n")
    assert res.ok, errors(res)
    assert "static const double weights[3] = {0.5, 0.25, 0.25};" in res.text
    assert "BAMBOO_PRIVATE" not in res.text


def test_extern_declarations_of_c_library_variables_stay_the_librarys(translate):
    # getopt's variables are per task through bamboo.h's macros, environ is the process's:
    # none is a global of the program, at file or block scope, with or without a header
    res = translate(PROLOGUE + "#include <unistd.h>\nextern int optind;\nextern char **environ;\n"
                    "int main(int argc, char **argv) { extern char *optarg; MPI_Init(&argc, &argv);\n"
                    "  getopt(argc, argv, \"a:\"); return optarg != 0 && optind && environ; }\n")
    assert res.ok, errors(res)
    assert "BAMBOO_PRIVATE" not in res.text and "bamboo_offset" not in res.text
    res = translate(PROLOGUE + "int main(void) { extern int opterr; return opterr; }\n")
    assert res.ok, errors(res)
    assert "BAMBOO_PRIVATE" not in res.text


def test_getopt_variables_become_the_tasks_own_and_same_names_stay_the_programs(translate):
    res = translate(PROLOGUE + "#include <unistd.h>\n#define ARG (optarg ? optarg : \"\")\n"
                    "struct usage { const char *optarg; };\n"
                    "static int next(int optind) { return optind + 1; }\n"
                    "int main(int argc, char **argv) { struct usage u; MPI_Init(&argc, &argv);\n"
                    "  getopt(argc, argv, \"a:\"); u.optarg = ARG;\n"
                    "  return next(optind) + (u.optarg == optarg); }\n")
    assert res.ok, errors(res)
    t = res.text
    assert '#define ARG ((*bamboo_optarg()) ? (*bamboo_optarg()) : "")' in t
    assert "struct usage { const char *optarg; };" in t
    assert "static int next(int optind) { return optind + 1; }" in t
    assert "return next((*bamboo_optind())) + (u.optarg == (*bamboo_optarg())); }" in t
    # code in a header is not rewritten: it would read the process's variable
    res = translate(PROLOGUE + '#include "args.h"\nint main(void) { return first(); }\n',
                    args_h="#include <unistd.h>\nstatic int first(void) { return optind; }\n")
    assert "args.h:2:33: error: privatized variable 'optind' is used in a header" in errors(res)[0]


def test_header_static_functions_using_header_statics_only_refused_when_called(translate):
    # as OSU's benchmark headers: static state and static helpers, most unused by each file
    header = ("static int print_size;\n"
              "static void set_size(void) { print_size = 1; }\n"
              "static int get_size(void) { return print_size; }\n"
              "static int via_get(void) { return get_size(); }\n")
    res = translate(PROLOGUE + '#include "coll.h"\nint main(void) { return print_size; }\n',
                    coll_h=header)
    assert res.ok, errors(res)
    assert "return BAMBOO_PRIVATE(print_size); }" in res.text
    # called through another header function: its use would read the process's variable
    res = translate(PROLOGUE + '#include "coll.h"\nint main(void) { return via_get(); }\n',
                    coll_h=header)
    assert errors(res) == ["coll.h:3:36: error: privatized variable 'print_size' is used in a "
                           "header, which the translator does not rewrite; move the code into "
                           "the .c file"]


def test_header_tentative_definition_registered_by_the_file_that_includes_it(translate):
    # the EXTERN idiom: `EXTERN int steps;` defines steps in the one file with EXTERN empty
    header = "#ifndef EXTERN\n#define EXTERN extern\n#endif\nEXTERN int steps;\nEXTERN double sums[4];\n"
    res = translate(PROLOGUE + '#define EXTERN\n#include "globals.h"\n'
                    "int main(void) { steps++; return (int)sums[steps]; }\n", globals_h=header)
    assert res.ok, errors(res)
    t = res.text
    assert "BAMBOO_PRIVATE(steps)++; return (int)BAMBOO_PRIVATE(sums)[BAMBOO_PRIVATE(steps)];" in t
    assert "\nsize_t bamboo_offset_steps;" in t and "\nsize_t bamboo_offset_sums;" in t
    assert '{"steps", &bamboo_offset_steps, &steps, sizeof(steps), __alignof__(steps)},' in t
    assert '{"sums", &bamboo_offset_sums, &sums, sizeof(sums), __alignof__(sums)},' in t
    # the other files see declarations only
    res = translate(PROLOGUE + '#include "globals.h"\nint f(void) { return steps; }\n', globals_h=header)
    assert res.ok, errors(res)
    assert "extern size_t bamboo_offset_steps;" in res.text
    assert "\nsize_t bamboo_offset_steps;" not in res.text and "bamboo_register" not in res.text


def test_definitions_in_a_header_are_the_templates_of_the_tasks_copies(translate):
    # EXTERN/INIT headers: the one file that defines them includes the initialized
    # definitions; a static table is each including file's own, so its offset is too.
    res = translate('#include "g.h"\nint main(void) { return counter + steps; }\n',
                    g_h="static int counter;\nint steps = 3;\n")
    assert res.ok, errors(res)
    assert "return BAMBOO_PRIVATE(counter) + BAMBOO_PRIVATE(steps);" in res.text
    assert "\nstatic size_t bamboo_offset_counter;" in res.text
    assert "\nsize_t bamboo_offset_steps;" in res.text
    assert '{"t.c:counter", &bamboo_offset_counter, &counter,' in res.text
    assert '{"steps", &bamboo_offset_steps, &steps,' in res.text
