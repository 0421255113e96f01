"""The benchmark scripts in benchmarks/ run, and the reference they measure against is right.

* `python benchmarks/hearts.py` with a tiny budget prints each side's games/s and actions/s and the
  ratio cardsmith/pyhearts (a smoke test: no timing is asserted).
* `python benchmarks/resample.py` prints each game's resampling times (a smoke test, as above).
* benchmarks/pyhearts.py, the hand-written Hearts it measures games/hearts.yaml against, plays as
  pyspiel's "hearts": the same player to act, the same legal moves and chance outcomes at every step,
  the same returns.
* `python benchmarks/cribbage_count.py` prints the time per hand of Cribbage's show counted with
  `subsets`/`combinations` (games/cribbage.yaml) and by bit masks (benchmarks/cribbage-count.yaml), and
  both counts agree with OpenSpiel's ScoreHand, written out here in Python, on random hands.
* `python benchmarks/ismcts.py` with a tiny budget prints the time per decision of each side (OpenSpiel's
  ISMCTSBot, cardsmith's ismcts on each backend) and how many decisions each made (a smoke test).
* `python benchmarks/melds.py` with a tiny budget prints each kind of hand's times and ratios (a smoke
  test), and the two meld finders of benchmarks/melds.yaml it times find the same least deadwood, with
  melds of the hand, as OpenSpiel's gin_rummy.
* `python benchmarks/limits.py` with a few matches prints the bounds table of docs/research.md ("Game
  limits"): each game's longest random match within its `max_game_length`.
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


def test_limits_benchmark_prints_its_table() -> None:
    out = subprocess.run([sys.executable, str(BENCH / "limits.py"), "kuhn-poker", "hearts", "--matches", "5",
                          "--backend", "python", "--markdown"], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    rows = [ln.strip("| ").split(" | ") for ln in out.stdout.splitlines()
            if ln.startswith(("| kuhn-poker", "| hearts"))]
    assert len(rows) == 4  # the bounds table and the results table, a row of each game in each
    kuhn, hearts = rows[0], rows[1]
    assert kuhn[3] == "3" and hearts[3] == "64" and int(hearts[2]) <= 64  # max_game_length, the longest match
    assert hearts[5] == "52" == hearts[6]  # chance nodes in the longest match, max_chance_nodes_in_history
    assert hearts[8] == "52" == hearts[9]  # max_chance_outcomes, the pack
    assert rows[2][2:6] == ["4", "-2", "2", "zero-sum"]


def test_resample_benchmark_prints_its_figures() -> None:
    out = subprocess.run([sys.executable, str(BENCH / "resample.py"), "--states", "3", "kuhn-poker", "stichln"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert [ln.split(":")[0] for ln in lines] == ["kuhn-poker 2p", "stichln 4p"]
    for ln in lines:
        assert re.fullmatch(rf"[\w-]+ \dp: median {NUMBER} ms, longest {NUMBER} s, gave up 0 of 3", ln), ln


@pytest.mark.rl
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


@pytest.mark.slow
def test_cribbage_count_benchmark_prints_its_figures() -> None:
    out = subprocess.run([sys.executable, str(BENCH / "cribbage_count.py"), "--hands", "20", "--rounds", "2"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 5
    for ln in lines[:2]:
        assert re.fullmatch(rf"round \d: combinations {NUMBER} us/hand, bit masks {NUMBER} us/hand, "
                            rf"combinations/bit masks {NUMBER}", ln), ln
    for side, ln in zip(("combinations", "bit masks"), lines[2:4]):
        assert re.fullmatch(rf"{side}: {NUMBER} us/hand \({NUMBER}\.\.{NUMBER}\)", ln), ln
    assert re.fullmatch(rf"combinations/bit masks \(time per hand\): {NUMBER} \({NUMBER}\.\.{NUMBER}\), "
                        r"20 hands, 2 rounds", lines[4]), lines[4]


def openspiel_score_hand(hand: list[int], starter: int) -> int:
    """OpenSpiel's ScoreHand(hand, starter) (open_spiel/games/cribbage/cribbage.cc), cards numbered
    suit * 13 + rank: nobs, the flush, then the five cards sorted by rank and suit, scored over bit masks."""
    def rank(c: int) -> int:
        return c % 13

    def suit(c: int) -> int:
        return c // 13

    score = 1 if any(rank(c) == 10 and suit(c) == suit(starter) for c in hand) else 0
    five = sorted(hand + [starter], key=lambda c: (rank(c), suit(c)))
    if len({suit(c) for c in five}) == 1:
        score += 5
    elif len({suit(c) for c in hand}) == 1:
        score += 4

    def picked(mask: int) -> list[int]:
        return [five[i] for i in range(5) if mask >> i & 1]

    for mask in range(32):
        cards = picked(mask)
        if len(cards) >= 2 and sum(min(rank(c) + 1, 10) for c in cards) == 15:
            score += 2
        if len(cards) == 2 and rank(cards[0]) == rank(cards[1]):
            score += 2

    def is_run(mask: int) -> bool:
        cards = picked(mask)
        return all(rank(b) == rank(a) + 1 for a, b in zip(cards, cards[1:]))

    if is_run(31):
        return score + 5
    fours = [m for m in (30, 29, 27, 23, 15) if is_run(m)]
    threes = [m for m in (7, 11, 13, 14, 19, 21, 22, 25, 26, 28) if is_run(m) and not any(f & m == m for f in fours)]
    return score + 4 * len(fours) + 3 * len(threes)


@pytest.mark.slow
def test_both_cribbage_counts_agree_with_openspiels_score_hand() -> None:
    sys.path.insert(0, str(BENCH))
    try:
        from cribbage_count import RULE_FILES, Counter, hands
    finally:
        sys.path.remove(str(BENCH))
    items = hands(800, 7)
    # Hands that score each way: the best hand, a double run, flushes of four and five, his nobs.
    items += [((4, 17, 30, 49), 43, False), ((2, 15, 29, 43), 8, False), ((27, 29, 31, 33), 12, True),
              ((27, 29, 31, 33), 38, False), ((0, 28, 45, 23), 21, False)]
    # The crib scores a flush of four, as a hand does (OpenSpiel's default, crib_four_flush).
    expected = [openspiel_score_hand(list(hand), starter) for hand, starter, _ in items]
    assert max(expected) == 29 and sum(p == 0 for p in expected) > 50
    for name, path in RULE_FILES.items():
        _, points = Counter(path, items).run()
        assert points == expected, name


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


@pytest.mark.slow
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


@pytest.mark.slow
@pytest.mark.rl
def test_openspiel_benchmark_prints_and_writes_its_tables(tmp_path) -> None:
    """`python benchmarks/openspiel.py` with a tiny budget: its tables, and `--write` puts them between the
    marker lines of a page (a smoke test: no timing is asserted)."""
    pytest.importorskip("pyspiel")
    page = tmp_path / "page.md"
    page.write_text("before\n<!-- benchmarks/openspiel.py: begin (generated; do not edit) -->\nold\n"
                    "<!-- benchmarks/openspiel.py: end -->\nafter\n", encoding="utf-8")
    for what in ("playouts", "seeding"):
        out = subprocess.run([sys.executable, str(BENCH / "openspiel.py"), what, "kuhn-poker", "--rounds", "1",
                              "--seconds", "0.05", "--markdown", "--write", str(page)],
                             capture_output=True, text=True, timeout=300, cwd=ROOT)
        assert out.returncode == 0, out.stderr
        assert "| Kuhn poker | 2 |" in out.stdout
    text = page.read_text(encoding="utf-8")
    assert text.startswith("before\n<!-- benchmarks/openspiel.py: begin") and text.endswith("end -->\nafter\n")
    assert "old" not in text and "| Kuhn poker | 2 |" in text and "seeded draws a match" in text


@pytest.mark.slow
@pytest.mark.rl
def test_ismcts_benchmark_prints_its_figures() -> None:
    pytest.importorskip("pyspiel")
    from cardsmith.native import build
    if build.missing() is not None:
        pytest.skip(str(build.missing()))
    out = subprocess.run([sys.executable, str(BENCH / "ismcts.py"), "--rounds", "1", "--iterations", "5", "kuhn"],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    rows = [line for line in out.stdout.splitlines() if line.startswith("| kuhn |")]
    assert [r.split(" | ")[1] for r in rows] == ["OpenSpiel ISMCTSBot", "cardsmith native", "cardsmith python"]
    assert all(r.split(" | ")[2] == "20" for r in rows)
