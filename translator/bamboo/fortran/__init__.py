"""Fortran programs (docs/fortran.md).

A Fortran program is built as written, but for its directives, lowered on their own lines, by
gfortran against Bamboo's `mpif.h` and `mpi` module; its MPI calls link to the runtime's Fortran bindings (runtime/fortran), and each task
runs its own copy of the program, so that module, COMMON and SAVE data are the task's.

| module | role |
|---|---|
| `sources.py` | which files are Fortran, in which source form, and the compiler |
| `bindings.py` | the MPI routines the runtime binds for Fortran (a test checks it against libbamboo_fortran.a) |
| `check.py` | the front end: fparser's parse of a file, its MPI calls checked, its directives lowered |
| `directives.py` | `!$bamboo olap`, `send`, `receive`, `priority`, `dimension`: firing rules and send blocks, line for line |
| `comm_directives.py` | seed 003's `!$comm_parameters` and `!$comm_p2p`, lowered to MPI two-sided, line for line |
| `build.py` | compiling and linking: the program's shared object, embedded in the executable |
"""
