"""Which sources are Fortran, as gfortran tells them apart, and the compiler that compiles
them."""
from __future__ import annotations

import os
from pathlib import Path

# gfortran runs the C preprocessor over the upper-case suffixes.
FIXED_FORM = (".f", ".for", ".ftn", ".F", ".FOR", ".FTN", ".fpp", ".FPP")
FREE_FORM = (".f90", ".f95", ".f03", ".f08", ".F90", ".F95", ".F03", ".F08")
FORTRAN_SUFFIXES = FIXED_FORM + FREE_FORM
PREPROCESSED = (".F", ".FOR", ".FTN", ".fpp", ".FPP", ".F90", ".F95", ".F03", ".F08")


def is_fortran(path: str) -> bool:
    return Path(path).suffix in FORTRAN_SUFFIXES


def is_free_form(path: str) -> bool:
    return Path(path).suffix in FREE_FORM


def is_preprocessed(path: str) -> bool:
    return Path(path).suffix in PREPROCESSED


def gfortran() -> str:
    """The Fortran compiler: gfortran, or the one BAMBOO_FC names (a gfortran too)."""
    return os.environ.get("BAMBOO_FC", "gfortran")
