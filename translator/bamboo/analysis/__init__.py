"""Analyses of the program model: function summaries and the firing-rule slicer."""
