"""Observation and information state tensors (interpreter/engine/tensors.py).

For every bundled rule file at every allowed player count: the tensors have the game's fixed shape at every
point of random matches, permuting the cards a player cannot see leaves both of that player's tensors
unchanged, and the blocks hold what the layout says (the player's own hand in its seat's slot, with its
order, only counts for hidden zones, a frame per move in the history). tests/test_recall.py checks that the
information state tensor tells apart what the information state string tells apart.
"""

from __future__ import annotations

import random

import pytest
from cardsmith.engine import recall, tensors
from cardsmith.engine.observation import _var_viewers, _zone_viewers
from cardsmith.engine.state import State
from conftest import FEATURE_CASES, GAME_CASES, TESTS, game_for, play_random
from hypothesis import given
from hypothesis import strategies as st
from test_observation import hidden_places, permute_hidden


def _blocks(g: object, t: list[float], info_state: bool = False) -> dict[str, list[float]]:
    out, at = {}, 0
    for name, size in tensors.tensor_layout(g, info_state):
        out[name] = t[at:at + size]
        at += size
    assert at == len(t)
    return out


@pytest.mark.parametrize("rule_file,num_players", GAME_CASES + FEATURE_CASES)
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 400), shuffle_seed=st.integers(0, 2**31))
def test_tensors_ignore_hidden_cards(rule_file: str, num_players: int, seed: int, steps: int,
                                     shuffle_seed: int) -> None:
    s = play_random(rule_file, num_players, seed, steps)
    g = s.game
    prng = random.Random(shuffle_seed)
    for p in range(g.n):
        if not hidden_places(s, p):
            continue
        t = permute_hidden(s, p, prng)
        assert s.observation_tensor(p) == t.observation_tensor(p), \
            f"P{p}'s observation tensor changed when hidden cards were permuted"
        assert s.information_state_tensor(p) == t.information_state_tensor(p), \
            f"P{p}'s information state tensor changed when hidden cards were permuted"


@pytest.mark.parametrize("rule_file,num_players", GAME_CASES + FEATURE_CASES)
def test_shapes_are_fixed(rule_file: str, num_players: int) -> None:
    g = game_for(rule_file, num_players)
    obs_size, = g.observation_tensor_shape()
    info_size, = g.information_state_tensor_shape()
    assert info_size > obs_size
    rng = random.Random(7)
    s = State.initial(g, 7)
    for step in range(2000):
        if step % 7 == 0 or s.is_terminal():
            for p in range(g.n):
                assert len(s.observation_tensor(p)) == obs_size
                if step % 35 == 0 or s.is_terminal():  # a long game's is large: every fifth time
                    assert len(s.information_state_tensor(p)) == info_size
        if s.is_terminal():
            break
        s.apply_action(rng.choice(s.legal_actions()))


# The team features' game too: its per-team variables have a slot per team number.
PARTNERS = [pytest.param(str(TESTS / "games" / "partners.yaml"), n, id=f"partners-{n}p") for n in (4, 6)]


@pytest.mark.parametrize("rule_file,num_players", GAME_CASES + FEATURE_CASES + PARTNERS)
def test_blocks_hold_what_the_layout_says(rule_file: str, num_players: int) -> None:
    g = game_for(rule_file, num_players)
    n, c = g.n, g.num_cards
    s = play_random(rule_file, num_players, 3, 25)
    for p in range(n):
        b = _blocks(g, s.observation_tensor(p))
        assert b["seat"] == [1.0 if q == p else 0.0 for q in range(n)]
        if not s.is_terminal() and not s.is_chance_node():
            assert b["turn"][(s.current_player() - p) % n] == 1.0 and sum(b["turn"]) == 1.0
        assert b["phase"][s.phase] == 1.0 and sum(b["phase"]) == 1.0
        for zi, cards in enumerate(s.z):
            spec, owner = g.zone_specs[zi], g.zone_owner[zi]
            slot = 0 if owner is None else (owner - p) % n
            block = b[f"zone:{spec.name}"][slot * (2 + 2 * c):(slot + 1) * (2 + 2 * c)]
            viewers = _zone_viewers(s, zi)
            assert block[1] == pytest.approx(len(cards) / c)
            if viewers is None or p in viewers:
                assert block[0] == 1.0
                assert [i for i, x in enumerate(block[2:2 + c]) if x] == sorted(cards)
                # the order: the i-th card from the bottom at (i + 1) / size, so the top card at 1
                order = block[2 + c:]
                assert sorted(cards, key=lambda card: order[card]) == list(cards)
                assert all(order[card] == pytest.approx((i + 1) / len(cards)) for i, card in enumerate(cards))
            else:
                assert block[0] == 0.0 and not any(block[2:])
        for vi in range(len(g.var_names)):
            spec, owner = g.var_specs[vi]
            width = len(b[f"var:{spec.name}"]) // (n if spec.per_player or spec.per_team else 1)
            # A per-player value is in its seat's slot counted from p; a per-team value in the slot of its team
            # number (a team is not a seat).
            slot = 0 if owner is None else owner if spec.per_team else (owner - p) % n
            block = b[f"var:{spec.name}"][slot * width:(slot + 1) * width]
            viewers = _var_viewers(s, vi)
            if viewers is None or p in viewers:
                assert block[0] == 1.0
            else:
                assert not any(block), f"hidden variable {g.var_names[vi]} shown to P{p}"


