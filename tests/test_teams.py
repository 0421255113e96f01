"""Teams and sitting out: `players: teams`, `team[p]`, `teams`, `teammates(p)`, per-team variables,
`sit out p` and `sitting_out(p)`.

The game is tests/games/partners.yaml (its scenarios, tests/scenarios/partners.yaml, play worked
examples); here the engine's properties are checked on it at every player count and mode, as
tests/test_properties.py and tests/test_observation.py check the bundled games, and small inline
rule files show the runtime checks and the checker's answers.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from cardsmith.cli.main import main
from cardsmith.dsl.pipeline import compile_text
from cardsmith.engine.errors import GameError, RuleError
from cardsmith.engine.game import Game
from cardsmith.engine.state import State
from conftest import ROOT, compiled
from hypothesis import given
from hypothesis import strategies as st
from test_observation import hidden_places, permute_hidden
from test_properties import check_cards, snapshot, walk

PARTNERS = str(ROOT / "tests" / "games" / "partners.yaml")
CASES = [pytest.param(n, mode, id=f"{n}p-{mode}") for n in (4, 5, 6) for mode in ("partners", "declarer")]
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def partners(n: int, mode: str = "partners", **options: Any) -> Game:
    return Game(compiled(PARTNERS), n, {"mode": mode, **options})


def full(s: State) -> dict[str, Any]:
    return {**snapshot(s), "team": list(s.team), "sit": list(s.sit)}


def check_teams(s: State) -> None:
    """Teams are numbers 0 to n - 1; a player who sits out is neither active nor eliminated."""
    g = s.game
    assert len(s.team) == g.n and all(type(t) is int and 0 <= t < g.n for t in s.team)
    assert len(s.sit) == g.n
    active = g.ns["_active"](s)
    assert not any(s.sit[p] for p in active)
    if not s.terminal and s.pending is None:
        assert s.cur in active, f"P{s.cur} is to act but does not take part in the deal"
    obs = s.observation(0)
    assert obs["teams"] == s.team
    assert obs["sitting_out"] == [p for p in range(g.n) if s.sit[p]]
    assert obs["active"] == active


# ---------------------------------------------------------------- properties on the test game
@pytest.mark.parametrize(("n", "mode"), CASES)
@given(seed=SEEDS, choices=SEEDS)
def test_random_play_keeps_teams_well_formed_and_ends(n: int, mode: str, seed: int, choices: int) -> None:
    s = State.initial(partners(n, mode), seed)
    walk(s, random.Random(choices), 10_000, lambda t: (check_cards(t), check_teams(t)))
    assert s.is_terminal()
    # Winners are whole teams: the partnership with the best score, or every player with the best points.
    g = s.game
    if mode == "partners":
        best = max(s.v[g.ns["V_score"] + t] for t in set(s.team))
        assert s.winners == [p for p in range(n) if s.v[g.ns["V_score"] + s.team[p]] == best]
        assert all(q in s.winners for w in s.winners for q in range(n) if s.team[q] == s.team[w])


@pytest.mark.parametrize(("n", "mode"), CASES)
@given(seed=SEEDS, choices=SEEDS, before=st.integers(0, 60), after=st.integers(1, 40))
def test_clone_keeps_teams_and_sitting_apart(n: int, mode: str, seed: int, choices: int, before: int,
                                             after: int) -> None:
    s = State.initial(partners(n, mode), seed, log=True)
    rng = random.Random(choices)
    walk(s, rng, before)
    original = full(s)
    c = s.clone()
    assert full(c) == original
    moves = walk(c, rng, after)
    assert full(s) == original, f"applying {moves} to a clone changed the original's teams or seats"
    for a in moves:
        s.apply_action(a)
    assert full(s) == full(c)


@pytest.mark.parametrize(("n", "mode"), CASES)
@given(seed=SEEDS, steps=st.integers(0, 60), shuffle_seed=SEEDS)
def test_observation_ignores_hidden_cards(n: int, mode: str, seed: int, steps: int, shuffle_seed: int) -> None:
    s = State.initial(partners(n, mode), seed)
    walk(s, random.Random(seed), steps)
    prng = random.Random(shuffle_seed)
    for p in range(n):
        if hidden_places(s, p):
            assert s.observation(p) == permute_hidden(s, p, prng).observation(p)


def test_a_per_team_variable_is_seen_by_the_team_as_it_is_now() -> None:
    g = partners(5, "declarer")
    s = State.initial(g, 1)
    assert s.observation(0)["variables"]["huddle[0]"] == 10
    assert "huddle[1]" not in s.observation(0)["variables"]
    assert s.observation(1)["variables"]["huddle[1]"] == 11
    s.apply_action(g.action_from_string("declare"))  # P1 declares: P1 is team 0, everyone else team 1
    assert s.team == [1, 0, 1, 1, 1]
    assert "huddle[1]" in s.observation(0)["variables"] and "huddle[0]" not in s.observation(0)["variables"]
    assert s.observation(1)["variables"]["huddle[0]"] == 10
    assert "huddle[1]" not in s.observation(1)["variables"]


def test_state_var_reads_a_per_team_variable_by_team_number() -> None:
    g = partners(5, "declarer")
    s = State.initial(g, 1)
    assert [s.var("huddle", t) for t in range(5)] == [s.v[g.var_names.index(f"huddle[{t}]")] for t in range(5)]
    assert s.var("huddle", 1) == 11
    with pytest.raises(GameError, match="'huddle' is per team: give a team number from 0 to 4, not None"):
        s.var("huddle")


def test_sitting_out_is_not_elimination_and_is_told_in_the_log() -> None:
    g = partners(4)
    s = State.initial(g, 2, log=True)
    s.apply_action(g.action_from_string("go alone"))  # P1 alone: P3 sits out
    assert s.sit == [False, False, False, True] and s.out == [False] * 4
    assert s.n_active() == 3
    assert ("sits_out", 3) in (s.log or [])
    assert "sitting out: P3" in str(s)
    c = s.clone()
    while c.deal_no == 1:
        c.apply_action(c.legal_actions()[0])
    assert c.sit == [False] * 4 and c.out == [False] * 4 and c.dealer == 1


# ---------------------------------------------------------------- small rule files
GAME = """\
game: T
players: {{min: 2, max: 4{TEAMS}}}
deck:
  suits: [a, b]
  ranks: ['1', '2', '3', '4']
