"""Analyses of the program model: function summaries, olap regions, and the firing-rule
slicer (slicer.py) with its parts and the helper companions' fixpoint."""
