"""Error texts hide what they should: an error a player can see tells them nothing of the cards they cannot see.

The text of a rule error (`str(e)`, `e.render()`) and of an illegal action may reach any player: at the
terminal (`cardsmith play`), through the Python API, at a table on the network. So, as for observations,
permuting the cards a player cannot see must leave every such text unchanged. Rule errors carry the
values involved and every zone's cards only as the designer's view (`e.detail`, `e.view`), which
`cardsmith run` prints labelled and players never get.
"""

from __future__ import annotations

import random

import pytest
from cardsmith.dsl.library import RuleRuntimeError
from cardsmith.dsl.pipeline import compile_text
from cardsmith.engine.errors import IllegalAction, RuleError
from cardsmith.engine.game import Game
from cardsmith.engine.state import State
from conftest import GAME_CASES, play_random
from hypothesis import given
from hypothesis import strategies as st
from test_observation import hidden_places, permute_hidden


def _illegal_text(s: State, action: int) -> str | None:
    try:
        s.clone().apply_action(action)
    except IllegalAction as e:
        return str(e)
    return None


@pytest.mark.parametrize("rule_file,num_players", GAME_CASES)
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 300), shuffle_seed=st.integers(0, 2**31))
def test_error_texts_ignore_hidden_cards(rule_file: str, num_players: int, seed: int, steps: int,
                                         shuffle_seed: int) -> None:
    s = play_random(rule_file, num_players, seed, steps)
    if s.is_terminal():
        return
    g = s.game
    failure = RuleRuntimeError("a rule failed", "the values involved")
    prng = random.Random(shuffle_seed)
    for p in range(g.n):
        if not hidden_places(s, p):
            continue
        t = permute_hidden(s, p, prng)
        # A rule error at this point, as any player would see it (message, where the game is, public zones).
        before, after = s._rule_error(failure), t._rule_error(failure)
        assert str(before) == str(after), f"a rule error's text changed for P{p} when hidden cards moved"
        assert before.render() == after.render()
        if p != s.current_player():
            continue
        # Illegal actions sent by the player to act: the refusal names the action sent, not the legal ones.
        legal_s, legal_t = set(s.legal_actions()), set(t.legal_actions())
        for a in prng.sample(range(g.num_distinct_actions), min(40, g.num_distinct_actions)) + [-1, 10**9]:
            if a in legal_s or a in legal_t:
                continue
            assert _illegal_text(s, a) == _illegal_text(t, a), f"refusing action {a} told P{p} something"


@pytest.mark.parametrize("rule_file,num_players", GAME_CASES[:3])
def test_an_illegal_action_does_not_list_the_legal_ones(rule_file: str, num_players: int) -> None:
    s = play_random(rule_file, num_players, 5, 3)
    legal = s.legal_actions()
    bad = next(a for a in range(s.game.num_distinct_actions + 1) if a not in legal)
    text = _illegal_text(s, bad)
    assert text is not None and "legal:" not in text
    for a in legal:
        assert s.action_to_string(s.current_player(), a) not in text or a == bad


# A game whose rule fails in the second deal with a value computed from the hidden hand of the player to act.
FAILING = """\
game: Fails on a hidden hand
players: 3
deck:
  suits: [clubs, hearts]
  ranks: ['2', '3', '4', '5', '6', '7']
zones:
  stock: {visible: nobody}
  hand: {per_player: true, visible: owner}
  table: {}
variables:
  x: {type: int, visible: nobody}
actions:
  play:
    params: {c: "hand[player]"}
    effect:
      - move c to table
phases:
  main:
    actions: [play]
    after:
      - if: deal_number == 2
        then: ["x = [c.rank_index for c in hand[player]][9]"]
      - if: len(table) == 6
        then: [end deal]
match:
  deal:
    - move pack to stock
    - shuffle stock
    - deal 2 from stock to hand
    - goto main
  over_when: deal_number >= 3
  winners: players
"""


def _failure(seed: int, permute: int | None) -> RuleError:
    """Play to the start of deal 2, move the cards the player to act cannot see (if `permute`), then let that
    player play their first card: the rule fails."""
    loaded = compile_text(FAILING, "fails.yaml")
    assert loaded.ok and loaded.game is not None, loaded.diagnostics
    g = Game(loaded.game, 3)
    s = State.initial(g, seed)
    rng = random.Random(seed)
    while s.deal_no < 2:
        s.apply_action(rng.choice(s.legal_actions()))
    if permute is not None:
        s = permute_hidden(s, s.current_player(), random.Random(permute))
    with pytest.raises(RuleError) as info:
        s.apply_action(s.legal_actions()[0])  # the player's own hand did not move: the same card
    return info.value


def test_a_rule_error_shows_the_values_to_the_designer_only() -> None:
    e = _failure(4, None)
    assert e.code == "R001" and e.message == "a list position that does not exist"
    assert "designer's view" not in str(e) and "designer's view" not in e.render()
    designer = e.render(designer=True)
    assert "designer's view of the cards: " in designer
    # Every zone's cards are in the designer's view, the hidden stock and hands included.
    assert "stock: " in designer and "hand[1]: " in designer


@pytest.mark.parametrize("seed", range(6))
def test_a_rule_error_reads_the_same_whatever_the_hidden_cards(seed: int) -> None:
    texts = {str(_failure(seed, k)) for k in range(8)}
    views = {_failure(seed, k).view for k in range(8)}
    assert len(texts) == 1, texts
    assert len(views) > 1  # the designer's view does show the hidden cards: the test moved them
