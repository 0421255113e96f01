"""The benchmark scripts in benchmarks/ run, and the reference they measure against is right.

* `python benchmarks/hearts.py` with a tiny budget prints each side's games/s and actions/s and the
  ratio cardsmith/pyhearts (a smoke test: no timing is asserted).
* `python benchmarks/resample.py` prints each game's resampling times (a smoke test, as above).
* benchmarks/pyhearts.py, the hand-written Hearts it measures games/hearts.yaml against, plays as
  pyspiel's "hearts": the same player to act, the same legal moves and chance outcomes at every step,
  the same returns.
* `python benchmarks/melds.py` with a tiny budget prints each kind of hand's times and ratios (a smoke
  test), and the two meld finders of benchmarks/melds.yaml it times find the same least deadwood, with
  melds of the hand, as OpenSpiel's gin_rummy.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys

import pytest
from cardsmith.dsl import abi
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


def test_melds_benchmark_prints_its_figures() -> None:
    out = subprocess.run([sys.executable, str(BENCH / "melds.py"), "--rounds", "2", "--hands", "5"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    for kind in ("random", "rich"):
        rounds = [ln for ln in lines if ln.startswith(f"{kind} round ")]
        assert len(rounds) == 2
        for ln in rounds:
            assert re.search(rf"combinations {NUMBER} ms/hand, by hand {NUMBER} ms/hand, by hand/combinations "
                             rf"{NUMBER}$", ln), ln
        assert any(re.fullmatch(rf"{kind}: combinations {NUMBER} ms/hand, by hand {NUMBER} ms/hand; by hand/"
                                rf"combinations {NUMBER} \({NUMBER}\.\.{NUMBER}\)", ln) for ln in lines), kind


def test_the_two_meld_finders_agree() -> None:
    """benchmarks/melds.yaml's finders give, on the same hands, arrangements of melds of the hand that share
    no card and leave the same deadwood; with pyspiel, the least deadwood OpenSpiel finds (of ten cards; of
    eleven, the least of the ten-card hands a discard leaves)."""
    sys.path.insert(0, str(BENCH))
    try:
        from melds import finders, hands
    finally:
        sys.path.remove(str(BENCH))
    g, s, found = finders()
    deadwood = g.ns[abi.function("deadwood")]
    try:
        import pyspiel
        utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    except ImportError:
        utils = None
    rng = random.Random(5)
    seen = set()
    for kind in ("random", "rich"):
        for h in hands(kind, 600, rng):
            left = []
            for name, find in found.items():
                g.steps[0] = g.step_limit
                melds = find(s, h)
                cards = [c for m in melds for c in m]
                assert len(cards) == len(set(cards)) and set(cards) <= set(h), (name, h)
                for m in melds:  # a set of three or four, or a run of three to five of a suit
                    ranks, suits = {c % 13 for c in m}, {c // 13 for c in m}
                    assert (len(ranks) == 1 and len(m) in (3, 4)) or (
                        len(suits) == 1 and 3 <= len(m) <= 5 and max(m) - min(m) == len(m) - 1), (name, h, m)
                left.append(deadwood(s, h, melds))
            assert left[0] == left[1], h
            if utils is not None:
                expected = utils.min_deadwood(h) if len(h) == 10 else min(
                    utils.min_deadwood(h[:i] + h[i + 1:]) for i in range(len(h)))
                assert left[0] == expected, h
            seen.add((kind, len(h), len([m for m in found["combinations"](s, h)]) >= 2))
    assert len(seen) == 8  # both kinds, ten and eleven cards, with fewer and with more than one meld laid
