"""Every kind of name in every place that holds an expression: refused by the checker, or it runs.

Each place of a rule file is compiled to a Python function of its own, with only the arguments that
place has (option defaults, card properties and pack conditions have no state `s`; a report has the
player `p`; a `visible` rule of a per-player zone its `owner`...). A name the checker lets through
in a place where the compiled function cannot resolve it ends as "NameError: name 's' is not defined"
in the middle of a match. These tests put every kind of name (built-ins, declared names, locals of
other places, functions that read the state directly or through others, stateful library calls)
into every place, alone and inside `let`, comprehensions and lambdas, and require: the file is
refused with located diagnostics, or it builds at its fewest and most players and plays without any
NameError or UnboundLocalError, raw or inside a rule error.
"""

from __future__ import annotations

import random

import pytest
from cardsmith.dsl.pipeline import compile_text
from cardsmith.engine.errors import GameError
from cardsmith.engine.game import Game
from hypothesis import given
from hypothesis import strategies as st

TEMPLATE = """\
game: Places
players: {{min: 2, max: 3, teams: "{TEAMS}"}}
options:
  opt: {{type: int, min: 0, max: 9, default: 2}}
  computed:
    type: int
    min: 0
    max: 99
    default: "={OPTION}"
  bounded: {{type: int, min: 0, max: "={BOUND}", default: 0}}
constraints:
  - refuse: "{CONSTRAINT}"
    message: never refused
constants:
  K: 3
deck:
  suits: [clubs, hearts]
  ranks: ['2', '3', '4']
  properties:
    value: {{by_rank: {{'2': 2, '3': 3, '4': 4}}}}
    computed_prop: "{PROPERTY}"
  pack:
    - when: "{WHEN}"
      where: "{WHERE}"
zones:
  stock: {{visible: nobody}}
  hand: {{per_player: true, visible: "{VIS_ZONE}"}}
  pile: {{visible: "{VIS_SHARED}"}}
variables:
  v: {{type: int, initial: "{INIT_SHARED}"}}
  pv: {{type: int, per_player: true, initial: "{INIT_PER}", visible: "{VIS_VAR}"}}
define:
  pure(x): x + 1
  stateful(x): x + len(pile)
  indirect(x): stateful(x) + 1
  body(): "{FUNCTION}"
  fixed_sum(x): pure(x) + opt + len(suits)
procedures:
  proc():
    - "log '{{}}', {PROCEDURE}"
actions:
  play:
    params: {{c: "{DOMAIN}", n: "range(0, {RANGE})"}}
    when: "{WHEN_ACTION}"
    effect:
      - move c to pile
      - "log '{{}}', {EFFECT}"
      - "let z = {LET_STEP}"
      - "v = body()"
      - do proc()
  meld:
    params:
      m: {{from: "{FROM}", ids: "{IDS}"}}
phases:
  main:
    first: "{FIRST}"
    actions: [play, meld]
    after:
      - if: len(pile) == len(pack)
        then: [end deal]
match:
  deal:
    - move pack to stock
    - shuffle stock
    - deal 2 from stock to hand
    - goto main
  next_dealer: "{NEXT_DEALER}"
  over_when: "{OVER_WHEN}"
  winners: "{WINNERS}"
  report:
    shown: "{REPORT}"
"""

