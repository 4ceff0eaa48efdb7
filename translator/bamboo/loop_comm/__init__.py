"""Loop communication optimization (seed 004): OpenSHMEM loop nests that read or write remote
data an element at a time become bulk, strip-mined transfers whose granularity and kind the
run time chooses (runtime/loopcomm).

remote accesses (accesses.py) -> canonical loops (loops.py) -> affine indices (affine.py) ->
which nests may be hoisted, and why not (nests.py) -> the generated code (writer.py);
optimize.py is the pipeline.
"""
from .optimize import HEADER, LoopOptimization, is_shmem_program, optimize

__all__ = ["HEADER", "LoopOptimization", "is_shmem_program", "optimize"]
