"""bench/loopcomm/run's reading of a run's output (the program's lines and the loopcomm
runtime's BAMBOO_LC_REPORT lines), its command lines, plan, tables and summary, on synthetic
output. No SHMEM, no timing assertions."""

from __future__ import annotations

import pytest

from bench_scripts import load

bench = load("loopcomm/run", "loopcomm_run")

PROBLEM = "problem CG n=131072 nonzeros_per_row_of_B=8 iterations=25 elements=131072 pes=4"
OUTPUT = f"{PROBLEM}\nverification: CG PASSED\ncheck CG max|x-x_serial|/max|x|=4.8e-16\ntime 0.065536\n"
REPORT = ("bamboo_lc site=cg_fine.c:18 executions=100 strips=8 kind=span refs=1 bytes=262144 "
          "analysis_us=655.36 fallback=none model_strips=2 model_us=31.5 measured_us=40.25\n")


def test_a_good_run_and_its_time_per_element_and_iteration():
    run = bench.read_run(0, OUTPUT, "")
    assert (run.seconds, run.iterations, run.elements, run.status) == (0.065536, 25, 131072, 0)
    assert run.ns_per_element == pytest.approx(0.065536 / (25 * 131072) * 1e9)   # 20 ns
    assert run.reports == ()


def test_an_opt_run_and_its_report():
    run = bench.read_run(0, OUTPUT, "some warning\n" + REPORT + REPORT.replace(":18", ":30").replace(
        "strips=8 kind=span", "strips=1 kind=pieces").replace("fallback=none", "fallback=overlap"), report=True)
    first, second = run.reports
    assert (first.site, first.executions, first.strips, first.kind, first.refs, first.bytes) == \
           ("cg_fine.c:18", 100, 8, "span", 1, 262144)
    assert (first.model_strips, first.model_us, first.measured_us) == (2, 31.5, 40.25)
    assert first.plan == "2→8/span" and second.plan == "fallback: overlap"   # the search moved 2 to 8
    assert bench.predictions([run]) == ["cg_fine.c:18: 31.5/40.2", "cg_fine.c:30: 31.5/40.2"]
    assert run.analysis_us == pytest.approx(2 * 655.36)


@pytest.mark.parametrize("status, stdout, stderr, report", [
    pytest.param(0, OUTPUT.replace("verification: CG PASSED\n", ""), "", False, id="no verification"),
    pytest.param(1, OUTPUT.replace("PASSED", "FAILED"), "", False, id="failed"),
    pytest.param(0, OUTPUT.replace("time 0.065536\n", ""), "", False, id="no time"),
    pytest.param(0, OUTPUT.replace(PROBLEM + "\n", ""), "", False, id="no problem line"),
    pytest.param(0, OUTPUT.replace("elements=131072", "elements=0"), "", False, id="zero elements"),
    pytest.param(0, OUTPUT, "", True, id="opt without its report"),
    pytest.param(139, "", "Caught signal 11", False, id="crashed before its results"),
])
def test_runs_that_cannot_be_counted(status, stdout, stderr, report):
    with pytest.raises(bench.RunFailed):
        bench.read_run(status, stdout, stderr, report)


def config(kernel="cg", network="shm", nodes=4, version="hand", strips=0, kind=""):
    return bench.Config(kernel, network, nodes, version, strips, kind)


def test_commands_on_shared_memory():
    hand = bench.command(config())
    assert hand[:4] == [str(bench.OSHRUN), "--oversubscribe", "-np", "4"] and "-x" not in hand
    assert hand[-3:] == [str(bench.APP / "build" / "cg_hand"), *bench.FULL["cg"]]
    fine = bench.command(config(version="fine", kernel="ft"))
    assert fine[-3:] == [str(bench.APP / "build" / "ft_fine"), *bench.FINE_SHM["ft"]]
    assert bench.FINE_SHM["ft"] != bench.FULL["ft"]


