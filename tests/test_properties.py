"""Engine properties that must hold for every rule file at every player count.

Each test is parametrized over every file in games/ at every player count its
spec allows (see conftest.GAME_CASES), and hypothesis draws the deal seed and
the seed of the random action choices. A failing example is reported with both
seeds and the actions played, so it can be replayed by hand:

    game = Game(compile_file(FILE).game, N); s = State.initial(game, SEED)
    for a in ACTIONS: s.apply_action(a)
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Callable
from typing import Any

import pytest
from cardsmith.engine.errors import IllegalAction
from cardsmith.engine.state import CHANCE, TERMINAL, State
from conftest import FEATURE_CASES, GAME_CASES, fresh_game, game_for
from hypothesis import given, note
from hypothesis import strategies as st

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)

# Most properties look at the first few hundred actions of a match (the costlier
# ones, which try every legal action or replay the match, at fewer); test (d)
# plays to the end, within a bound far above any real match.
WALK = 300
SHORT_WALK = 80
END_BOUND = 100_000

cases = pytest.mark.parametrize(("rule_file", "num_players"), GAME_CASES + FEATURE_CASES)


# ---------------------------------------------------------------- helpers
def check_cards(s: State) -> None:
    """(a) every card is in exactly one zone, and s.loc says which."""
    g = s.game
    everything = sorted(c for zone in s.z for c in zone)
    assert everything == list(range(g.num_cards)), (
        f"cards in zones are not each card once: missing "
        f"{sorted(set(range(g.num_cards)) - set(everything))}, "
        f"duplicated {sorted({c for c in everything if everything.count(c) > 1})}"
    )
    assert len(s.loc) == g.num_cards
    for zi, zone in enumerate(s.z):
        for c in zone:
            assert s.loc[c] == zi, (
                f"card {c} ({g.card_names[c]}) is in zone {g.zone_names[zi]} but loc says "
                f"{g.zone_names[s.loc[c]] if 0 <= s.loc[c] < len(s.z) else s.loc[c]}"
            )


def check_player_node(s: State) -> None:
    """(b) at a decision node: a valid seat to act and well-formed legal actions."""
    g = s.game
    p = s.current_player()
    if s.is_terminal():
        assert p == TERMINAL
        assert s.legal_actions() == []
        return
    assert 0 <= p < g.n, f"current_player() is {p} at a non-terminal state"
    assert not s.out[p], f"P{p} is out of the match but is to act"
    legal = s.legal_actions()
    assert legal, f"no legal action for P{p} in phase '{g.phases[s.phase].name}'"
    assert legal == sorted(legal), f"legal actions not sorted: {legal}"
    assert len(set(legal)) == len(legal), f"legal actions repeat: {legal}"
    assert all(isinstance(a, int) and 0 <= a < g.num_distinct_actions for a in legal), (
        f"legal actions out of range(0, {g.num_distinct_actions}): {legal}"
    )
    assert s.legal_actions() == legal, "legal_actions() changed between two calls"
    assert s.legal_actions(p) == legal
    for q in range(g.n):
        if q != p:
            assert s.legal_actions(q) == [], f"P{q} has legal actions while P{p} is to act"


def snapshot(s: State) -> dict[str, Any]:
    """A deep copy of everything that makes up a state, through queries and fields."""
    return copy.deepcopy({
        "z": s.z, "v": s.v, "loc": s.loc, "by": s.by, "out": list(s.out), "phase": s.phase, "cur": s.cur,
        "dealer": s.dealer, "deal_no": s.deal_no, "turns": s.turns, "terminal": s.terminal,
        "winners": list(s.winners), "current_player": s.current_player(), "legal": list(s.legal_actions()),
        "returns": s.returns(), "log": s.log, "chance": s.chance_outcomes(), "team": list(s.team),
        "sit": list(s.sit),
    })


def pick(rng: random.Random, options: list[int]) -> int:
    return options[rng.randrange(len(options))]


def walk(s: State, rng: random.Random, max_actions: int,
         each: Callable[[State], None] | None = None) -> list[int]:
    """Play up to max_actions random legal actions (until terminal), calling `each` after every one."""
    done: list[int] = []
    try:
        for _ in range(max_actions):
            if s.is_terminal():
                break
            a = pick(rng, s.legal_actions())
            s.apply_action(a)
            done.append(a)
            if each is not None:
                each(s)
    except BaseException:
        note(f"actions applied before the failure: {done}")
        note(f"as text: {[s.game.action_to_string(None, a) for a in done]}")
        raise
    return done


# ---------------------------------------------------------------- (a) cards
@cases
@given(seed=SEEDS, choices=SEEDS)
def test_every_card_in_exactly_one_zone(rule_file: str, num_players: int, seed: int, choices: int) -> None:
    s = State.initial(game_for(rule_file, num_players), seed)
    check_cards(s)
    walk(s, random.Random(choices), WALK, check_cards)


# ---------------------------------------------------------------- (b) legal actions
@cases
@given(seed=SEEDS, choices=SEEDS)
def test_legal_actions_well_formed(rule_file: str, num_players: int, seed: int, choices: int) -> None:
    g = game_for(rule_file, num_players)
    s = State.initial(g, seed)
    assert not s.is_chance_node(), "a seeded state stopped at a chance node"
    check_player_node(s)

    def each(st_: State) -> None:
        assert not st_.is_chance_node(), "a seeded state stopped at a chance node"
        check_player_node(st_)

    walk(s, random.Random(choices), WALK, each)


# ---------------------------------------------------------------- (c) applying actions
@cases
@given(seed=SEEDS, choices=SEEDS)
def test_legal_actions_apply_and_illegal_ones_raise(rule_file: str, num_players: int, seed: int,
                                                     choices: int) -> None:
    g = game_for(rule_file, num_players)
    s = State.initial(g, seed)
    rng = random.Random(choices)

    def each(st_: State) -> None:
        if st_.is_terminal():
            with pytest.raises(IllegalAction) as ei:
                st_.apply_action(0)
            assert str(ei.value)
            return
        legal = st_.legal_actions()
        # Every legal action applies without error, to a state that keeps the card invariant.
        for a in legal:
            c = st_.clone()
            c.apply_action(a)
            check_cards(c)
        # Illegal ids: a few within the action range, and some outside it.
        before = snapshot(st_)
        allowed = set(legal)
        illegal = [-1, g.num_distinct_actions, g.num_distinct_actions + 7, 10**9]
        for _ in range(4):
            a = rng.randrange(g.num_distinct_actions)
            if a not in allowed:
                illegal.append(a)
        for a in illegal:
            with pytest.raises(IllegalAction) as ei:
                st_.apply_action(a)
            msg = str(ei.value)
            assert msg.strip(), f"IllegalAction for {a} has no message"
            assert str(a) in msg, f"the message for illegal action {a} does not name it: {msg!r}"
        assert snapshot(st_) == before, "a refused action changed the state"

    each(s)
    walk(s, rng, SHORT_WALK, each)


# ---------------------------------------------------------------- (d) matches end
@cases
@given(seed=SEEDS, choices=SEEDS)
def test_random_play_ends(rule_file: str, num_players: int, seed: int, choices: int) -> None:
    g = game_for(rule_file, num_players)
    s = State.initial(g, seed)
    played = walk(s, random.Random(choices), END_BOUND)
    assert s.is_terminal(), f"not over after {len(played)} random actions"
    assert s.current_player() == TERMINAL
    assert s.legal_actions() == []
    r = s.returns()
    assert len(r) == g.n
    assert all(isinstance(x, float) and math.isfinite(x) for x in r)
    assert all(0 <= p < g.n for p in s.winners), f"winners {s.winners}"
    if g.spec.match.returns is None:  # the winners' share: 1/k to each of k winners
        assert r == [1.0 / len(s.winners) if p in s.winners else 0.0 for p in range(g.n)]
        if s.winners:
            assert math.isclose(sum(r), 1.0)
    else:  # the rule file's own returns, within its bounds
        assert g.min_utility is None or all(x >= g.min_utility for x in r), r
        assert g.max_utility is None or all(x <= g.max_utility for x in r), r
        if g.zero_sum:
            assert math.isclose(sum(r), 0.0, abs_tol=1e-9), r
    assert s.rewards() == r
    for p in range(g.n):
        assert s.observation(p)["terminal"] is True


# ---------------------------------------------------------------- (e) determinism
@cases
@given(seed=SEEDS, choices=SEEDS)
def test_same_seed_same_choices_same_log(rule_file: str, num_players: int, seed: int, choices: int) -> None:
    runs = []
    for _ in range(2):
        s = State.initial(fresh_game(rule_file, num_players), seed, log=True)
        played = walk(s, random.Random(choices), SHORT_WALK * 2)
        runs.append((played, s))
    (p1, s1), (p2, s2) = runs
    assert p1 == p2
    assert s1.log, "a logged match has an empty log"
    assert s1.log == s2.log
    assert snapshot(s1) == snapshot(s2)
    # Logging does not change play: the same match without a log ends in the same state.
    s3 = State.initial(game_for(rule_file, num_players), seed)
    for a in p1:
        s3.apply_action(a)
    want = snapshot(s1)
    got = snapshot(s3)
    want.pop("log")
    got.pop("log")
    assert got == want


# ---------------------------------------------------------------- (f) clones
@cases
@given(seed=SEEDS, choices=SEEDS, before=st.integers(0, 200), after=st.integers(1, 60))
def test_clone_is_independent(rule_file: str, num_players: int, seed: int, choices: int, before: int,
                              after: int) -> None:
    s = State.initial(game_for(rule_file, num_players), seed, log=True)
    rng = random.Random(choices)
    walk(s, rng, before)
    original = snapshot(s)
    c = s.clone()
    assert snapshot(c) == original, "a fresh clone differs from its original"
    moves = walk(c, rng, after, check_cards)
    assert snapshot(s) == original, f"applying {moves} to a clone changed the original"
    # The original, given the same actions, reaches the clone's state; the clone is left alone.
    cloned = snapshot(c)
    for a in moves:
        s.apply_action(a)
    assert snapshot(s) == cloned, "the original and its clone diverged on the same actions"
    assert snapshot(c) == cloned, "applying actions to the original changed its clone"


# ---------------------------------------------------------------- (g) explicit chance
def check_chance_node(s: State) -> list[int]:
    assert s.current_player() == CHANCE
    assert s.is_chance_node()
    outcomes = s.chance_outcomes()
    assert outcomes, "a chance node without outcomes"
    ids = [a for a, _ in outcomes]
    assert len(set(ids)) == len(ids), f"chance outcomes repeat: {ids}"
    assert all(p > 0 for _, p in outcomes)
    assert math.isclose(sum(p for _, p in outcomes), 1.0), f"probabilities sum to {sum(p for _, p in outcomes)}"
    assert s.legal_actions() == ids
    return ids


@cases
@given(choices=SEEDS, steps=st.integers(1, 250))
def test_explicit_chance_nodes(rule_file: str, num_players: int, choices: int, steps: int) -> None:
    g = game_for(rule_file, num_players)
    rng = random.Random(choices)
    s = State.initial(g, None)
    assert s.current_player() == CHANCE, "State.initial(game, None) does not start at a chance node"
    check_cards(s)
    done: list[tuple[str, int]] = []
    try:
        # The opening shuffle: outcomes until a player is to act.
        while s.current_player() == CHANCE:
            ids = check_chance_node(s)
            before = snapshot(s)
            for bad in (-1, max(ids) + 1000):
                with pytest.raises(IllegalAction):
                    s.apply_action(bad)
            assert snapshot(s) == before, "a refused chance outcome changed the state"
            a = pick(rng, ids)
            s.apply_action(a)
            done.append(("chance", a))
            check_cards(s)
        check_player_node(s)
        # Go on playing, chance nodes (mid-deal shuffles, new deals) included.
        for _ in range(steps):
            if s.is_terminal():
                break
            if s.current_player() == CHANCE:
                ids = check_chance_node(s)
                if rng.random() < 0.1:
                    # A clone at a chance node is independent too.
                    before = snapshot(s)
                    c = s.clone()
                    c.apply_action(pick(rng, ids))
                    check_cards(c)
                    assert snapshot(s) == before, "resolving a chance node on a clone changed the original"
                a = pick(rng, ids)
                done.append(("chance", a))
            else:
                check_player_node(s)
                a = pick(rng, s.legal_actions())
                done.append((g.action_to_string(s.current_player(), a), a))
            s.apply_action(a)
            check_cards(s)
    except BaseException:
        note(f"steps before the failure: {done}")
        raise