zones:
  stock: {{visible: nobody}}
  hand: {{per_player: true, visible: owner}}
  pile: {{}}
variables:
  side: {{type: int, per_team: true}}
  mark: {{type: int}}
actions:
  play:
    params: {{card: "hand[player]"}}
    effect:
      - move card to pile
{EFFECT}
phases:
  main:
    first: left(dealer)
    round: true
    actions: [play]
    end: [end deal]
match:
  deal:
    - move pack to stock
    - deal 1 from stock to hand
{DEAL}
    - goto main
  over_when: deal_number >= 3
  winners: all_max_by(players, p => side[team[p]])
"""


def build(n: int = 4, teams: str = "", effect: str = "", deal: str = "") -> Game:
    text = GAME.format(TEAMS=f", teams: {teams}" if teams else "", EFFECT=effect, DEAL=deal)
    r = compile_text(text, "t.yaml")
    assert r.ok and r.game is not None, [d.message for d in r.diagnostics]
    return Game(r.game, n)


def play_out(g: Game, seed: int = 0) -> State:
    s = State.initial(g, seed)
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    return s


def test_without_teams_each_seat_is_its_own_team() -> None:
    s = State.initial(build(3), 0)
    assert s.team == [0, 1, 2]
    assert s.game.ns["_teammates"](s, 1) == []
    assert s.game.ns["_teams"](s) == [0, 1, 2]


def test_per_team_values_are_shared_by_the_partners() -> None:
    s = play_out(build(4, "p % 2", effect="      - side[team[player]] += 1"))
    base = s.game.ns["V_side"]
    assert s.v[base:base + 4] == [6, 6, 0, 0]  # 3 deals x 2 plays for each team; slots 2, 3 unused
    assert s.winners == [0, 1, 2, 3]


def test_a_team_out_of_range_is_a_located_rule_error() -> None:
    g = build(4, effect="      - team[player] = num_players")
    with pytest.raises(RuleError) as e:
        play_out(g)
    assert "a team must be a number from 0 to 3" in str(e.value)
    assert e.value.span is not None and e.value.span.line == 18


def test_teams_out_of_range_point_at_players_teams() -> None:
    g = build(4, "p + 1")
    with pytest.raises(RuleError) as e:
        State.initial(g, 0)
    assert "a team must be a number from 0 to 3" in str(e.value)
    assert e.value.span is not None and e.value.span.line == 2


def test_a_per_team_index_out_of_range_is_a_rule_error() -> None:
    with pytest.raises(RuleError) as e:
        play_out(build(4, effect="      - side[7] = 1"))
    assert "a team must be a number from 0 to 3" in str(e.value)


def test_teams_may_read_the_match_and_are_set_again_every_deal() -> None:
    # The partnership changes with the dealer: the dealer's team is 0, everybody else's 1.
    g = build(4, "if p == dealer then 0 else 1")
    s = State.initial(g, 0)
    seen = []
    while not s.is_terminal():
        seen.append((s.dealer, list(s.team)))
        s.apply_action(s.legal_actions()[0])
    assert all(team == [0 if p == d else 1 for p in range(4)] for d, team in seen)
    assert {d for d, _ in seen} == {0, 1, 2}


def test_a_side_formed_during_a_deal_lasts_until_the_deal_ends() -> None:
    g = build(4, "p % 2", deal="    - team[dealer] = 3")
    s = State.initial(g, 0)
    assert s.team == [3, 1, 0, 1]
    while s.deal_no == 1:
        s.apply_action(s.legal_actions()[0])
    assert s.team == [0, 3, 0, 1]  # deal 2: P1 deals; P0 is back on team 0


def test_the_dealer_passes_to_a_player_who_sat_out() -> None:
    g = build(4, deal="    - sit out left(dealer)")
    s = State.initial(g, 0)
    assert s.sit == [False, True, False, False] and s.cur == 2
    while s.deal_no == 1:
        s.apply_action(s.legal_actions()[0])
    assert s.dealer == 1 and s.sit == [False, False, True, False]


def test_an_eliminated_player_stays_out_and_a_sitter_comes_back() -> None:
    g = build(4, deal="    - if: deal_number == 1\n      then: [sit out 2, eliminate 3]")
    s = State.initial(g, 0)
    assert s.n_active() == 2
    while s.deal_no == 1:
        s.apply_action(s.legal_actions()[0])
    assert s.out == [False, False, False, True] and s.sit == [False] * 4 and s.n_active() == 3


def test_a_function_that_reads_team_is_not_memoized() -> None:
    text = GAME.format(TEAMS=", teams: p % 2", EFFECT="      - mark = size(0)\n      - team[player] = 0",
                       DEAL="") + "define:\n  size(p): len([q for q in players if team[q] == team[p]])\n"
    r = compile_text(text, "t.yaml")
    assert r.ok and r.game is not None
    assert "M_size" not in r.game.source
    g = Game(r.game, 4)
    s = State.initial(g, 0)
    marks = []
    for _ in range(4):
        s.apply_action(s.legal_actions()[0])
        marks.append(s.v[g.ns["V_mark"]])
    assert marks == [2, 3, 3, 4]  # P0's team, as P1 then P3 join it (P2 and P0 are on it already)


@pytest.mark.parametrize(("place", "code"), [
    ("options:\n  o: {type: int, min: 0, max: 9, default: '=len(teams)'}\n", "C037"),
    ("options:\n  o: {type: int, min: 0, max: 9, default: '=len(teammates(0))'}\n", "C037"),
])
def test_teams_are_state_not_fixed_for_the_game(place: str, code: str) -> None:
    r = compile_text(GAME.format(TEAMS="", EFFECT="", DEAL="") + place, "t.yaml")
    assert [d.code for d in r.diagnostics] == [code]


@pytest.mark.parametrize(("effect", "code"), [
    ("      - team = 1", "C012"),
    ("      - team[player] += 1", "C014"),
    ("      - team[player] = player == 0", "C001"),
    ("      - side[player] = 1", "C001"),
    ("      - mark = side", "C012"),
    ("      - mark = team", "C012"),
    ("      - sit out 'x'", "C001"),
    ("      - mark = len(teammates(card))", "C001"),
])
def test_checker_answers(effect: str, code: str) -> None:
    r = compile_text(GAME.format(TEAMS="", EFFECT=effect, DEAL=""), "t.yaml")
    assert code in [d.code for d in r.diagnostics], [d.render() if hasattr(d, "render") else d for d in r.diagnostics]


def test_run_tells_who_sits_out_changes_of_team_and_team_scores(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", PARTNERS, "--players", "4", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "sits out this deal" in out
    assert "    score: team 0 (P0, P2) " in out and ", team 1 (P1, P3) " in out
    assert "    sitting out: P0 " in out
    assert main(["run", PARTNERS, "--players", "5", "--seed", "4", "-o", "mode=declarer"]) == 0
    assert "  * P0 is on team 1\n" in capsys.readouterr().out
    assert main(["run", PARTNERS, "--players", "4", "--seed", "3", "--json"]) == 0
    events = json.loads(capsys.readouterr().out)["events"]
    assert any(e["event"] == "sits_out" and sorted(e) == ["event", "player"] and 0 <= e["player"] < 4
               for e in events)


def test_sit_takes_out_and_out_stays_a_name() -> None:
    """`sit` is a word of the language; `out` is not (a zone or variable may be called out)."""
    text = GAME.format(TEAMS="", EFFECT="      - sit out player", DEAL="")
    text = text.replace("  pile: {}", "  pile: {}\n  out: {}")
    assert compile_text(text, "t.yaml").ok
    r = compile_text(GAME.format(TEAMS="", EFFECT="      - sit in player", DEAL=""), "t.yaml")
    assert [(d.code, d.message) for d in r.diagnostics] == [("P001", "expected 'out' after 'sit', not 'in'")]
