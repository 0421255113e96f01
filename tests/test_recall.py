"""The tensors tell apart what the strings tell apart (interpreter/engine/recall.py, tensors.py).

The information state tensor is a player's perfect recall, as the information state string is: two states
whose strings differ for a player never give that player equal tensors, and (the permutation test's
direction, tests/test_tensors.py) states whose strings are equal give equal tensors. The observation
tensor likewise for the observation string's cards: their zone and their order.

The pairs are made by swapping two cards through a whole history (the deal and every move that names them):
the same match with two cards trading places, so the players who hold neither often see almost the same
thing, and what differs is what a tensor could lose, such as the order two cards were played in.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from cardsmith.engine.game import Game
from cardsmith.engine.state import State
from conftest import FEATURE_CASES, GAME_CASES, compiled, game_for
from hypothesis import given, settings
from hypothesis import strategies as st


def _swap_action(g: Game, a: int, c1: int, c2: int) -> int | None:
    """The action `a` with cards c1 and c2 traded in its parameters (None: no such action)."""
    info = g.action_for(a)
    k = a - info.offset
    digits = []

    def swap(x: int) -> int:
        return c2 if x == c1 else c1 if x == c2 else x

    for i, (param, radix) in enumerate(zip(info.params, info.radix)):
        k, d = divmod(k, radix)
        if param.kind == "card":
            d = swap(d)
        elif param.kind == "cards":
            want = sorted(swap(x) for x in info.values[i][d])
            found = [j for j, v in enumerate(info.values[i]) if sorted(v) == want]
            if not found:
                return None
            d = found[0]
        digits.append(d)
    return info.encode(digits)


def _history(g: Game, rng: random.Random, moves: int) -> tuple[State, list[tuple[int, bool]]]:
    """A match without a seed (chance at chance nodes) after at most `moves` random moves, and its history as
    (action, is a chance outcome)."""
    s = g.new_initial_state()
    hist: list[tuple[int, bool]] = []
    while not s.is_terminal():
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            a, chance = outcomes[rng.randrange(len(outcomes))][0], True
        else:
            if moves == 0:
                break
            moves -= 1
            legal = s.legal_actions()
            a, chance = legal[rng.randrange(len(legal))], False
        hist.append((a, chance))
        s.apply_action(a)
    return s, hist


def _swapped(g: Game, hist: list[tuple[int, bool]], c1: int, c2: int) -> State | None:
    """The match of `hist` with cards c1 and c2 traded everywhere (None where the rules do not allow it)."""
    s = g.new_initial_state()
    for a, chance in hist:
        if chance:
            b: int | None = c2 if a == c1 else c1 if a == c2 else a
            if b not in dict(s.chance_outcomes()):
                return None
        else:
            b = _swap_action(g, a, c1, c2)
            if b is None or b not in s.legal_actions():
                return None
        s.apply_action(b)
    return s


def _check_pair(s: State, t: State) -> tuple[int, int]:
    """For each player: different strings give different tensors, equal strings equal tensors. Returns how
    many players' information state strings and observation strings differed."""
    infos = observations = 0
    for p in range(s.game.n):
        if s.information_state_string(p) != t.information_state_string(p):
            infos += 1
            assert s.information_state_tensor(p) != t.information_state_tensor(p), \
                f"P{p}'s information states differ but their tensors are equal"
        else:
            assert s.information_state_tensor(p) == t.information_state_tensor(p), \
                f"P{p}'s information states are the same but their tensors differ"
        if s.observation_string(p) != t.observation_string(p):
            observations += 1
            assert s.observation_tensor(p) != t.observation_tensor(p), \
                f"P{p}'s observations differ but their tensors are equal"
    return infos, observations


@pytest.mark.parametrize("rule_file,num_players", GAME_CASES + FEATURE_CASES)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**31), moves=st.integers(0, 150))
def test_different_information_states_give_different_tensors(rule_file: str, num_players: int, seed: int,
                                                              moves: int) -> None:
    g = game_for(rule_file, num_players)
    rng = random.Random(seed)
    s, hist = _history(g, rng, moves)
    for _ in range(4):
        c1, c2 = rng.sample(range(g.num_cards), 2)
        t = _swapped(g, hist, c1, c2)
        if t is not None:
            _check_pair(s, t)


# One case per game, at its fewest players (the swaps above cover every player count).
FEWEST = [c for i, c in enumerate(GAME_CASES) if i == 0 or c.values[0] != GAME_CASES[i - 1].values[0]]