def test_opt_commands_export_the_profile_the_report_and_the_forced_plan(tmp_path):
    profile = tmp_path / "shm.profile"
    model = bench.command(config(version="opt"), profile)
    exports = {model[i + 1] for i, word in enumerate(model) if word == "-x"}
    assert exports == {"BAMBOO_LC_REPORT=1", f"BAMBOO_LOOPCOMM_PROFILE={profile}"}
    forced = bench.command(config(version="opt", strips=16, kind="pieces"), profile)
    exports = {forced[i + 1] for i, word in enumerate(forced) if word == "-x"}
    assert {"BAMBOO_LC_STRIPS=16", "BAMBOO_LC_KIND=pieces"} <= exports
    assert forced.index("-x") < forced.index(str(bench.APP / "build" / "cg_opt"))
    without = bench.command(config(version="opt"), None)
    assert not any(w.startswith("BAMBOO_LOOPCOMM_PROFILE") for w in without)
    untuned = bench.command(config(version="untuned"), profile)
    assert "BAMBOO_LC_TUNE=0" in untuned and str(bench.APP / "build" / "cg_opt") in untuned


def test_commands_through_the_lab():
    two = bench.command(config(network="1gbit", nodes=2, version="fine", kernel="is"))
    assert two[:6] == [str(bench.OSHRUN), "--lab", "--lab-nodes", "2", "--oversubscribe", "-np"]
    assert two[6] == "2" and two[-4:] == [str(bench.APP / "build" / "is_fine"), *bench.FINE_LAB["is"]]


def test_train_command(tmp_path):
    assert bench.train_command("1gbit", tmp_path / "p", False) == [
        str(bench.TRAIN), "--network", "1gbit", "--nodes", "2", "--out", str(tmp_path / "p")]
    assert bench.train_command("shm", tmp_path / "p", True)[-1] == "--quick"


def test_profile_dir_needs_every_networks_profile(tmp_path):
    (tmp_path / "shm.profile").write_text("x\n")
    assert bench.train(["shm"], tmp_path / "out", tmp_path, False) == {"shm": tmp_path / "shm.profile"}
    with pytest.raises(bench.RunFailed, match="1gbit.profile"):
        bench.train(["shm", "1gbit"], tmp_path / "out", tmp_path, False)


def test_plan():
    configs = bench.plan(["shm", "1gbit"], [2, 4], ["cg", "mg"], [1, 8, 64], ["span", "pieces"])
    assert len(configs) == len(set(configs))
    # per network and PE count: fine and hand of every kernel; opt (searched, untuned, 6 swept) of 2
    assert len(configs) == 2 * 2 * (len(bench.KERNELS) * 2 + 2 * (2 + 6))
    assert not any(c.version == "opt" and c.kernel in ("cgi", "ft", "is") for c in configs)
    assert config("mg", "1gbit", 4, "opt", 8, "pieces") in configs


def synthetic_runs(configs, hand_over_opt=2.0):
    """fine 100 ns, hand 2*opt, opt 10 ns (model), swept 8/pieces the fastest (9 ns)."""
    def seconds(c):
        ns = {"fine": 100.0, "hand": 10.0 * hand_over_opt[c.kernel] if isinstance(hand_over_opt, dict)
              else 10.0 * hand_over_opt}.get(c.version, 10.0)
        if c.swept:
            ns = 9.0 if (c.strips, c.kind) == (8, "pieces") else 12.0
        return ns * 1e-9 * 5 * 1000
    out = {}
    for c in configs:
        reports = ()
        if c.version in bench.OPT_VERSIONS:
            reports = (bench.SiteReport("x.c:1", 5, c.strips or 4, c.kind or "span", 1, 8000, 0.5, "none",
                                        c.strips or 4, 2.0, 2.5),)
        out[c] = [bench.Run(seconds(c), 5, 1000, 0, reports)] * 3
    return out


