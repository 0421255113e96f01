"""The bundled games the native backend covers agree move for move with the Python backend: at every player
count each allows, a few dozen random matches in lockstep, chance drawn by the test (the player to act,
every legal set and chance-outcome list, the returns: `cardsmith.native.difftest`). The long runs (1,000
matches a player count, 300 an option value) are `python -m cardsmith.native.difftest GAME...`.
Skipped where the machine has no C++ compiler or no pybind11."""

from __future__ import annotations

import shutil

import pytest
from cardsmith.dsl.pipeline import compile_text
from cardsmith.engine.game import Game

pytest.importorskip("pybind11")
if shutil.which("g++") is None:
    pytest.skip("no C++ compiler", allow_module_level=True)

from cardsmith.native.difftest import cases, run  # noqa: E402
from cardsmith.native.lower import Unsupported, lower  # noqa: E402

# The covered games, their player counts (as the rule files allow) and the matches played at
# each: fewer where a match is long (cribbage about 500 nodes, thirty-one 700, chwech 930, stichln 1,900 at
# 8 players).
GAMES = {"hearts": (4, 4, 24), "go-fish": (2, 10, 12), "spades": (4, 4, 24), "euchre": (4, 4, 40),
         "oh-hell": (3, 7, 16), "crazy-eights": (2, 15, 10), "kuhn-poker": (2, 2, 60),
         "leduc-poker": (2, 2, 60), "cribbage": (2, 4, 6), "whist": (4, 4, 8), "stichln": (3, 8, 4),
         "siebenbatten": (4, 4, 10), "chwech": (4, 7, 4), "chwech-revision": (4, 7, 4),
         "chwech-encyclopedia": (4, 7, 4), "schwimmen": (2, 8, 4), "thirty-one": (2, 8, 4),
         "gin-rummy": (2, 2, 30)}
COVERED = [(name, n) for name, (lo, hi, _) in GAMES.items() for n in range(lo, hi + 1)]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players"), COVERED)
def test_native_game_plays_as_python(name: str, players: int) -> None:
    k = GAMES[name][2]
    matches, nodes, err = run(name, players, {}, k, seed=players)
    assert err is None
    assert matches == k and nodes > k * 3


@pytest.mark.slow
def test_native_game_plays_as_python_under_an_option() -> None:
    matches, nodes, err = run("spades", 4, {"breaking_spades": True, "nil_value": 0}, 12, seed=3)
    assert err is None
    assert matches == 12 and nodes == 12 * 108


UNCOVERED = """
game: Groups the players
players: {min: 2, max: 2}
deck: {suits: [clubs, hearts], ranks: ['2', '3']}
zones: {stock: {}}
actions: {pass: {}}
phases: {main: {actions: [pass], after: [end deal]}}
match:
  deal:
    - move pack to stock
    - goto main
  over_when: len(group_by(players, p => p % 2)) > 1
  winners: players
"""


def test_an_uncovered_construct_is_refused_by_name() -> None:
    r = compile_text(UNCOVERED, "groups.yaml", optimize=False)
    assert r.game is not None
    with pytest.raises(Unsupported, match="^library function group_by$"):
        lower(Game(r.game, 2))


@pytest.mark.slow
@pytest.mark.parametrize("name", list(GAMES))
def test_the_player_counts_are_the_rule_files(name: str) -> None:
    lo, hi, _ = GAMES[name]
    assert [n for n, options in cases(name) if not options] == list(range(lo, hi + 1))


@pytest.mark.slow
def test_every_bundled_game_is_covered() -> None:
    from cardsmith.engine.bundled import bundled_games
    assert sorted(GAMES) == sorted(bundled_games())


def test_a_table_past_the_runtimes_seats_is_refused_by_name() -> None:
    src = UNCOVERED.replace("{min: 2, max: 2}", "{min: 2, max: 64}").replace(
        "len(group_by(players, p => p % 2)) > 1", "true")
    r = compile_text(src, "many.yaml", optimize=False)
    assert r.game is not None
    lower(Game(r.game, 62))  # 62 seats are covered (a bit each in a 64-bit word, its sign left alone)
    for n in (63, 64):
        with pytest.raises(Unsupported, match="^more than 62 players$"):
            lower(Game(r.game, n))
