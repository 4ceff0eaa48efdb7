"""The summary as a person reads it: tables of the processes, the tasks and the longest waits,
then the job's overlap; times in milliseconds (to the microsecond the trace records), shares
in percent, bytes in binary units."""
from __future__ import annotations

from .summary import Summary


def ms(us: float) -> str:
    value = us / 1000
    return f"{0.0 if abs(value) < 0.0005 else value:.3f}"  # no "-0.000" from rounding


def percent(fraction: float | None) -> str:
    if fraction is None:
        return "-"
    value = 100 * fraction
    return f"{0.0 if abs(value) < 0.05 else value:.1f}%"


def of(part: float, whole: float) -> str:
    return percent(part / whole if whole > 0 else None)


def size(count: int) -> str:
    if count < 1024:
        return f"{count} B"
    value, unit = count / 1024, "KiB"
    for larger in ("MiB", "GiB"):
        if value < 1024:
            break
        value, unit = value / 1024, larger
    return f"{value:.1f} {unit}"


def messages(count: int, total_bytes: int) -> str:
    return f"{count} ({size(total_bytes)})"


def table(title: str, header: list[str], rows: list[list[str]],
          text_columns: tuple[int, ...] = (0,)) -> list[str]:
    """`title`, then the columns: those of text left-aligned, those of figures right-aligned."""
    widths = [max(len(line[k]) for line in [header, *rows]) for k in range(len(header))]

    def line(cells: list[str]) -> str:
        return "  ".join(cell.ljust(w) if k in text_columns else cell.rjust(w)
                         for k, (cell, w) in enumerate(zip(cells, widths))).rstrip()
    return [title, line(header), *(line(row) for row in rows)]


def stops(summary: Summary) -> list[str]:
    """Where a job that did not end well stopped, and what its tasks still waited for."""
    if not (summary.stopped or summary.missing):
        return []
    lines = ["The job did not end well"]
    lines += [f"p{process} stopped at {ms(stop.at)} ms: {stop.why}"
              for process, stop in sorted(summary.stopped.items())]
    lines += [f"p{process} left no part of the trace (killed before it could write one?)"
              for process in summary.missing]
    lines.append("")
    if summary.unended_waits:
        lines += table(
            "Waits that never ended (ms)",
            ["vrank", "since", "call", "for"],
            [[str(w.vrank), ms(w.begin), w.name, w.waits_for] for w in summary.unended_waits],
            text_columns=(0, 2, 3))
    else:
        lines.append("Waits that never ended: none")
    return lines + [""]


def text(summary: Summary) -> str:
    lines = [f"{summary.file}: {len(summary.processes)} processes, {len(summary.tasks)} tasks "
             f"(VF {summary.vf}), {summary.events} events"]
    if summary.truncated_at is not None:
        lines.append(f"truncated at {ms(summary.truncated_at)} ms: a thread's trace buffer "
                     "filled up, the figures cover the job up to there")
    if summary.filter:
        lines.append(f"filtered (--bamboo-trace-filter {summary.filter}): the figures cover what "
                     "the filter kept")
    lines.append("")
    lines += stops(summary)
    # One-sided operations get a column where there are any.
    one_sided = any(p.one_sided for p in summary.processes)
    lines += table(
        "Processes (ms; compute, idle and runtime in % of the workers' time)",
        ["process", "workers", "workers' time", "compute", "%", "idle", "%", "runtime", "%",
         "sent within", "to others", *(["one-sided"] if one_sided else []), "overlap"],
        [[f"p{p.process}", str(p.workers), ms(p.worker_time),
          ms(p.compute), of(p.compute, p.worker_time), ms(p.idle), of(p.idle, p.worker_time),
          ms(p.runtime), of(p.runtime, p.worker_time),
          messages(p.messages_within, p.bytes_within),
          messages(p.messages_to_others, p.bytes_to_others),
          *([messages(p.one_sided, p.one_sided_bytes)] if one_sided else []), percent(p.overlap)]
         for p in summary.processes])
    lines.append("")
    lines += table(
        "Tasks (ms; in % of the task's life, its first to its last span)",
        ["vrank", "process", "life", "compute", "%", "wait", "%", "ready", "%"],
        [[str(t.vrank), "-" if t.process is None else f"p{t.process}", ms(t.life),
          ms(t.compute), of(t.compute, t.life), ms(t.wait), of(t.wait, t.life),
          ms(t.ready), of(t.ready, t.life)]
         for t in summary.tasks], text_columns=(0, 1))
    lines.append("")
    if summary.longest_waits:
        lines += table(
            "Longest waits (ms)",
            ["vrank", "waited", "since", "call", "for"],
            [[str(w.vrank), ms(w.duration), ms(w.begin), w.name, w.waits_for]
             for w in summary.longest_waits], text_columns=(0, 3, 4))
    else:
        lines.append("Longest waits: none, no task waited")
    lines.append("")
    flight = sum(p.flight for p in summary.processes)
    if summary.overlap is None:
        lines.append("Job: no message between processes, no overlap to achieve")
    else:
        lines.append(f"Job: achieved overlap {percent(summary.overlap)} "
                     f"(of {ms(flight)} ms in flight between processes, summed over them, "
                     f"{ms(sum(p.overlapped for p in summary.processes))} covered by computation)")
    return "\n".join(lines) + "\n"
