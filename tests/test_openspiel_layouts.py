"""Declared OpenSpiel layouts (`openspiel:` in a rule file; interpreter/engine/layout.py, `layout=openspiel`).

Kuhn poker, Leduc poker, Hearts, Crazy Eights and Spades declare the action ids and tensors of OpenSpiel's
kuhn_poker, leduc_poker, hearts, crazy_eights and spades. Played in lockstep with pyspiel's game (the whole tree
of Kuhn and Leduc poker; seeded random matches of Hearts and Spades, HEARTS_LAYOUT_GAMES=N and
SPADES_LAYOUT_GAMES=N for more than 20, and of Crazy Eights at every setting its own test plays,
CRAZY_EIGHTS_LAYOUT_GAMES=N for more than 2 each), at every decision (and the end of the first three):
the player to act, the legal action ids and every player's observation and information state tensors are
pyspiel's. A
policy made on pyspiel's Kuhn and Leduc poker by CFR, acting from the information state tensor alone, gets
the same value on cardsmith's games, and a linear "model" of pyspiel's Hearts tensor picks the same moves in
both. The tensors keep hidden information hidden: states a player cannot tell apart (equal information state
strings) give that player equal tensors, and permuting the cards a player cannot see changes nothing.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import cardsmith.openspiel as cso  # noqa: E402
from cardsmith.engine.errors import GameError  # noqa: E402
from cardsmith.engine.layout import layout_of  # noqa: E402
from conftest import game_for, play_random  # noqa: E402
from test_observation import hidden_places, permute_hidden  # noqa: E402

pytestmark = [pytest.mark.rl]

HEARTS_GAMES = int(os.environ.get("HEARTS_LAYOUT_GAMES", "20"))
# Kuhn poker's tree is small; Leduc poker's (9,457 nodes) takes seconds: the slow tier.
POKERS = [("kuhn-poker", "kuhn_poker"), pytest.param("leduc-poker", "leduc_poker", marks=pytest.mark.slow)]


def _tensors(state: Any, game: Any, p: int) -> tuple[list[float] | None, list[float] | None]:
    t = game.get_type()
    return (state.observation_tensor(p) if t.provides_observation_tensor else None,
            state.information_state_tensor(p) if t.provides_information_state_tensor else None)


def _same(ref: Any, ref_game: Any, s: Any, game: Any, where: str) -> None:
    """At a decision or the end: the same player, legal ids and tensors (chance nodes have their own order)."""
    assert s.current_player() == ref.current_player(), where
    if not ref.is_terminal():
        assert s.legal_actions() == ref.legal_actions(), where
    for p in range(ref_game.num_players()):
        assert _tensors(s, game, p) == _tensors(ref, ref_game, p), f"{where}, P{p}"


@pytest.mark.parametrize(("rule_file", "name"), [("kuhn-poker", "kuhn_poker"), ("leduc-poker", "leduc_poker")])
def test_the_game_offers_openspiels_ids_and_shapes(rule_file: str, name: str) -> None:
    ref = pyspiel.load_game(name)
    game = cso.load(rule_file, layout="openspiel")
    assert game.num_distinct_actions() == ref.num_distinct_actions()
    assert game.observation_tensor_shape() == ref.observation_tensor_shape()
    assert game.information_state_tensor_shape() == ref.information_state_tensor_shape()
    assert game.get_parameters()["layout"] == "openspiel"
    assert pyspiel.load_game(str(game)).get_parameters() == game.get_parameters()
    # The default stays cardsmith's own layout.
    own = cso.load(rule_file)
    assert "layout" not in own.get_parameters()
    assert own.num_distinct_actions() == own.cardsmith.num_distinct_actions()
    # The observer's dictionary has the declared blocks by name.
    from open_spiel.python.observation import make_observation

    obs = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    ref_obs = make_observation(ref, pyspiel.IIGObservationType(perfect_recall=True))
    assert list(obs.dict) == list(ref_obs.dict)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    obs.set_from(state, 0)
    assert list(obs.tensor) == state.information_state_tensor(0)


@pytest.mark.parametrize(("rule_file", "name"), POKERS)
def test_the_whole_tree_has_openspiels_ids_and_tensors(rule_file: str, name: str) -> None:
    ref_game, game = pyspiel.load_game(name), cso.load(rule_file, layout="openspiel")
    seen = 0

    def walk(ref: Any, s: Any) -> None:
        nonlocal seen
        where = f"history {ref.history()}"
        if ref.is_chance_node():
            assert s.chance_outcomes() == pytest.approx(ref.chance_outcomes()), where
        else:
            _same(ref, ref_game, s, game, where)
            seen += 1
        if ref.is_terminal():
            assert s.returns() == ref.returns(), where
            return
        for a in ref.legal_actions():
            walk(ref.child(a), s.child(a))

    walk(ref_game.new_initial_state(), game.new_initial_state())
    assert seen >= (30 if name == "kuhn_poker" else 5000)


@pytest.mark.parametrize(("rule_file", "name"), POKERS)
def test_states_a_player_cannot_tell_apart_give_equal_tensors(rule_file: str, name: str) -> None:
    """Over the whole tree: equal information state strings of cardsmith's own (what the player knows) give
    equal declared tensors, so no hidden card reaches them (through the state or through the moves)."""
    game = cso.load(rule_file, layout="openspiel")
    by_string: dict[tuple[int, str], tuple[Any, Any]] = {}
    groups_of_two = 0

    def walk(s: Any) -> None:
        nonlocal groups_of_two
        if s.is_terminal():
            return
        if not s.is_chance_node():
            for p in range(game.num_players()):
                key = (p, s.information_state_string(p))
                t = _tensors(s, game, p)
                first = by_string.setdefault(key, t)
                assert first == t, f"P{p}: {key[1]!r}"
                groups_of_two += first is not t
        for a in s.legal_actions():
            walk(s.child(a))

    walk(game.new_initial_state())
    assert groups_of_two > 0


def _cfr_policy(name: str, iterations: int) -> tuple[Any, Callable[[Any], dict[int, float]]]:
    """CFR's average policy on pyspiel's game, as a function of the information state tensor alone."""
    from open_spiel.python.algorithms import cfr

    ref = pyspiel.load_game(name)
    solver = cfr.CFRSolver(ref)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    table: dict[tuple[float, ...], dict[int, float]] = {}

    def collect(s: Any) -> None:
        if s.is_terminal():
            return
        if not s.is_chance_node():
            probs = average.action_probabilities(s)
            assert table.setdefault(tuple(s.information_state_tensor()), probs) == probs
        for a in s.legal_actions():
            collect(s.child(a))

    collect(ref.new_initial_state())
    return ref, lambda state: table[tuple(state.information_state_tensor())]


def _value(game: Any, act: Callable[[Any], dict[int, float]]) -> list[float]:
    from open_spiel.python import policy as policy_lib
    from open_spiel.python.algorithms import expected_game_score

    class FromTensor(policy_lib.Policy):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__(game, list(range(game.num_players())))

        def action_probabilities(self, state: Any, player_id: Any = None) -> dict[int, float]:
            return act(state)

    played = FromTensor()
    return list(expected_game_score.policy_value(game.new_initial_state(), [played] * game.num_players()))


@pytest.mark.parametrize(("rule_file", "name", "iterations"), [
    ("kuhn-poker", "kuhn_poker", 300), pytest.param("leduc-poker", "leduc_poker", 10, marks=pytest.mark.slow)])
def test_a_cfr_policy_made_on_pyspiel_gets_the_same_value_on_cardsmith(rule_file: str, name: str,
                                                                       iterations: int) -> None:
    ref, act = _cfr_policy(name, iterations)
    want = _value(ref, act)
    got = _value(cso.load(rule_file, layout="openspiel"), act)
    assert got == pytest.approx(want, abs=1e-12)
    if name == "kuhn_poker":
        assert got[0] == pytest.approx(-1 / 18, abs=3e-3)  # near the Nash value


def _hearts_model(size: int) -> Callable[[list[float], list[int]], int]:
    """A fixed linear scorer of the information state tensor, standing for a model trained on pyspiel's hearts."""
    import numpy as np

    weights = np.random.default_rng(7).normal(size=(52, size))

    def pick(tensor: list[float], legal: list[int]) -> int:
        scores = weights @ np.asarray(tensor)
        return max(legal, key=lambda a: scores[a])

    return pick


