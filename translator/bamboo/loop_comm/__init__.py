"""Loop communication optimization (seed 004): OpenSHMEM loop nests that read or write remote
data an element at a time become bulk, strip-mined transfers whose granularity and kind the
run time chooses (runtime/loopcomm); the one-element MPI_Get/MPI_Put of a loop, one transfer
after it (bamboo_loopcomm_mpi.h).

remote accesses (accesses.py) -> canonical loops (loops.py) -> affine indices (affine.py) ->
which nests may be hoisted, and why not (nests.py) -> the generated code (writer.py);
optimize.py is the pipeline.
"""
from .optimize import (INCLUDE_DIR, LoopOptimization, includes_mpi, is_shmem_program, optimize,
                       with_mpi_header)

__all__ = ["INCLUDE_DIR", "LoopOptimization", "includes_mpi", "is_shmem_program", "optimize",
           "with_mpi_header"]
