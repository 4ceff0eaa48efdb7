"""Reading the runtime's traces (``--bamboo-trace FILE``, docs/tracing.md): ``bamboo trace``.

the file, checked, as a model (chrome.py) -> where the time went (summary.py, on interval
unions from intervals.py) -> as tables (report.py) or as a timeline (plot.py); cli.py is
``bamboo trace summary|plot|check``."""
