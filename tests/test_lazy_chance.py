"""Lazy dealing: a state made without a seed deals a shuffled zone a card at a time, as OpenSpiel's games do
(interpreter/engine/chance.py), and takes a copy of itself only before steps that may meet chance
(interpreter/engine/steps.py)."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction

import pytest
from cardsmith.engine.game import Game
from cardsmith.engine.history import LAZY
from cardsmith.engine.state import CHANCE, State
from cardsmith.engine.steps import step_reach
from cardsmith.table.record import MatchRecord, record_match, steps
from conftest import GAME_CASES, ROOT, compiled

GAMES = ROOT / "games"


def game(name: str, players: int) -> Game:
    return Game(compiled(str(GAMES / f"{name}.yaml")), players)


def chance_nodes_to_first_decision(s: State) -> list[int]:
    """The number of outcomes of each chance node before the first decision, taking the first outcome."""
    sizes = []
    while s.is_chance_node():
        outcomes = s.chance_outcomes()
        sizes.append(len(outcomes))
        s.apply_action(outcomes[0][0])
    return sizes


def test_kuhn_poker_deals_a_card_per_chance_node_and_leaves_the_third_undecided() -> None:
    g = game("kuhn-poker", 2)
    s = g.new_initial_state()
    assert chance_nodes_to_first_decision(s) == [3, 2]
    assert s.unfixed == {} and s.zone_cards("stock") == [2]  # one card left: in order by itself
    assert s.zone_cards("hand", 0) == [0] and s.zone_cards("hand", 1) == [1]
    assert s.full_history() == [(CHANCE, 0), (CHANCE, 1)]


def test_a_deal_of_the_whole_pack_is_a_node_per_card_but_the_last() -> None:
    s = game("hearts", 4).new_initial_state()
    sizes = chance_nodes_to_first_decision(s)
    assert sizes == [4] + list(range(52, 1, -1))  # the pass direction, then 51 cards
    assert sorted(c for p in range(4) for c in s.zone_cards("hand", p)) == list(range(52))


def test_a_draw_later_in_the_match_is_a_chance_node_then() -> None:
    g = game("gin-rummy", 2)
    s = g.new_initial_state()
    assert len(chance_nodes_to_first_decision(s)) == 21  # ten each and the upcard
    stock = sorted(s.zone_cards("stock"))
    assert s.unfixed == {g.zone_names.index("stock"): len(stock)}
    names = {s.action_to_string(s.current_player(), a): a for a in s.legal_actions()}
    s.apply_action(names["pass"])  # the first upcard refused by both: the non-dealer draws from the stock
    names = {s.action_to_string(s.current_player(), a): a for a in s.legal_actions()}
    s.apply_action(names["pass"])
    p = s.current_player()
    draw = next(a for a in s.legal_actions() if s.action_to_string(p, a) == "draw from the stock")
    s.apply_action(draw)
    assert s.is_chance_node() and [c for c, _ in s.chance_outcomes()] == stock
    assert s.chance_values() == stock
    s.apply_action(stock[3])
    assert not s.is_chance_node() and stock[3] in s.zone_cards("hand", p)


def test_a_pick_names_what_its_positions_stand_for() -> None:
    s = game("hearts", 4).new_initial_state()
    assert s.pending is not None and s.pending.kind == "index"
    assert [i for i, _ in s.chance_outcomes()] == [0, 1, 2, 3]
    assert s.chance_values() == ["hold", "left", "across", "right"]


def test_kuhn_poker_deals_every_pair_of_cards_with_the_same_chance() -> None:
    g = game("kuhn-poker", 2)
    odds: Counter[tuple[int, int]] = Counter()
    first = g.new_initial_state()
    for c0, p0 in first.chance_outcomes():
        s = first.clone()
        s.apply_action(c0)
        for c1, p1 in s.chance_outcomes():
            t = s.clone()
            t.apply_action(c1)
            hands = (t.zone_cards("hand", 0)[0], t.zone_cards("hand", 1)[0])
            odds[hands] += Fraction(p0).limit_denominator(10) * Fraction(p1).limit_denominator(10)
    assert odds == {(a, b): Fraction(1, 6) for a in range(3) for b in range(3) if a != b}


def test_states_and_records_say_they_deal_lazily_and_replay_so() -> None:
    g = game("gin-rummy", 2)
    rng = random.Random(3)
    s = g.new_initial_state()
    while not s.is_terminal() and len(s.history()) < 60:
        if s.is_chance_node():
            s.apply_action(rng.choice(s.chance_outcomes())[0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    data = json.loads(s.serialize())
    assert data["chance"] == LAZY
    again = g.deserialize_state(s.serialize())
    assert again.full_history() == s.full_history() and again.z == s.z and again.unfixed == s.unfixed
    rec = record_match(s, "gin-rummy", ["random", "random"])
    assert rec.chance == LAZY and rec.to_json()["chance"] == LAZY
    replayed = list(steps(MatchRecord.from_json(json.loads(json.dumps(rec.to_json()))), g, log=False))[-1]
    assert replayed.full_history()[:len(replayed.full_history())] == s.full_history()[:len(replayed.full_history())]


def test_a_state_and_a_record_of_every_shuffle_at_once_still_replay() -> None:
    """What was written before lazy dealing: every shuffle a chance node per position, at once."""
    g = game("kuhn-poker", 2)
    s = State.initial(g, None, lazy=False)
    sizes = chance_nodes_to_first_decision(s)
    assert sizes == [3, 2]  # three cards shuffled: two positions chosen, the last forced
    s.apply_action(s.legal_actions()[0])
    text = s.serialize()
    assert "chance" not in json.loads(text)
    again = g.deserialize_state(text)
    assert again.full_history() == s.full_history() and again.z == s.z and again.unfixed is None
    rec = record_match(s, "kuhn-poker", ["random", "random"])
    assert rec.chance is None and "chance" not in rec.to_json()
    last = list(steps(rec, g, log=False))[-1]
    assert last.z == s.z


def test_a_record_with_another_chance_is_refused() -> None:
    s = game("kuhn-poker", 2).new_initial_state(seed=1)
    data = record_match(s, "kuhn-poker", ["random", "random"]).to_json()
    with pytest.raises(Exception, match='"chance" must be "lazy" or left out'):
        MatchRecord.from_json({**data, "chance": "eager"})


def test_only_steps_that_may_meet_chance_take_a_copy() -> None:
    hearts = game("hearts", 4)
    tricks = next(i for i, ph in enumerate(hearts.spec.phases) if ph.name == "tricks")
    play = next(a for a in hearts.actions if a.name == "play")
    r = step_reach(hearts, tricks, play.run)
    assert not r.chance and not r.zones & {hearts.zone_names.index("stock")}
    gin = game("gin-rummy", 2)
    draw = next(a for a in gin.actions if a.name == "draw_stock")
    phase = next(i for i, ph in enumerate(gin.spec.phases) if "draw_stock" in dict(ph.actions))
    assert gin.zone_names.index("stock") in step_reach(gin, phase, draw.run).zones
    # Played out without a seed, Hearts copies the state for the start of the match only.
    s = hearts.new_initial_state()
    chance_nodes_to_first_decision(s)
    copies = 0
    real = State.clone

    def counted(self: State) -> State:
        nonlocal copies
        copies += 1
        return real(self)

    State.clone = counted  # type: ignore[method-assign]
    try:
        while not s.is_terminal():
            s.apply_action(s.legal_actions()[0])
    finally:
        State.clone = real  # type: ignore[method-assign]
    assert copies == 0


@pytest.mark.parametrize("rule_file,num_players", GAME_CASES)
def test_a_match_without_a_seed_never_shows_an_undecided_order(rule_file: str, num_players: int) -> None:
    """At every decision, every zone with cards in no order yet is seen by nobody, and no query reads its
    order; a serialized state replays to the same state."""
    g = Game(compiled(rule_file), num_players)
    rng = random.Random(11)
    s = g.new_initial_state()
    for _ in range(300):
        if s.is_terminal():
            break
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            assert s.current_player() == CHANCE and abs(sum(p for _, p in outcomes) - 1) < 1e-9
            s.apply_action(rng.choice(outcomes)[0])
            continue
        views = [s.observation(p)["zones"] for p in range(g.n)]
        for zi in s.unfixed or {}:
            assert zi not in g.queried_zones
            assert all(type(view[g.zone_names[zi]]) is int for view in views)  # a count, not the cards
        s.apply_action(rng.choice(s.legal_actions()))
    again = g.deserialize_state(s.serialize())
    assert again.full_history() == s.full_history() and again.z == s.z


def test_the_optimizer_moves_a_whole_shuffled_zone_unordered_as_the_plain_compile_does() -> None:
    """`move discard to bottom of stock` after `shuffle discard` (Thirty-One's draw-and-discard refresh): the
    pile's order need not be decided to move it whole, so neither compile decides it there. The optimizer's
    inliner copies the expression, and the copy once lost the mark that says so: the optimized compile then
    decided the pile's cards before the stock's undecided ones, and dealt otherwise than the plain one (and
    the native backend, which is lowered from the plain one) in a match without a seed."""
    from cardsmith.dsl.pipeline import compile_file
    sources = {opt: compile_file(GAMES / "thirty-one.yaml", optimize=opt).game.source for opt in (True, False)}
    line = "_move(s, s.z[Z_discard], Z_stock, True)"
    assert line in sources[False]
    assert line in sources[True]