# How a value X goes into each place so that it type-checks whatever X is: len([X]) is an int.
N = "len([{x}])"
PLACES: dict[str, str] = {
    "OPTION": N,
    "BOUND": N,
    "CONSTRAINT": N + " < 0",
    "RANGE": N,
    "PROPERTY": N,
    "WHEN": N + " >= 0",
    "WHERE": N + " >= 0",
    "VIS_ZONE": "if " + N + " >= 0 then [owner] else players",
    "VIS_SHARED": "if " + N + " >= 0 then players else players",
    "VIS_VAR": "if " + N + " >= 0 then [owner] else players",
    "INIT_SHARED": N,
    "INIT_PER": N,
    "FUNCTION": N,
    "PROCEDURE": N,
    "DOMAIN": "if " + N + " >= 0 then hand[player] else hand[player]",
    "WHEN_ACTION": N + " >= 0",
    "EFFECT": N,
    "LET_STEP": N,
    "FIRST": "if " + N + " >= 0 then left(dealer) else dealer",
    "NEXT_DEALER": "if " + N + " >= 0 then left(dealer) else dealer",
    "OVER_WHEN": "deal_number >= 2 or " + N + " < 0",
    "WINNERS": "if " + N + " >= 0 then players else players",
    "REPORT": N,
    "TEAMS": "if " + N + " >= 0 then p else 0",
    "FROM": "[(if " + N + " >= 0 then pack else pack)]",
    "IDS": "[(if " + N + " >= 0 then pack else pack)]",
}
DEFAULTS: dict[str, str] = {
    "BOUND": "9", "CONSTRAINT": "false", "RANGE": "1",
    "OPTION": "opt + 1", "PROPERTY": "rank_index", "WHEN": "true", "WHERE": "true", "VIS_ZONE": "[owner]",
    "VIS_SHARED": "players", "VIS_VAR": "[owner]", "INIT_SHARED": "0", "INIT_PER": "0", "FUNCTION": "1",
    "PROCEDURE": "1", "DOMAIN": "hand[player]", "WHEN_ACTION": "true", "EFFECT": "1", "LET_STEP": "1",
    "FIRST": "left(dealer)", "NEXT_DEALER": "left(dealer)", "OVER_WHEN": "deal_number >= 2", "WINNERS": "players",
    "REPORT": "1", "TEAMS": "p", "FROM": "[pack]", "IDS": "[pack]",
}
NAMES = [
    "players", "active_players", "num_players", "suits", "ranks", "pack", "dealer", "current", "player",
    "deal_number", "turns", "opt", "computed", "K", "stock", "pile", "hand[0]", "v", "pv[0]", "owner", "p",
    "card", "c", "z", "rank", "suit", "rank_index", "suit_index", "first(pack).value", "pure(1)",
    "stateful(1)", "indirect(1)", "body()", "next_active(0)", "is_active(0)", "played_by(first(pack))",
    "team[0]", "teams", "teammates(0)", "sitting_out(0)",
]
# The places worked out when the table is set up, before any match (and a number parameter's range).
STATIC = ("OPTION", "BOUND", "CONSTRAINT", "PROPERTY", "WHEN", "WHERE", "RANGE")
# Worked out once per game too, after the pack: `pack` may be read (tested below).
FIXED = (*STATIC, "IDS")
WRAPPERS = ["{x}", "let y = {x}; y", "[{x} for q in players]", "count(players, q => len([{x}]) >= 0)",
            "max_by(players, q => len([{x}]))"]


def rule_file(place: str, x: str) -> str:
    values = dict(DEFAULTS)
    values[place] = PLACES[place].format(x=x)
    return TEMPLATE.format(**values)


def _no_name_error(text: str) -> None:
    for bad in ("NameError", "UnboundLocalError", "is not defined"):
        assert bad not in text, text


def outcome(text: str) -> str:
    """'refused' or 'runs'; fails the test if a name cannot be resolved while the game runs."""
    r = compile_text(text, "places.yaml")
    if not r.ok or r.game is None:
        assert r.diagnostics and all(d.span.line >= 1 for d in r.diagnostics)
        return "refused"
    for n in (r.game.spec.min_players, r.game.spec.max_players):
        try:
            game = Game(r.game, n)
            state = game.new_initial_state(seed=n)
            rng = random.Random(n)
            for _ in range(40):
                if state.is_terminal():
                    break
                for q in range(n):
                    state.observation(q)
                state.apply_action(rng.choice(state.legal_actions()))
            if state.is_terminal():
                for _, fn, _, _ in game.reports:
                    for q in range(n):
                        fn(state, q)
        except GameError as e:
            _no_name_error(str(e))
        except (NameError, UnboundLocalError) as e:  # pragma: no cover - the bug this module hunts
            pytest.fail(f"{type(e).__name__}: {e}\n{text}")
    return "runs"


def test_the_template_runs() -> None:
    assert outcome(TEMPLATE.format(**DEFAULTS)) == "runs"


@pytest.mark.slow
@pytest.mark.parametrize("place", sorted(PLACES))
def test_every_name_in_every_place(place: str) -> None:
    results = {x: outcome(rule_file(place, x)) for x in NAMES}
    # Not vacuous: the names fixed for the whole game run everywhere.
    for x in ("num_players", "players", "suits", "ranks", "opt", "K", "pure(1)"):
        assert results[x] == "runs", (place, x)
    if place not in FIXED:
        for x in ("dealer", "pile", "v", "stateful(1)", "is_active(0)", "pack"):
            assert results[x] == "runs", (place, x)


@pytest.mark.parametrize("place", sorted(STATIC))
@pytest.mark.parametrize("x", ["dealer", "current", "player", "deal_number", "turns", "active_players", "pack",
                               "pile", "hand[0]", "v", "pv[0]", "stateful(1)", "indirect(1)",
                               "next_active(0)", "is_active(0)", "played_by(first(pack))", "team[0]", "teams",
                               "teammates(0)", "sitting_out(0)"])
def test_static_places_refuse_the_match(place: str, x: str) -> None:
    r = compile_text(rule_file(place, x), "places.yaml")
    # The range of a number parameter numbers the action ids (C005); the others are worked out at set-up (C037).
    want = "C005" if place == "RANGE" else "C037"
    assert r.diagnostics and {d.code for d in r.diagnostics} == {want}, [(d.code, d.message) for d in r.diagnostics]


