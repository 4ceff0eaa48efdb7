"""Bamboo translator: annotated MPI C -> data-driven task program for the Bamboo runtime.

Pipeline (see translate.py): parse with libclang -> build the program model (model.py) ->
check MPI use (mpi_check.py) -> privatize globals (privatize.py) -> regions, block reordering
and firing rules (regions.py, firing_rule.py) -> apply source edits (edits.py).
"""

__all__ = ["translate_file"]


def translate_file(path, compiler_args=()):
    from .translate import translate_file as _tf
    return _tf(path, compiler_args)