@pytest.mark.parametrize("rule_file,num_players", GAME_CASES[::5])
def test_history_frames_hold_each_move_in_order(rule_file: str, num_players: int) -> None:
    """The information state tensor is the observation tensor, then one frame per step: the start of the
    match, then each move, its actor relative to the player, its action, and its parameters unless hidden."""
    g = game_for(rule_file, num_players)
    rng = random.Random(5)
    s = State.initial(g, 5)
    moves: list[tuple[int, int]] = []
    for _ in range(60):
        if s.is_terminal():
            break
        a = rng.choice(s.legal_actions())
        moves.append((s.current_player(), a))
        s.apply_action(a)
    frame = recall.frame_layout(g)
    width = sum(size for _, size in frame)
    for p in range(g.n):
        t = s.information_state_tensor(p)
        assert t[:tensors.observation_size(g)] == s.observation_tensor(p)
        dropped, *history = _blocks(g, t, True)["history"]
        assert dropped == 0.0 and len(history) == recall.frames(g) * width
        frames = [history[k * width:(k + 1) * width] for k in range(recall.frames(g))]
        assert [f[0] for f in frames] == [1.0] * (len(moves) + 1) + [0.0] * (recall.frames(g) - len(moves) - 1)
        assert not any(frames[0][1:1 + g.n])  # the start of the match: nobody acted
        for f, (who, a) in zip(frames[1:], moves):
            blocks = _split(frame, f)
            info = g.action_for(a)
            assert blocks["actor"] == [1.0 if q == (who - p) % g.n else 0.0 for q in range(g.n)]
            assert blocks["action"] == [1.0 if i == info.index else 0.0 for i in range(len(g.actions))]
            assert blocks["hidden"] == [1.0 if info.secret and info.params and who != p else 0.0]
        assert not any(x for f in frames[len(moves) + 1:] for x in f)


def _split(layout: list[tuple[str, int]], t: list[float]) -> dict[str, list[float]]:
    out, at = {}, 0
    for name, size in layout:
        out[name] = t[at:at + size]
        at += size
    return out


def test_seats_are_relative_to_the_player() -> None:
    """Each player finds its own hand in the first slot of a per-player zone."""
    rule_file, num_players = next((f, n) for f, n in (c.values for c in GAME_CASES) if "schwimmen" in f)
    g = game_for(rule_file, num_players)
    s = play_random(rule_file, num_players, 1, 3)
    c = g.num_cards
    for p in range(g.n):
        hand = _blocks(g, s.observation_tensor(p))["zone:hand"]
        mine = [i for i, x in enumerate(hand[2:2 + c]) if x]
        assert mine == sorted(s.z[g.zone_names.index(f"hand[{p}]")])
        assert hand[0] == 1.0 and all(hand[k * (2 + 2 * c)] == 0.0 for k in range(1, g.n))


def test_per_team_variables_have_a_slot_per_team_number() -> None:
    """A per-team value sits in the slot of its team number (not relative: a team is not a seat), seen by
    the team's players when it is `visible: owner`, and the tensor stays the layout's size."""
    from conftest import ROOT
    rule_file = str(ROOT / "tests" / "games" / "partners.yaml")
    g = game_for(rule_file, 4)
    rng = random.Random(3)
    s = State.initial(g, 3)
    seen_values = 0
    while not s.is_terminal():
        for p in range(g.n):
            t = s.observation_tensor(p)
            assert len(t) == tensors.observation_tensor_shape(g)[0]
            blocks = _blocks(g, t)
            for name in ("score", "huddle"):
                block = blocks[f"var:{name}"]
                assert len(block) == 2 * g.n
                for team in range(g.n):
                    value = s.v[g.var_names.index(f"{name}[{team}]")]
                    sees = name == "score" or s.team[p] == team
                    assert block[2 * team] == (1.0 if sees else 0.0)
                    assert block[2 * team + 1] == (float(value) if sees else 0.0)
                    seen_values += bool(sees and value)
        s.apply_action(rng.choice(s.legal_actions()))
    assert seen_values > 0