def test_tables_ratios_model_sweep_and_analysis():
    networks, nodes = ["shm", "200mbit"], [2, 4]
    configs = bench.plan(networks, nodes, list(bench.KERNELS), [1, 8], ["span", "pieces"])
    summaries = bench.summarize(configs, synthetic_runs(configs))
    text = bench.tables(summaries, networks, nodes, {})
    table = [line for line in text.splitlines() if line.startswith("|")]
    assert len(table) == 2 + len(networks) * len(nodes) * len(bench.KERNELS)
    assert {line.count("|") for line in table} == {table[0].count("|")}
    row = next(line for line in table if line.startswith("| FT | 200mbit | 4 |"))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[3:9] == ["100", "20", "10", "10", "2.00", "10.00"]
    assert cells[9] == "4/span"             # the plan from the report
    assert cells[10] == "8/pieces: 9"       # the fastest swept plan and its ns
    assert cells[11] == "2/2.5"             # the model's µs per iteration, predicted/measured
    # analysis: 0.5 µs of a 50 µs run
    assert cells[12] == "1.00"
    assert f"summary: mean hand/opt 2.00 over {2 * 2 * len(bench.KERNELS)} configurations" in text


def test_summary_names_the_worst_kernel():
    configs = bench.plan(["shm"], [2, 4], list(bench.KERNELS), [], [])
    runs = synthetic_runs(configs, {"cg": 3.0, "cgi": 2.5, "mg": 1.3, "ft": 2.0, "is": 0.5})
    line = bench.summary_line(bench.summarize(configs, runs), ["shm"], [2, 4])
    assert line.startswith("summary: mean hand/opt 1.86 over 10 configurations")
    assert "worst kernel IS (mean hand/opt 0.50)" in line


def test_without_opt_the_tables_say_why_and_have_no_ratios():
    configs = bench.plan(["shm"], [2, 4], [], [1], ["span"])
    assert {c.version for c in configs} == {"fine", "hand"}
    summaries = bench.summarize(configs, synthetic_runs(configs))
    why = {k: "bamboocc: error: no loop optimizer" for k in bench.KERNELS}
    text = bench.tables(summaries, ["shm"], [2, 4], why)
    row = next(line for line in text.splitlines() if line.startswith("| CG | shm | 2 |"))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[3:5] == ["100", "20"] and set(cells[5:]) == {"—"}
    assert "summary: no opt runs" in text
    assert "CG: bamboocc: error: no loop optimizer" in text


def test_summary_is_a_median_per_element_and_iteration():
    c = config()
    runs = [bench.Run(t * 1e-9 * 10 * 100, 10, 100, 0) for t in (1.0, 3.0, 2.0)]
    s = bench.summarize([c], {c: runs})[c]
    assert (s.median, s.low, s.high, s.runs, s.crashed) == (pytest.approx(2.0), pytest.approx(1.0),
                                                            pytest.approx(3.0), 3, 0)


def test_model_plan_is_the_most_common_per_site():
    def run(strips, fallback="none"):
        return bench.Run(1.0, 1, 1, 0, (bench.SiteReport("mg_fine.c:12", 1, strips, "pieces", 1, 8, 1.0, fallback),
                                        bench.SiteReport("mg_fine.c:16", 1, 2, "span", 1, 8, 1.0, "none")))
    plans = bench.model_plans([run(4), run(4), run(8), run(1, "too-small")])
    assert plans == ["mg_fine.c:12: 4/pieces", "mg_fine.c:16: 2/span"]
    assert bench.short_plans(plans) == "mg_fine.c:12: 4/pieces; mg_fine.c:16: 2/span"
    assert bench.short_plans(["a.c:1: 4/span", "a.c:2: 4/span"]) == "4/span"


def test_why_a_build_failed():
    assert bench.why_not_built(["cc -o x", "x.c:3: undefined reference to `shmem_malloc'",
                                "collect2: error: ld returned 1 exit status"]).endswith("`shmem_malloc'")
    assert bench.why_not_built(["bamboocc: error: not an MPI program", "make: *** Error 1"]) == \
        "bamboocc: error: not an MPI program"
    assert bench.why_not_built([]) == "no output"


def test_summary_csv(tmp_path):
    configs = bench.plan(["shm"], [2], ["cg"], [1], ["span"])
    summaries = bench.summarize(configs, synthetic_runs(configs))
    bench.write_summary(summaries, tmp_path)
    lines = (tmp_path / "summary.csv").read_text().splitlines()
    assert len(lines) == 1 + len(configs)
    assert any(line.startswith("cg,shm,2,opt,1,span,3,0,") for line in lines)
