"""Firing-rule companions of helpers defined in the user's headers: written into the
translated file after the header's #include, static; notes where they cannot be."""
import subprocess

from conftest import HAVE_MPICC, compile_c, errors, notes

HALO_H = ("#include <mpi.h>\n"
          "enum { HALO_TAG = 7 };\n"
          "static void halo_receive(double *b, int left, int right)\n{\n"
          "    if (left >= 0)\n"
          "        MPI_Recv(b, 1, MPI_DOUBLE, left, HALO_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n"
          "    if (right >= 0)\n"
          "        MPI_Recv(b + 1, 1, MPI_DOUBLE, right, HALO_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n"
          "}\n")


def program(before_region="", include='#include "halo.h"\n'):
    return (include + before_region +
            "void step(double *b, int left, int right)\n{\n#pragma bamboo olap\n"
            "    for (int it = 0; it < 4; it++) {\n#pragma bamboo send\n"
            "        MPI_Send(b, 1, MPI_DOUBLE, right, HALO_TAG, MPI_COMM_WORLD);\n"
            "#pragma bamboo receive\n"
            "        halo_receive(b, left, right);\n    }\n}\n")


def test_the_rule_announces_the_receives_of_a_header_helper(translate, tmp_path):
    res = translate(program(), explain=True, halo_h=HALO_H)
    assert res.ok, errors(res)
    assert notes(res) == []
    # after the #include line, before the code that calls it
    companion = ('#include "halo.h"\n'
                 "/* bamboo: firing rules of helpers defined in headers: each announces the "
                 "messages its helper will receive, without side effects */\n"
                 "static void bamboo_expect_halo_receive(double *b, int left, int right) "
                 "__attribute__((unused));\n"
                 "/* bamboo: firing rule of halo_receive(): announces the messages it will "
                 "receive, without side effects */\n"
                 "static void bamboo_expect_halo_receive(double *b, int left, int right)\n{\n"
                 "    (void)b;\n"
                 "    if (left >= 0) {\n"
                 "        bamboo_expect(left, HALO_TAG, MPI_COMM_WORLD);\n    }\n"
                 "    if (right >= 0) {\n"
                 "        bamboo_expect(right, HALO_TAG, MPI_COMM_WORLD);\n    }\n}\n"
                 '#line 2 "')
    assert companion in res.text
    assert "        bamboo_expect_halo_receive(b, left, right);\n" in res.text
    assert ("  bamboo_expect_halo_receive() for halo_receive() (defined in halo.h):\n"
            "    if (left >= 0): message from left, tag HALO_TAG, MPI_COMM_WORLD  [line 6]\n"
            "    if (right >= 0): message from right, tag HALO_TAG, MPI_COMM_WORLD  [line 8]\n"
            in res.explanation)
    if HAVE_MPICC:
        ok, err = compile_c(res.text, tmp_path)
        assert ok, err


def test_files_sharing_the_header_link_together(translate, tmp_path):
    # each translated file gets its own static companion: no symbol is defined twice
    if not HAVE_MPICC:
        return
    first = translate(program(), name="first.c", halo_h=HALO_H)
    second = translate(program().replace("void step(", "void other_step("), name="second.c",
                       halo_h=HALO_H)
    assert first.ok and second.ok, errors(first) + errors(second)
    for res, name in ((first, "first_out.c"), (second, "second_out.c")):
        ok, err = compile_c(res.text, tmp_path, name)
        assert ok, err
        assert "bamboo_expect_halo_receive(b, left, right);" in res.text
    linked = subprocess.run(["ld", "-r", str(tmp_path / "first_out.c.o"),
                             str(tmp_path / "second_out.c.o"), "-o", str(tmp_path / "both.o")],
                            capture_output=True, text=True)
    assert linked.returncode == 0, linked.stderr


def test_a_macro_defined_after_the_helper_keeps_its_receives_out(translate):
    res = translate(program(), halo_h=HALO_H.replace("enum { HALO_TAG = 7 };\n",
                                                    "#define HALO_TAG 7\n") +
                    "#undef HALO_TAG\n#define HALO_TAG 8\n")
    assert res.ok, errors(res)
    assert "bamboo_expect_halo_receive" not in res.text
    assert notes(res) == [
        "t.c:9:9: note: halo_receive() is left out of the firing rule and waits on its own: "
        "'halo_receive' cannot have a firing-rule companion (its code names 'HALO_TAG', which is "
        "defined as a macro after it, so the companion, written after the #include of its "
        "header, would read it differently)"]


def test_a_header_not_included_by_the_file_gets_no_companion(translate):
    res = translate(program(include=""), args=["-include", "halo.h"], halo_h=HALO_H)
    assert res.ok, errors(res)
    assert notes(res) == [
        "t.c:8:9: note: halo_receive() is left out of the firing rule and waits on its own: "
        "'halo_receive' cannot have a firing-rule companion (halo.h is not brought in by an "
        "#include line of this file)"]


def test_a_call_above_the_include_waits_on_its_own(translate):
    # the companion goes after the #include of halo.h, which comes after step()
    res = translate("#include <mpi.h>\nenum { HALO_TAG = 7 };\n"
                    "static void halo_receive(double *b, int left, int right);\n" +
                    program(include="").replace("#pragma bamboo send\n        MPI_Send(b, 1, "
                                                "MPI_DOUBLE, right, HALO_TAG, MPI_COMM_WORLD);\n",
                                                "") +
                    '#include "halo.h"\n', halo_h=HALO_H.replace("enum { HALO_TAG = 7 };\n", ""))
    assert res.ok, errors(res)
    assert notes(res) == [
        "t.c:9:9: note: halo_receive() is left out of the firing rule and waits on its own: "
        "'halo_receive' is defined in halo.h, and the firing-rule companions of helpers defined "
        "in headers follow the #include at line 12, below this call"]


def test_header_helpers_call_each_others_companions(translate, tmp_path):
    both = HALO_H + ("static void halo_twice(double *b, int left, int right)\n{\n"
                     "    halo_receive(b, left, right);\n    halo_receive(b, left, right);\n}\n")
    res = translate(program().replace("halo_receive(b, left, right);\n    }",
                                      "halo_twice(b, left, right);\n    }"), halo_h=both)
    assert res.ok, errors(res)
    text = res.text
    # both prototypes first: the companions call each other
    assert text.index("static void bamboo_expect_halo_twice(double *b, int left, int right) "
                      "__attribute__((unused));") < \
        text.index("static void bamboo_expect_halo_receive(double *b, int left, int right)\n")
    assert "    bamboo_expect_halo_receive(b, left, right);\n" \
           "    bamboo_expect_halo_receive(b, left, right);\n}" in text
    if HAVE_MPICC:
        ok, err = compile_c(text, tmp_path)
        assert ok, err


def test_a_send_block_must_not_call_a_header_helper_that_receives(translate):
    res = translate('#include "halo.h"\n'
                    "void step(double *b, int left, int right)\n{\n#pragma bamboo olap\n"
                    "    for (int it = 0; it < 4; it++) {\n#pragma bamboo send\n"
                    "        halo_receive(b, left, right);\n#pragma bamboo receive\n"
                    "        MPI_Recv(b, 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, "
                    "MPI_STATUS_IGNORE);\n    }\n}\n", halo_h=HALO_H)
    assert errors(res) == [
        "t.c:7:9: error: send block calls halo_receive(), which does not only send "
        "(halo_receive(): MPI_Recv at line 6 of halo.h); a send block holds sends only"]
