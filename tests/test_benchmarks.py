"""The benchmark scripts in benchmarks/ run, and the reference they measure against is right.

* `python benchmarks/hearts.py` with a tiny budget prints each side's games/s and actions/s and the
  ratio cardsmith/pyhearts (a smoke test: no timing is asserted).
* `python benchmarks/resample.py` prints each game's resampling times (a smoke test, as above).
* benchmarks/pyhearts.py, the hand-written Hearts it measures games/hearts.yaml against, plays as
  pyspiel's "hearts": the same player to act, the same legal moves and chance outcomes at every step,
  the same returns.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys

import pytest
from conftest import ROOT

BENCH = ROOT / "benchmarks"
NUMBER = r"[\d,]+(?:\.\d+)?"


def test_hearts_benchmark_prints_its_figures() -> None:
    out = subprocess.run([sys.executable, str(BENCH / "hearts.py"), "--rounds", "2", "--games", "2"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    rounds = [ln for ln in lines if ln.startswith("round ")]
    assert len(rounds) == 2
    for ln in rounds:
        assert re.search(rf"pyhearts {NUMBER} games/s {NUMBER} actions/s", ln), ln
        assert re.search(rf"cardsmith {NUMBER} games/s {NUMBER} actions/s", ln), ln
        assert re.search(rf"cardsmith/pyhearts {NUMBER}$", ln), ln
    for side in ("pyhearts", "cardsmith"):
        assert any(re.fullmatch(rf"{side}: {NUMBER} \({NUMBER}\.\.{NUMBER}\) games/s, "
                                rf"{NUMBER} \({NUMBER}\.\.{NUMBER}\) actions/s", ln) for ln in lines), side
    assert re.match(rf"cardsmith/pyhearts \(games/s\): {NUMBER} \({NUMBER}\.\.{NUMBER}\)", lines[-1]), lines[-1]


def test_resample_benchmark_prints_its_figures() -> None:
    out = subprocess.run([sys.executable, str(BENCH / "resample.py"), "--states", "3", "kuhn-poker", "stichln"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert [ln.split(":")[0] for ln in lines] == ["kuhn-poker 2p", "stichln 4p"]
    for ln in lines:
        assert re.fullmatch(rf"[\w-]+ \dp: median {NUMBER} ms, longest {NUMBER} s, gave up 0 of 3", ln), ln


def test_pyhearts_plays_as_openspiel() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    sys.path.insert(0, str(BENCH))
    try:
        from pyhearts import Hearts
    finally:
        sys.path.remove(str(BENCH))
    ref_game = pyspiel.load_game("hearts")
    for seed in range(100):
        rng = random.Random(seed)
        h, ref = Hearts(), ref_game.new_initial_state()
        while not ref.is_terminal():
            assert h.current_player() == ref.current_player(), seed
            legal = [a for a, _ in ref.chance_outcomes()] if ref.is_chance_node() else ref.legal_actions()
            assert sorted(h.legal_actions()) == legal, seed
            a = rng.choice(legal)
            h.apply(a)
            ref.apply_action(a)
        assert h.current_player() == -4 and h.returns() == ref.returns(), seed


def test_the_benchmark_runs_through_chance_nodes_too() -> None:
    r = subprocess.run([sys.executable, str(BENCH / "hearts.py"), "--rounds", "1", "--games", "2", "--chance-nodes"],
                       capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert re.match(rf"cardsmith/pyhearts \(games/s\): {NUMBER} ", r.stdout.splitlines()[-1]), r.stdout
