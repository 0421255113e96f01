"""games/kuhn-poker.yaml is exactly Kuhn poker.

Its tree, built from the engine's chance nodes (a state made without a seed), has the deals, betting
lines and payoffs of OpenSpiel's `kuhn_poker`, and CFR over information sets taken from the engine's
own observations finds the game's value, -1/18 for P0: an observation that told a player more than
their own card and the betting would make the information sets finer and the value different.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from cardsmith.engine.game import Game
from cardsmith.engine.state import State
from conftest import GAMES_DIR, compiled

CARDS = ["J of spades", "Q of spades", "K of spades"]


def kuhn() -> Game:
    return Game(compiled(str(GAMES_DIR / "kuhn-poker.yaml")), 2)


def test_utility_of_the_game() -> None:
    g = kuhn()
    assert (g.min_utility, g.max_utility, g.zero_sum, g.utility_sum, g.returns_name) == (-2.0, 2.0, True, 0.0,
                                                                                         "chips")


def test_the_deal_is_two_chance_nodes_of_the_cards() -> None:
    g = kuhn()
    s = State.initial(g, None)
    assert s.is_chance_node()
    first = s.chance_outcomes()
    assert [g.card_names[c] for c, _ in first] == CARDS and all(p == pytest.approx(1 / 3) for _, p in first)
    s.apply_action(first[2][0])  # the top card: P0's, dealt first from the dealer's (P1's) left
    second = s.chance_outcomes()
    assert [g.card_names[c] for c, _ in second] == CARDS[:2]
    s.apply_action(second[0][0])
    assert not s.is_chance_node() and s.current_player() == 0
    assert s.observation(0)["zones"]["hand[0]"] == ["K of spades"]
    assert s.observation(0)["zones"]["hand[1]"] == 1
    assert s.observation(1)["zones"]["hand[1]"] == ["J of spades"]


def _deal(g: Game, c0: str, c1: str) -> State:
    s = State.initial(g, None)
    s.apply_action(g.card_id(c0))
    s.apply_action(g.card_id(c1))
    assert not s.is_chance_node()
    return s


def _play(s: State, moves: str) -> None:
    """'p' passes (check or fold), 'b' bets (bet or call), as OpenSpiel's kuhn_poker writes them."""
    for m in moves:
        names = {s.action_to_string(s.current_player(), a): a for a in s.legal_actions()}
        s.apply_action(names["check"] if "check" in names and m == "p" else names["fold"] if m == "p"
                       else names["bet"] if "bet" in names else names["call"])


# Every betting line of Kuhn poker and P0's result with the higher card (the lower: the negative, except a fold).
LINES = {"pp": 1, "pbp": -1, "pbb": 2, "bp": 1, "bb": 2}


@pytest.mark.parametrize(("c0", "c1"), list(itertools.permutations(CARDS, 2)))
@pytest.mark.parametrize("line", list(LINES))
def test_every_line_pays_as_kuhn_poker(c0: str, c1: str, line: str) -> None:
    g = kuhn()
    s = _deal(g, c0, c1)
    _play(s, line)
    assert s.is_terminal()
    win = 1 if CARDS.index(c0) > CARDS.index(c1) else -1
    want = LINES[line] if line in ("pbp", "bp") else LINES[line] * win
    assert s.returns() == [float(want), float(-want)]
    assert s.rewards() == s.returns()


@pytest.mark.rl
def test_same_tree_as_openspiel() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    ref = pyspiel.load_game("kuhn_poker")
    g = kuhn()
    for c0, c1 in itertools.permutations(range(3), 2):
        for line in LINES:
            r = ref.new_initial_state()
            r.apply_action(c0)
            r.apply_action(c1)
            for m in line:
                r.apply_action(0 if m == "p" else 1)
            assert r.is_terminal()
            s = _deal(g, CARDS[c0], CARDS[c1])
            _play(s, line)
            assert s.returns() == r.returns(), (CARDS[c0], CARDS[c1], line)


# ---------------------------------------------------------------- CFR on the engine's own tree
def _tree(s: State) -> Any:
    if s.is_terminal():
        return ("end", s.returns())
    if s.is_chance_node():
        kids = []
        for a, p in s.chance_outcomes():
            t = s.clone()
            t.apply_action(a)
            kids.append((p, _tree(t)))
        return ("chance", kids)
    p = s.current_player()
    key = json.dumps(s.observation(p), sort_keys=True)  # what p knows: the information set
    kids = []
    for a in s.legal_actions():
        t = s.clone()
        t.apply_action(a)
        kids.append(_tree(t))
    return ("turn", p, key, kids)


def _cfr(node: Any, reach: list[float], regret: dict[str, list[float]], total: dict[str, list[float]]) -> list[float]:
    if node[0] == "end":
        return node[1]
    if node[0] == "chance":
        value = [0.0, 0.0]
        for prob, kid in node[1]:
            # Chance's probability counts in both reaches (every deal of Kuhn poker is equally likely, 1/6).
            v = _cfr(kid, [reach[0] * prob, reach[1] * prob], regret, total)
            value = [value[i] + prob * v[i] for i in range(2)]
        return value
    _, p, key, kids = node
    r = regret.setdefault(key, [0.0] * len(kids))
    pos = [max(x, 0.0) for x in r]
    norm = sum(pos)
    strat = [x / norm for x in pos] if norm > 0 else [1 / len(kids)] * len(kids)
    acc = total.setdefault(key, [0.0] * len(kids))
    for i, x in enumerate(strat):
        acc[i] += reach[p] * x
    values = []
    value = [0.0, 0.0]
    for i, kid in enumerate(kids):
        nr = reach[:]
        nr[p] *= strat[i]
        v = _cfr(kid, nr, regret, total)
        values.append(v)
        value = [value[j] + strat[i] * v[j] for j in range(2)]
    for i in range(len(kids)):
        r[i] += reach[1 - p] * (values[i][p] - value[p])
    return value


def _value(node: Any, policy: dict[str, list[float]]) -> float:
    if node[0] == "end":
        return float(node[1][0])
    if node[0] == "chance":
        return sum(prob * _value(kid, policy) for prob, kid in node[1])
    _, _p, key, kids = node
    acc = policy[key]
    norm = sum(acc)
    return sum((a / norm) * _value(kid, policy) for a, kid in zip(acc, kids))


def test_cfr_on_the_engine_finds_the_value_of_kuhn_poker() -> None:
    tree = _tree(State.initial(kuhn(), None))
    regret: dict[str, list[float]] = {}
    total: dict[str, list[float]] = {}
    for _ in range(3000):
        _cfr(tree, [1.0, 1.0], regret, total)
    assert len(total) == 12  # 3 cards x 2 situations for each player: Kuhn poker's 12 information sets
    assert _value(tree, total) == pytest.approx(-1 / 18, abs=3e-3)
