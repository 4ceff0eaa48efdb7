"""bench/loopcomm/train's parsing and fitting, on synthetic measurements made from known LogGP
parameters: the fit must find them again, with a residual near 0, and write a profile the
runtime accepts. No SHMEM, no timing."""

from __future__ import annotations

import random

import pytest

from bench_scripts import REPO, load

train = load("loopcomm/train", "loopcomm_train")

KEYS = {f"{p}.{k}" for p in train.PRIMS for k in ("o", "g", "G", "L", "Gcpu")} | {
    "t_op", "host", "network", "nodes", "created", "fit_residual"}


def nonblocking(prim, o, g, G, L, gcpu, noise=0.0, rng=None):
    """Samples as train.c would print them for a nonblocking primitive with these parameters."""
    out = []
    for calls in (1, 4, 16, 64):
        for nbytes in (8, 64, 512, 4096, 32768, 262144, 1 << 20):
            jitter = (lambda: 1 + rng.uniform(-noise, noise)) if rng else (lambda: 1.0)
            issue = (calls * o + gcpu * calls * nbytes) * jitter()
            total = (L + o + (calls - 1) * g + G * calls * nbytes) * jitter()
            out.append(train.Sample(prim, calls, nbytes, 1, issue, max(total, issue)))
    return out


def blocking(prim, o, G):
    return [train.Sample(prim, calls, nbytes, 2, calls * (o + G * nbytes), calls * (o + G * nbytes))
            for calls in (1, 8) for nbytes in (8, 128, 2048, 32768, 262144)]


def synthetic(rng=None, noise=0.0):
    return (blocking("get", 2.0, 0.0004) + nonblocking("get_nbi", 0.3, 0.5, 0.0004, 4.0, 0.0, noise, rng)
            + nonblocking("put_nbi", 0.2, 0.25, 0.0008, 3.0, 0.0001, noise, rng)
            + blocking("iget", 5.0, 0.003) + nonblocking("iput", 1.5, 2.0, 0.002, 6.0, 0.0, noise, rng))


def test_the_fit_finds_the_parameters_back():
    fits = train.fit_all(synthetic())
    assert fits["get"].o == pytest.approx(2.0) and fits["get"].G == pytest.approx(0.0004)
    assert (fits["get"].g, fits["get"].L) == (pytest.approx(2.0), 0.0)
    nbi = fits["get_nbi"]
    assert (nbi.o, nbi.g, nbi.G, nbi.L) == (pytest.approx(0.3), pytest.approx(0.5), pytest.approx(0.0004),
                                             pytest.approx(4.0))
    assert nbi.Gcpu == pytest.approx(0.0, abs=1e-12)
    assert fits["put_nbi"].Gcpu == pytest.approx(0.0001) and fits["put_nbi"].L == pytest.approx(3.0)
    assert fits["iget"].G == pytest.approx(0.003) and fits["iput"].g == pytest.approx(2.0)
    assert all(f.residual < 1e-6 for f in fits.values())


def test_noise_shows_in_the_residual_not_in_negative_parameters():
    fits = train.fit_all(synthetic(random.Random(7), noise=0.2))
    nbi = fits["get_nbi"]
    assert nbi.G == pytest.approx(0.0004, rel=0.2) and nbi.o == pytest.approx(0.3, rel=0.5)
    assert 0.01 < nbi.residual < 0.3
    for f in fits.values():
        assert min(f.o, f.g, f.G, f.L, f.Gcpu) >= 0


def test_a_coefficient_that_would_be_negative_is_dropped():
    # more calls measured a little faster (noise): unconstrained, g would be -0.1; it is 0
    columns = [[1, 1, 1, 1], [0, 3, 0, 3], [100, 100, 5000, 5000]]
    coef, residual = train.nonnegative_lstsq(columns, [5.1, 4.8, 10.0, 9.7])
    assert coef[1] == 0.0 and coef[0] > 0 and coef[2] > 0 and residual < 0.05


def test_parsing_train_output():
    text = ("get_nbi 4 512 1 1.000 2.000\nnoise line\niput 8 128 16 3.5 4.5\n"
            f"top 1 1000000 0 0 1000.000\n")
    samples, t_op = train.parse(text)
    assert samples == [train.Sample("get_nbi", 4, 512, 1, 1.0, 2.0), train.Sample("iput", 8, 128, 16, 3.5, 4.5)]
    assert t_op == pytest.approx(1000.0 * 1e3 / 1e6 / 5)  # ns per operation
    assert train.parse("get 1 8 1 1 1\n")[1] is None


def test_a_missing_primitive_is_an_error():
    with pytest.raises(ValueError, match="iput"):
        train.fit_all([s for s in synthetic() if s.prim != "iput"])


def test_the_profile_has_only_keys_the_runtime_reads():
    text = train.profile_text(train.fit_all(synthetic()), 0.7, "1gbit", 2, "vm")
    keys = set()
    for line in text.splitlines():
        line = line.split("#")[0].strip()
        if line:
            key, value = line.split()
            keys.add(key)
            if key not in ("host", "network", "created"):
                assert float(value) >= 0
    assert keys == KEYS
    # the runtime's profile.c knows exactly these keys
    source = (REPO / "runtime" / "loopcomm" / "src" / "profile.c").read_text()
    for name in ("Gcpu", "fit_residual", "created", "t_op"):
        assert f'"{name}"' in source


def test_default_paths(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert train.default_path("shm", "vm") == tmp_path / "bamboo" / "loopcomm" / "vm.profile"
    assert train.default_path("1gbit", "vm") == tmp_path / "bamboo" / "loopcomm" / "vm-1gbit.profile"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert train.default_path("shm", "h") == tmp_path / ".config" / "bamboo" / "loopcomm" / "h.profile"
