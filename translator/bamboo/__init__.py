"""Bamboo translator: annotated MPI C -> data-driven task program for the Bamboo runtime.

The pipeline is translate.py: frontend/ (parse, model, directives) -> analysis/ (summaries,
regions, firing-rule slices) -> transforms/ (each checked, then applied to one edit buffer)
-> emit/ (the output with #line directives, --explain).  README.md lists the modules.
"""
