"""Information-state strings of native states (issue 33), worked out from the native observations without the
Python twin (`cardsmith.native.infostate`): word for word the Python backend's for every bundled game, as
CFR and MCCFR ask them (clone, apply, the acting player's string at each node) and as a state asked once
asks them (a state read back, asked first many actions on, at a chance node); and, like the Python
backend's, blind to the cards a player cannot see. The long run is `python -m cardsmith.native.difftest
GAME...`, which compares every player's string with the Python backend's (`--views-every K`).
Skipped where the machine has no C++ compiler or no pybind11."""

from __future__ import annotations

import random
import shutil
from typing import Any

import cardsmith
import pytest
from cardsmith.engine.errors import GameError
from cardsmith.engine.state import State
from test_observation import hidden_places

pytest.importorskip("pybind11")
if shutil.which("g++") is None:
    pytest.skip("no C++ compiler", allow_module_level=True)

# Every bundled game at its fewest players, and a few at more; (game, players, nodes walked a match).
CASES = [("kuhn-poker", 2, 40), ("leduc-poker", 2, 40), ("hearts", 4, 120), ("spades", 4, 120),
         ("euchre", 4, 80), ("oh-hell", 3, 80), ("crazy-eights", 2, 80), ("crazy-eights", 5, 80),
         ("go-fish", 2, 80), ("go-fish", 4, 80), ("gin-rummy", 2, 80), ("cribbage", 2, 120),
         ("cribbage", 4, 80), ("whist", 4, 80), ("stichln", 3, 80), ("siebenbatten", 4, 80), ("chwech", 4, 80),
         ("chwech-revision", 4, 80), ("chwech-encyclopedia", 4, 80), ("schwimmen", 2, 80),
         ("thirty-one", 2, 80), ("thirty-one", 5, 80)]


def _games(name: str, players: int) -> tuple[Any, Any]:
    return cardsmith.load(name, players=players), cardsmith.load(name, players=players, backend="native")


def _past_the_deal(py: State, nat: Any, rng: random.Random) -> None:
    """Both states past the chance nodes before the match's first decision (drawn alike)."""
    while py.is_chance_node():
        x = py.chance_outcomes()[rng.randrange(len(py.chance_outcomes()))][0]
        py.apply_action(x)
        nat.apply_action(x)



def _random_step(s: Any, rng: random.Random) -> int:
    """A uniform choice among s's chance outcomes or legal actions (the same on both backends' states)."""
    if s.is_chance_node():
        outs = s.chance_outcomes()
        return int(outs[rng.randrange(len(outs))][0])
    la = s.legal_actions()
    return int(la[rng.randrange(len(la))])


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players", "nodes"), CASES)
def test_strings_along_a_search_are_the_python_backends(name: str, players: int, nodes: int) -> None:
    """A walk as CFR and MCCFR make it: each step a child (clone, apply), the acting player's string asked
    there, and now and then every player's; the same on the Python backend. Seeded and not, the chance drawn
    by the walk; no Python twin is made (the strings come from the native observations)."""
    py_game, nat_game = _games(name, players)
    rng = random.Random(players)
    for seed in (None, 5):
        py, nat = py_game.new_initial_state(seed), nat_game.new_initial_state(seed)
        _past_the_deal(py, nat, rng)
        for k in range(nodes):
            if py.is_terminal():
                break
            x = _random_step(py, rng)
            py, nat = py.clone(), nat.clone()
            py.apply_action(x)
            nat.apply_action(x)
            cur = py.current_player()
            asked = range(players) if k % 7 == 0 else [cur] if cur >= 0 else []
            for p in asked:
                assert nat.information_state_string(p) == py.information_state_string(p), (seed, k, p)
        assert nat._twin is None


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players"), [("go-fish", 3), ("hearts", 4), ("leduc-poker", 2)])
def test_a_state_asked_once_is_replayed_natively(name: str, players: int) -> None:
    """A state asked first many actions on, a state read back from its serialization, and a state at a chance
    node mid-match (not seeded): each player's string as the Python backend's, asked in any order."""
    py_game, nat_game = _games(name, players)
    rng = random.Random(1)
    py, nat = py_game.new_initial_state(), nat_game.new_initial_state()
    _past_the_deal(py, nat, rng)
    seen_chance = False
    for k in range(300):
        if py.is_terminal():
            break
        x = _random_step(py, rng)
        py.apply_action(x)
        nat.apply_action(x)
        if k % 11 == 0 or (nat.is_chance_node() and not seen_chance):
            seen_chance |= nat.is_chance_node()
            order = list(range(players))
            rng.shuffle(order)
            for p in order:
                assert nat.information_state_string(p) == py.information_state_string(p), (k, p)
            back = nat_game.deserialize_state(nat.serialize())
            assert type(back) is type(nat)
            for p in order:
                assert back.information_state_string(p) == py.information_state_string(p), (k, p)
    assert seen_chance or name == "hearts"  # Hearts deals once, before the first decision


def _dealt(game: Any, outcomes: list[int]) -> Any | None:
    """A native state (not seeded) given these chance outcomes, or None where one is not among the outcomes
    of its node."""
    t = game.new_initial_state()
    for x in outcomes:
        if not t.is_chance_node() or x not in [o for o, _ in t.chance_outcomes()]:
            return None
        t.apply_action(x)
    return t


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players"), [("kuhn-poker", 2), ("leduc-poker", 2), ("go-fish", 2),
                                               ("hearts", 4), ("gin-rummy", 2), ("cribbage", 2), ("thirty-one", 3)])