@pytest.mark.slow
def test_hearts_plays_as_openspiels_hearts_with_its_ids_and_tensors() -> None:
    ref_game = pyspiel.load_game("hearts")
    game = cso.load("hearts", layout="openspiel")
    assert game.num_distinct_actions() == ref_game.num_distinct_actions() == 52
    assert game.information_state_tensor_shape() == ref_game.information_state_tensor_shape() == [5088]
    assert not game.get_type().provides_observation_tensor  # as OpenSpiel's hearts
    card = {x: c for c, x in enumerate(game.layout.card_ids)}
    model = _hearts_model(5088)
    directions = set()
    for seed in range(HEARTS_GAMES):
        rng = random.Random(seed)
        ref, s = ref_game.new_initial_state(), game.new_initial_state()
        while not ref.is_terminal():
            where = f"seed {seed}, history {ref.history()}"
            if ref.is_chance_node():
                a = rng.choice([a for a, _ in ref.chance_outcomes()])
                if not ref.history():  # the pass direction: the positions of the rule file's pick
                    directions.add(a)
                    s.apply_action(a)
                elif s.is_chance_node():  # a card dealt: the rule file's last one is forced, no chance node
                    s.apply_action(card[a])
                ref.apply_action(a)
                continue
            _same(ref, ref_game, s, game, where)
            p = ref.current_player()
            a = model(ref.information_state_tensor(p), ref.legal_actions()) if seed % 2 else \
                rng.choice(ref.legal_actions())
            assert model(s.information_state_tensor(p), s.legal_actions()) == \
                model(ref.information_state_tensor(p), ref.legal_actions()), where
            ref.apply_action(a)
            s.apply_action(a)
        _same(ref, ref_game, s, game, f"seed {seed}, the end")
        assert s.returns() == ref.returns()
    if HEARTS_GAMES >= 20:
        assert directions == {0, 1, 2, 3}


