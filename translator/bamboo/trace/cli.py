"""bamboo trace: reading what --bamboo-trace FILE wrote (docs/tracing.md).

  bamboo trace summary FILE [--json] [--longest N]          where the time went
  bamboo trace plot FILE -o OUT.png [--from US] [--to US]   the timeline as a PNG
  bamboo trace check FILE                                   whether it is well formed
  bamboo trace merge FILE [--parts DIR]                     FILE out of a stopped job's parts

check prints each problem it finds and exits 1 if there are any; summary and plot refuse a
trace with problems. A file that cannot be read as a Bamboo trace, or a trace they refuse, is
one line on stderr, "bamboo trace: error: ...", and exit status 2.

A job that ends well writes FILE itself. One that is stopped (a deadlock report, a fault,
MPI_Abort, SIGTERM) leaves each process's part in FILE.parts/; merge makes FILE of them.
(This docstring is the command's --help.)"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from dataclasses import asdict

from ..driver import RUNTIME_LIBDIR

from .chrome import TraceError, load, problems, read
from .report import text
from .summary import summarize


def summary_command(args: argparse.Namespace) -> int:
    summary = summarize(load(args.file), args.file, args.longest)
    if args.json:
        print(json.dumps(asdict(summary), indent=2))
    else:
        sys.stdout.write(text(summary))
    return 0


def plot_command(args: argparse.Namespace) -> int:
    from .plot import draw  # matplotlib takes a while to import: only for this command

    trace = load(args.file)
    try:
        draw(trace, args.file, args.output, args.start, args.stop)
    except OSError as e:
        raise TraceError(f"{args.output}: {e.strerror}") from None
    return 0


def check_command(args: argparse.Namespace) -> int:
    data = read(args.file)
    found = problems(data)
    for problem in found:
        print(f"{args.file}: {problem}")
    if found:
        return 1
    processes = len(data["otherData"]["bamboo"]["processes"])
    print(f"{args.file}: {len(data['traceEvents'])} events, {processes} processes, well formed")
    return 0


def merge_command(args: argparse.Namespace) -> int:
    tool = RUNTIME_LIBDIR / "bamboo-trace-merge"
    if not tool.exists():
        raise TraceError(f"{tool} is not built: build the runtime first (make build)")
    parts = args.parts or f"{args.file}.parts"
    done = subprocess.run([str(tool), parts, args.file])
    if done.returncode != 0:
        raise TraceError(f"no trace made of the parts in {parts}")
    return 0


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="bamboo trace", description=__doc__.splitlines()[0],
                                  formatter_class=argparse.RawDescriptionHelpFormatter,
                                  epilog="\n".join(__doc__.splitlines()[2:]))
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    summary = commands.add_parser("summary", help="where the time went: processes, tasks, "
                                  "the longest waits, the overlap achieved")
    summary.add_argument("file", metavar="FILE")
    summary.add_argument("--json", action="store_true",
                         help="the same figures as JSON (times in microseconds)")
    summary.add_argument("--longest", type=int, default=10, metavar="N",
                         help="how many of the longest waits to list (default 10)")
    summary.set_defaults(run=summary_command)

    plot = commands.add_parser("plot", help="the timeline as a PNG")
    plot.add_argument("file", metavar="FILE")
    plot.add_argument("-o", dest="output", required=True, metavar="OUT.png")
    plot.add_argument("--from", dest="start", type=float, metavar="US",
                      help="the window's start, in the trace's microseconds")
    plot.add_argument("--to", dest="stop", type=float, metavar="US",
                      help="the window's end, in the trace's microseconds")
    plot.set_defaults(run=plot_command)

    check = commands.add_parser("check", help="whether the trace is well formed; exit 1 if not")
    check.add_argument("file", metavar="FILE")
    check.set_defaults(run=check_command)

    merge = commands.add_parser("merge", help="the trace of a job that was stopped, out of the "
                                "parts its processes left")
    merge.add_argument("file", metavar="FILE", help="the trace to write (--bamboo-trace's FILE)")
    merge.add_argument("--parts", metavar="DIR", help="where the parts are (default FILE.parts)")
    merge.set_defaults(run=merge_command)
    return top


def main(argv: list[str]) -> int:
    commands = parser()
    args = commands.parse_args(argv)
    if args.command == "summary" and args.longest < 0:
        commands.error("--longest must not be negative")
    if args.command == "plot" and None not in (args.start, args.stop) and args.start >= args.stop:
        commands.error("--from must be before --to")
    try:
        return args.run(args)
    except TraceError as e:
        print(f"bamboo trace: error: {e}", file=sys.stderr)
        return 2