@pytest.mark.parametrize("rule_file,num_players", FEWEST + FEATURE_CASES[:1])
def test_one_deal_played_differently(rule_file: str, num_players: int) -> None:
    """The same deal played with different random moves: wherever two states give a player equal
    information state tensors, they give it equal strings."""
    g = game_for(rule_file, num_players)
    seen: dict[tuple[int, tuple[float, ...]], str] = {}
    for walk in range(6):
        rng = random.Random(walk)
        s = State.initial(g, 11)
        for _ in range(40):
            if s.is_terminal():
                break
            for p in range(g.n):
                text = s.information_state_string(p)
                assert seen.setdefault((p, tuple(s.information_state_tensor(p))), text) == text
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])


def _case(name: str) -> Any:
    return next(c.values for c in GAME_CASES if c.values[0].endswith(f"/{name}.yaml"))


def _trick_pairs(count: int) -> list[tuple[State, State, int]]:
    """Hearts: states right after two players followed suit in a trick, and the same match with their two
    cards traded (so the trick holds them the other way round), with a player who held neither."""
    g = game_for(*_case("hearts"))
    trick = g.zone_names.index("trick")
    rng = random.Random(2)
    pairs: list[tuple[State, State, int]] = []
    while len(pairs) < count:
        s, hist = _history(g, rng, rng.randrange(14, 64))
        cards = s.z[trick]
        if len(cards) < 3 or s.is_terminal():
            continue
        c1, c2 = cards[-3], cards[-2]  # played by the two players before the last
        t = _swapped(g, hist, c1, c2)
        if t is None:
            continue
        watcher = s.current_player()  # after the last card of the three: held neither
        pairs.append((s, t, watcher))
    return pairs


def test_hearts_order_of_a_trick_is_in_the_tensors() -> None:
    """"P1 plays 4 of diamonds, P2 plays 5 of diamonds" and the other way round: a third player's strings
    differ, and so do its tensors (both: the observation shows the trick in order, and the history too)."""
    for s, t, p in _trick_pairs(20):
        assert s.information_state_string(p) != t.information_state_string(p)
        assert s.information_state_tensor(p) != t.information_state_tensor(p)
        assert s.observation_tensor(p) != t.observation_tensor(p)


def test_gin_rummy_upcard_is_in_the_observation_tensor() -> None:
    """Gin Rummy: the same cards in the discard pile with another on top (the upcard a player may take) give
    different observation tensors."""
    g = game_for(*_case("gin-rummy"))
    discard = g.zone_names.index("discard")
    rng = random.Random(4)
    found = 0
    while found < 15:
        s, hist = _history(g, rng, rng.randrange(4, 60))
        pile = s.z[discard]
        if len(pile) < 2 or s.is_terminal():
            continue
        t = _swapped(g, hist, pile[-1], pile[0])
        if t is None or sorted(t.z[discard]) != sorted(pile) or t.z[discard][-1] == pile[-1]:
            continue
        found += 1
        for p in range(g.n):
            assert s.observation_tensor(p) != t.observation_tensor(p)
            assert s.information_state_tensor(p) != t.information_state_tensor(p)


def test_the_sizes_in_the_docs_are_the_games() -> None:
    """docs/research.md's table of tensor sizes is what benchmarks/tensors.py prints for the bundled games."""
    import re
    import subprocess
    import sys

    from conftest import ROOT
    doc = (ROOT / "docs" / "research.md").read_text()
    table = re.search(r"<!-- tensors-table -->\n(.*?)\n<!-- /tensors-table -->", doc, re.S)
    assert table is not None
    printed = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "tensors.py")], capture_output=True,
                             text=True, check=True).stdout.strip()
    assert table.group(1).strip() == printed, "run `python benchmarks/tensors.py` and put its table in the docs"


def test_a_match_longer_than_the_history_keeps_its_start_and_latest_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game without a bound on its moves (Thirty-One may go on for ever) has a history of `MAX_MOVES`
    frames; a longer match keeps the start of the match and the latest moves, and says how many it left out."""
    from cardsmith.engine import recall, tensors
    monkeypatch.setattr(recall, "MAX_MOVES", 10)
    g = Game(compiled(_case("thirty-one")[0]), 2)  # not game_for's shared one: its plan has the patched bound
    assert recall.frames(g) == 11
    rng = random.Random(1)
    s = State.initial(g, 1)
    moves = []
    while len(moves) < 30:
        legal = s.legal_actions()
        moves.append((s.current_player(), legal[rng.randrange(len(legal))]))
        s.apply_action(moves[-1][1])
    width = sum(size for _, size in recall.frame_layout(g))
    history = s.information_state_tensor(0)[tensors.observation_size(g):]
    assert history[0] == 20.0  # 31 steps, 11 kept
    frames = [history[1 + k * width:1 + (k + 1) * width] for k in range(11)]
    assert all(f[0] == 1.0 for f in frames)
    assert not any(frames[0][1:1 + g.n])  # the start of the match
    for f, (who, a) in zip(frames[1:], moves[-10:]):
        assert f[1 + (who - 0) % g.n] == 1.0
        assert f[1 + g.n + g.action_for(a).index] == 1.0