@pytest.mark.parametrize("rule_file", ["kuhn-poker", "leduc-poker", *[pytest.param(f, marks=pytest.mark.slow)
                                                                      for f in ("hearts", "crazy-eights", "spades")]])
def test_random_sim_test_with_the_declared_layout(rule_file: str) -> None:
    """OpenSpiel's own checks, serialising states and reading them back through the declared ids."""
    pyspiel.random_sim_test(cso.load(rule_file, layout="openspiel"), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("seed", range(8))
def test_permuting_hidden_cards_changes_no_declared_tensor(seed: int) -> None:
    from conftest import GAMES_DIR

    for rule_file, players in (("hearts.yaml", 4), ("leduc-poker.yaml", 2), ("kuhn-poker.yaml", 2),
                               ("crazy-eights.yaml", 5), ("spades.yaml", 4)):
        path = str(GAMES_DIR / rule_file)
        layout = layout_of(game_for(path, players))
        s = play_random(path, players, seed, random.Random(seed).randrange(1, 70))
        for p in range(players):
            if not hidden_places(s, p):
                continue
            t = permute_hidden(s, p, random.Random(seed + 1))
            t.seen = None  # nothing worked out for s carries over
            for tensor in ("observation", "information_state"):
                if layout.declares(tensor):
                    assert layout.tensor(s, p, tensor) == layout.tensor(t, p, tensor), (rule_file, p, tensor)


def test_a_game_without_the_section_has_no_openspiel_layout() -> None:
    with pytest.raises(GameError, match="declares no OpenSpiel layout"):
        cso.load("go-fish", 2, layout="openspiel")
    with pytest.raises(GameError, match="layout"):
        pyspiel.load_game("cardsmith", {"file": "kuhn-poker", "layout": "nonesuch"})
    with pytest.raises(GameError, match="runs on the Python backend"):
        pyspiel.load_game("cardsmith", {"file": "kuhn-poker", "layout": "openspiel", "backend": "native"})


PEEKING = """\
extends: kuhn-poker
game: Kuhn poker, peeking
openspiel:
  game: kuhn_poker
  actions: {check: 0, bet: 1, call: 1, fold: 0}
  num_actions: 2
  observation:
    - {cards: "hand[left(p)]", size: 3, name: other_card}
  information_state:
    - {moves: [check, bet, call, fold], bit: "first(hand[left(p)]).rank_index", size: 3, width: 3}
"""


def test_a_block_that_reads_a_hidden_hand_reads_arbitrary_cards(tmp_path: Any) -> None:
    """A layout written to peek at the other player's card gets the same tensor whatever that card is."""
    path = tmp_path / "peeking.yaml"
    path.write_text(PEEKING, encoding="utf-8")
    game = cso.load(str(path), layout="openspiel")
    for mine in range(3):
        seen: dict[str, set[tuple[Any, ...]]] = {"observation": set(), "information_state": set()}
        for other in range(3):
            if other == mine:
                continue
            s = game.new_initial_state()
            s.apply_action(mine)  # P0's card, then P1's
            s.apply_action(other)
            s.apply_action(1)  # P0 bets
            seen["observation"].add(tuple(s.observation_tensor(0)))
            seen["information_state"].add(tuple(s.information_state_tensor(0)))
        assert len(seen["observation"]) == 1 and len(seen["information_state"]) == 1, mine


def _variant(tmp_path: Any, section: str) -> Any:
    path = tmp_path / "variant.yaml"
    path.write_text("extends: kuhn-poker\ngame: Kuhn poker, another layout\n" + section, encoding="utf-8")
    return path


def test_mistakes_found_in_play_are_rule_errors_located_at_their_block(tmp_path: Any) -> None:
    from cardsmith.engine.errors import RuleError

    path = _variant(tmp_path, """\
openspiel:
  game: kuhn_poker
  actions: {check: 0, bet: 0, call: 1, fold: 0}
  num_actions: 2
  observation:
    - {one_hot: p, size: 1}
""")
    game = cso.load(str(path), layout="openspiel")
    s = game.new_initial_state()
    s.apply_action(0)
    s.apply_action(1)
    with pytest.raises(RuleError, match="two legal actions have the OpenSpiel id 0") as two:
        s.legal_actions()
    assert two.value.span is not None and two.value.span.line == 5
    assert s.observation_tensor(0) == [1.0]
    with pytest.raises(RuleError, match="wants a position from 0 to 0") as past:
        s.observation_tensor(1)
    assert past.value.span is not None and past.value.span.line == 8
    wrong = _variant(tmp_path, """\
openspiel:
  game: kuhn_poker
  actions: {check: 0, bet: 1, call: 1, fold: 2}
  num_actions: 2
""")
    with pytest.raises(RuleError, match="must be a whole number from 0 to 1"):
        cso.load(str(wrong), layout="openspiel")


CRAZY_EIGHTS_GAMES = int(os.environ.get("CRAZY_EIGHTS_LAYOUT_GAMES", "2"))


@pytest.mark.slow
def test_crazy_eights_has_openspiels_ids_and_observation_at_every_setting() -> None:
    """Crazy Eights in lockstep with pyspiel's crazy_eights (tests/test_crazy_eights_openspiel.py plays them), at
    its default parameters and every other setting that test plays (two packs, the special cards, reshuffles):
    at every decision the legal ids and every player's observation tensor are pyspiel's."""
    import test_crazy_eights_openspiel as c8

    checked = 0

    class Checked(c8.Both):  # type: ignore[misc]
        def decision(self) -> None:
            nonlocal checked
            layout = layout_of(self.g)
            where = self.where()
            assert layout.legal(self.s) == self.ref.legal_actions(), where
            for q in range(self.n):
                assert layout.tensor(self.s, q, "observation") == self.ref.observation_tensor(q), f"{where}, P{q}"
                checked += 1
            super().decision()

    for players, options in [(5, {}), *c8.SETTINGS]:
        g = c8.crazy_eights(players, options)
        m = c8.Mapping(g)
        ref_game = pyspiel.load_game("crazy_eights", {"players": players, **options})
        for seed in range(CRAZY_EIGHTS_GAMES):
            Checked(seed, g, m, ref_game, options).play()
    assert checked > 1000
    game = cso.load("crazy-eights", 5, layout="openspiel")
    ref = pyspiel.load_game("crazy_eights")
    assert game.num_distinct_actions() == ref.num_distinct_actions() == 58
    assert game.observation_tensor_shape() == ref.observation_tensor_shape()
    assert not game.get_type().provides_information_state_tensor


SPADES_GAMES = int(os.environ.get("SPADES_LAYOUT_GAMES", "20"))


@pytest.mark.slow
def test_spades_has_openspiels_ids_and_observation() -> None:
    """Spades in lockstep with pyspiel's spades (its deal as tests/test_spades_openspiel.py deals it): at every
    decision the legal ids and every player's observation tensor are pyspiel's. (At the end OpenSpiel writes its
    phase past the phase block, into the first bid's: nobody acts there.)"""
    from cardsmith.engine.state import State
    from conftest import GAMES_DIR
    from openspiel_cards import deal_card

    g = game_for(str(GAMES_DIR / "spades.yaml"), 4)
    layout = layout_of(g)
    ref_game = pyspiel.load_game("spades")
    assert layout.num_actions == ref_game.num_distinct_actions()
    assert [layout.size("observation")] == ref_game.observation_tensor_shape()
    card = dict(enumerate(layout.card_ids))
    checked = 0
    for seed in range(SPADES_GAMES):
        rng = random.Random(seed)
        ref, s = ref_game.new_initial_state(), State.initial(g, None)
        while not ref.is_terminal():
            where = f"seed {seed}, history {ref.history()}"
            if ref.is_chance_node():  # the rule file's shuffle forces its last card: OpenSpiel's node has one outcome
                ref.apply_action(deal_card(s, ref, card, rng, where) if s.is_chance_node() else
                                 ref.chance_outcomes()[0][0])
                continue
            assert s.current_player() == ref.current_player(), where
            assert layout.legal(s) == ref.legal_actions(), where
            for q in range(4):
                assert layout.tensor(s, q, "observation") == ref.observation_tensor(q), f"{where}, P{q}"
                checked += 1
            a = rng.choice(ref.legal_actions())
            s.apply_action(layout.to_cardsmith(s, a))
            ref.apply_action(a)
        assert s.is_terminal() and s.returns() == ref.returns()
    assert checked >= SPADES_GAMES * 4 * 56


def test_a_variant_that_adds_an_action_loads_without_the_layout(tmp_path: Any) -> None:
    """A variant of a game that declares a layout may add actions: it loads and plays as before, and only
    asking for the layout says which actions have no OpenSpiel id."""
    variant = tmp_path / "dead.yaml"
    variant.write_text("extends: kuhn-poker\ngame: Kuhn poker with a raise\n"
                       "new:\n  actions:\n    raise:\n      when: bettor != none and bettor == none\n"
                       "      effect:\n        - put[player] += 2\n"
                       "phases:\n  betting: {actions: [check, bet, call, fold, raise]}\n")
    game = cso.load(str(variant), 2)
    assert game.num_distinct_actions() > 0
    with pytest.raises(GameError, match="gives no id for the action 'raise'"):
        cso.load(str(variant), 2, layout="openspiel")
