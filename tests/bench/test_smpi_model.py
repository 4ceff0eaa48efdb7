"""bench/smpi's model of computation (model.py, calibrate/) and its sweep plan: no simulation."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from bench_scripts import REPO, load

sys.path.insert(0, str(REPO / "bench" / "smpi"))
import model  # noqa: E402

run = load("smpi/run", "smpi_run")


def test_missing_keys_are_read_from_what_the_simulation_said():
    stderr = ("app: no modelled cost for APP_COST_cannon_dgemm_64_64\n"
              "something else\n"
              "app: no modelled cost for APP_COST_jacobi3d_sweep\n"
              "app: no modelled cost for APP_COST_cannon_dgemm_64_64\n")
    assert model.missing_keys(stderr) == {"APP_COST_cannon_dgemm_64_64", "APP_COST_jacobi3d_sweep"}
    assert model.missing_keys("") == set()


def test_the_full_sweep_is_the_issues():
    args = argparse.Namespace(full=True)
    plan = run.plan_runs(args)
    assert ("jacobi3d", 4096, "torus", [2, 4]) in plan
    assert ("jacobi3d", 4096, "fattree", [2, 4]) not in plan
    for p in (64, 256, 1024):
        for platform in ("torus", "fattree"):
            assert ("jacobi3d", p, platform, [2, 4]) in plan
            assert ("cannon", p, platform, [4]) in plan
    assert {(app, p) for app, p, *_ in plan if app == "multigrid"} == {("multigrid", 64), ("multigrid", 256)}
    assert len(plan) == len(set((app, p, platform) for app, p, platform, _ in plan))
    assert [p for _, p, *_ in plan] == sorted(p for _, p, *_ in plan)  # 4096's hours come last


@pytest.fixture(scope="module")
def calibrate(tmp_path_factory):
    out = tmp_path_factory.mktemp("calibrate") / "calibrate"
    sources = sorted(str(p) for p in (REPO / "bench" / "smpi" / "calibrate").glob("*.c"))
    includes = [f"-I{REPO / 'apps' / d}" for d in ("common", "jacobi3d", "cannon", "multigrid")]
    subprocess.run(["cc", "-O2", *includes, "-o", str(out), *sources, "-lopenblas", "-lm"], check=True)
    return out


@pytest.mark.parametrize("key", ["APP_COST_jacobi3d_sweep", "APP_COST_jacobi3d_sweep_8_16_32", "APP_COST_cannon_dgemm_32_16",
                                 "APP_COST_multigrid_zero_8", "APP_COST_multigrid_pack_8_8_8_2",
                                 "APP_COST_multigrid_unpack_8_2_2_2", "APP_COST_multigrid_gsrb_8_10_10",
                                 "APP_COST_multigrid_residual_8_8_8_8", "APP_COST_multigrid_restrict_4",
                                 "APP_COST_multigrid_interpolate_8_8_8_8"])
def test_every_kernel_key_gets_a_cost(calibrate, key):
    out = subprocess.run([str(calibrate), key], capture_output=True, text=True, check=True,
                         env={"OPENBLAS_NUM_THREADS": "1"}).stdout.split()
    assert out[0] == key
    assert 0 < float(out[1]) < 1e-6  # seconds per point or flop


@pytest.mark.parametrize("key", ["APP_COST_nonesuch_1", "APP_COST_cannon_dgemm_32", "APP_COST_jacobi3d_sweep_1_2",
                                 "cannon_dgemm_32_16"])
def test_a_key_no_kernel_knows_is_an_error(calibrate, key):
    done = subprocess.run([str(calibrate), key], capture_output=True, text=True)
    assert done.returncode == 1
    assert f"calibrate: no kernel answers to {key}" in done.stderr