def test_native_strings_ignore_hidden_cards(name: str, players: int) -> None:
    """test_infostate.py's permutation test, on native states: the first deal drawn again with the cards that
    end where player p cannot see them (dealt or left undrawn) shuffled among those places, then the same
    actions on both; while p's observations (the Python backend's, which hide what they should) agree on
    both, so does p's native information-state string."""
    _, nat_game = _games(name, players)
    rng = random.Random(players + 7)
    checked = 0
    for match in range(4):
        s = nat_game.new_initial_state()
        dealt = []
        while s.is_chance_node():
            x = s.chance_outcomes()[rng.randrange(len(s.chance_outcomes()))][0]
            s.apply_action(x)
            dealt.append(x)
        moves = []
        for _ in range(60):  # the match on, then each player's view of it replayed on the other deal
            if s.is_terminal():
                break
            la = [o for o, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()
            moves.append(la[rng.randrange(len(la))])
            s.apply_action(moves[-1])
        for p in range(players):
            first = nat_game.new_initial_state()
            for x in dealt:
                first.apply_action(x)
            twin = first.python_state()
            hidden = sorted(twin.z[zi][i] for zi, i in hidden_places(twin, p))
            at = [i for i, c in enumerate(dealt) if c in hidden]
            if len(at) > len(hidden):  # an outcome that is no card (a pick's index) read as one: another deal
                continue
            cards = rng.sample(hidden, len(at))  # hidden cards drawn where others were (the rest stay undrawn)
            other_deal = list(dealt)
            for i, c in zip(at, cards):
                other_deal[i] = c
            a, b = first, _dealt(nat_game, other_deal)
            if b is None or other_deal == dealt:
                continue
            for x in [None, *moves]:
                if x is not None:
                    legal = [o for o, _ in b.chance_outcomes()] if b.is_chance_node() else b.legal_actions()
                    if x not in legal:
                        break
                    a.apply_action(x)
                    b.apply_action(x)
                if a.python_state().observation_string(p) != b.python_state().observation_string(p):
                    break  # p has seen a card that differs: its knowledge differs from here
                assert a.information_state_string(p) == b.information_state_string(p), (match, p, x)
                checked += 1
    assert checked >= 8


@pytest.mark.slow
def test_a_seat_that_is_no_player_is_the_python_backends_error() -> None:
    py_game, nat_game = _games("kuhn-poker", 2)
    for p in (2, -1, "0", None):
        with pytest.raises(GameError) as e_py:
            py_game.new_initial_state(1).information_state_string(p)
        with pytest.raises(GameError) as e_nat:
            nat_game.new_initial_state(1).information_state_string(p)
        assert str(e_nat.value) == str(e_py.value)


@pytest.mark.slow
def test_the_openspiel_benchmark_compares_strings_and_cfr_natively() -> None:
    """`benchmarks/openspiel.py strings` and `cfr --backend native` with a tiny budget: their tables."""
    pytest.importorskip("pyspiel")
    import subprocess
    import sys
    from pathlib import Path

    bench = Path(__file__).resolve().parent.parent / "benchmarks" / "openspiel.py"
    runs = (
        (["strings", "go-fish", "--rounds", "1", "--seconds", "0.05"],
         "game  players  Python backend us  native backend us  Python/native time", ["Go Fish  2  "]),
        (["cfr", "--backend", "native", "--rounds", "1", "--iterations", "1"],
         "algorithm  game  Python it/s  native it/s  pyspiel it/s  Python/pyspiel time  native/pyspiel time  "
         "Python/native time  OpenSpiel's python_kuhn_poker/pyspiel time",
         ["CFR  Kuhn poker  ", "CFR  Leduc poker  ", "external-sampling MCCFR  Kuhn poker  ",
          "external-sampling MCCFR  Leduc poker  "]))
    for args, head, rows in runs:
        out = subprocess.run([sys.executable, str(bench), *args], capture_output=True, text=True, timeout=900)
        assert out.returncode == 0, out.stderr
        lines = [ln for ln in out.stdout.splitlines() if ln]
        assert lines[0] == head
        assert [ln[:len(start)] for ln, start in zip(lines[1:], rows)] == rows and len(lines) == 1 + len(rows)


@pytest.mark.slow
def test_a_state_carried_from_a_python_position_answers_with_its_twin() -> None:
    """A native state carried from a Python position (position.py `native_at`) has a history that starts
    there: its strings, and its copies' after more actions, are the Python backend's (its twin's)."""
    from cardsmith.native.position import native_at
    py_game, nat_game = _games("go-fish", 2)
    rng = random.Random(3)
    py = py_game.new_initial_state(4)
    for _ in range(9):
        la = py.legal_actions()
        py.apply_action(la[rng.randrange(len(la))])
    carried = native_at(nat_game, py)
    for _ in range(3):
        for p in range(2):
            assert carried.information_state_string(p) == py.information_state_string(p)
        la = py.legal_actions()
        x = la[rng.randrange(len(la))]
        py, carried = py.clone(), carried.clone()
        py.apply_action(x)
        carried.apply_action(x)