@pytest.mark.parametrize("x", ["dealer", "current", "player", "deal_number", "turns", "active_players", "pile",
                               "hand[0]", "v", "pv[0]", "stateful(1)", "indirect(1)", "next_active(0)",
                               "is_active(0)", "played_by(first(pack))", "team[0]", "teams", "teammates(0)",
                               "sitting_out(0)"])
def test_ids_refuse_the_match(x: str) -> None:
    """The ids of a parameter over lists of cards number the action ids once per game, after the pack: like
    the static places, but `pack` may be read (C037 for the rest, and for another parameter)."""
    r = compile_text(rule_file("IDS", x), "places.yaml")
    assert r.diagnostics and {d.code for d in r.diagnostics} == {"C037"}, [(d.code, d.message) for d in r.diagnostics]


def test_ids_read_the_pack_and_functions_fixed_for_the_game() -> None:
    for x in ("pack", "first(pack).value", "pure(num_players)", "fixed_sum(K)"):
        assert outcome(rule_file("IDS", x)) == "runs", x


@pytest.mark.parametrize("place", sorted(STATIC))
def test_static_places_call_functions_fixed_for_the_game(place: str) -> None:
    """A `define:` function that reads only what is fixed for the game may be called where the match is not
    there yet; through another function too."""
    assert outcome(rule_file(place, "pure(num_players)")) == "runs"
    assert outcome(rule_file(place, "fixed_sum(K)")) == "runs"


@given(place=st.sampled_from(sorted(PLACES)), x=st.sampled_from(NAMES), wrap=st.lists(st.sampled_from(WRAPPERS),
                                                                                         max_size=3))
def test_names_inside_let_comprehensions_and_lambdas(place: str, x: str, wrap: list[str]) -> None:
    for w in wrap:
        x = w.format(x=x)
    outcome(rule_file(place, x))


# ---------------------------------------------------------------- a local keeps its value
REBIND = """\
game: Rebind
players: 2
deck:
  suits: [clubs]
  ranks: ['2', '3']
zones:
  stock: {{}}
  hand: {{per_player: true}}
variables:
  n: {{type: int}}
define:
  f(x): "{FUNC}"
actions:
  go:
    params: {{c: "hand[player]"}}
    effect:
{STEPS}
phases:
  main:
    actions: [go]
    after: [end deal]
match:
  deal:
    - move pack to stock
    - deal 1 from stock to hand
    - goto main
  over_when: true
  winners: players
"""


def _rebind(func: str = "x", steps: str = "      - n = 1") -> list[tuple[str, str]]:
    r = compile_text(REBIND.format(FUNC=func, STEPS=steps), "rebind.yaml")
    return [(d.code, d.message) for d in r.diagnostics]


@pytest.mark.parametrize("func", ["let x = 1; x", "[x for x in [1]]", "count([1], x => x > 0)",
                                  "let y = 1; let y = 2; y", "let y = 1; y = 2; y", "let y = 1; [y for y in [1]]",
                                  "[len([y for y in [1]]) for y in [2]]", "max_by([1], y => max_by([2], y => y))"])
def test_expressions_cannot_rebind_a_local(func: str) -> None:
    (code, msg), = _rebind(func=func)
    assert code == "C020" and "is already a local name here" in msg


@pytest.mark.parametrize("steps", [
    "      - let c = 1",
    "      - let a = 1\n      - let a = 2",
    "      - let a = [1]\n      - for: p in players\n        do:\n          - let a = [a]",
    "      - for: p in players\n        do:\n          - for: p in players\n            do: []",
    "      - pick c from players",
    "      - let a = 1\n      - n = len([a for a in [1]])",
])
def test_steps_cannot_rebind_a_local(steps: str) -> None:
    (code, msg), = _rebind(steps=steps)
    assert code == "C020" and "is already a local name here" in msg


@pytest.mark.parametrize("steps", [
    "      - if: true\n        then: [let a = 1]\n        else: [let a = 2]",
    "      - for: p in players\n        do: []\n      - for: p in players\n        do: []",
    "      - n = len([a for a in [1]]) + len([a for a in [2]])",
])
def test_sibling_scopes_may_reuse_a_name(steps: str) -> None:
    assert _rebind(steps=steps) == []


def test_fraction_where_a_whole_number_is_needed() -> None:
    assert _rebind(func="[1, 2][0.5]") == [("C001", "a list index must be a whole number, not 0.5")]
    assert _rebind(func="range(0, -1.5)") == [("C001", "argument 2 of 'range' must be a whole number, not -1.5")]
    assert _rebind(func="[1, 2][x / 2]") == []  # not a literal: a runtime matter
