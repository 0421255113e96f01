"""Position transfer (`cardsmith.native.position`, position.h): a Python state's position as words, read into a
native state and written back by it. Every field of the Python `State` is carried or said why not; a carried
position is the native state's own, word for word, and the match goes on from it as on the Python backend
(seeded, and dealt lazily with chance outcomes given); what does not fit is refused in one line, the native
state left as it was. The tests that build are slow (the inner loop builds nothing)."""

from __future__ import annotations

import random
import shutil
import struct
from typing import Any

import cardsmith
import pytest
from cardsmith.dsl import types as T
from cardsmith.engine.errors import GameError
from cardsmith.engine.fields import SLOTS
from cardsmith.engine.state import State
from cardsmith.native.build import program
from cardsmith.native.position import CARRIED, SCALARS, Layout, PositionError, native_at, position
from conftest import TESTS

MELDS = str(TESTS / "games" / "melds.yaml")


def test_every_field_of_the_state_is_carried_or_said_why_not() -> None:
    assert set(CARRIED) == set(SLOTS)
    assert {name for name, _ in SCALARS} <= set(SLOTS)


def _layout(name: str, n: int) -> tuple[Any, Layout]:
    prog = program(name, n)
    game = cardsmith.load(name, players=n)
    return game, Layout.of(game, prog.views, prog.strings)


@pytest.mark.parametrize(("name", "n"), [("kuhn-poker", 2), ("thirty-one", 3), (MELDS, 2)])
def test_the_words_of_a_python_state_cut_into_its_named_parts(name: str, n: int) -> None:
    game, lay = _layout(name, n)
    s = State.initial(game, 5)
    rng = random.Random(5)
    while not s.is_terminal():
        words = lay.words(s)
        parts = lay.sections(words)
        assert [p for p, _ in parts][:len(SCALARS)] == [p for p, _ in SCALARS]
        assert "the rest" not in dict(parts) and sum(len(x) for _, x in parts) == len(words)
        assert dict(parts)["phase"] == (s.phase,) and dict(parts)["deal_no"] == (s.deal_no,)
        s.apply_action(rng.choice(s.legal_actions()))
    assert lay.difference(lay.words(s), lay.words(s)) is None


def test_a_half_drawn_chance_step_has_no_position() -> None:
    game, lay = _layout("kuhn-poker", 2)
    s = State.initial(game)  # no seed: the deal's cards are chance nodes
    assert s.is_chance_node()
    with pytest.raises(PositionError) as e:
        lay.words(s)
    assert str(e.value) == ("a chance step is half drawn (its outcomes are being given): a position is carried "
                            "only between steps")


def test_a_state_given_its_chance_outcome_by_outcome_is_refused() -> None:
    game, lay = _layout("kuhn-poker", 2)
    s = State.initial(game, lazy=False)
    s.apply_action(s.legal_actions()[0])
    while s.is_chance_node():
        s.apply_action(s.legal_actions()[0])
    with pytest.raises(PositionError) as e:
        lay.words(s)
    assert str(e.value) == ("the state has no seed and deals no card lazily (its chance is given outcome by "
                            "outcome): the native backend deals with a seed or lazily")


def test_a_text_the_rules_never_write_is_refused() -> None:
    game, lay = _layout("euchre", 4)
    s = State.initial(game, 1)
    vi = next(i for i, (spec, _) in enumerate(game.var_specs) if spec.ty in T.TEXTUAL)
    s.v[vi] = "no such text"
    with pytest.raises(PositionError) as e:
        lay.words(s)
    assert str(e.value) == (f"variable '{game.var_names[vi]}' holds the text 'no such text', which the rules "
                            "never write, so the native backend has no number for it")


# ------------------------------------------------------------------ built
needs_build = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")


@pytest.fixture(scope="module")
def melds() -> Any:
    pytest.importorskip("pybind11")
    return cardsmith.load(MELDS, players=2, backend="native")


def _lockstep(s: State, t: Any, lay: Layout, rng: random.Random, steps: int) -> None:
    """Play on both (chance outcomes too), the whole position compared after every step."""
    for _ in range(steps):
        if s.is_terminal():
            break
        assert lay.difference(lay.words(s), position(t)) is None if not s.is_chance_node() else position(t) is None
        la = s.legal_actions()
        assert la == t.legal_actions()
        a = rng.choice(la)
        s.apply_action(a)
        t.apply_action(a)
    if not s.is_chance_node():
        assert lay.difference(lay.words(s), position(t)) is None
    assert s.returns() == t.returns()


@needs_build
@pytest.mark.slow
@pytest.mark.parametrize(("name", "n"), [("hearts", 4), ("thirty-one", 3), ("go-fish", 3), ("cribbage", 2),
                                          (MELDS, 2), ("euchre", 4)])
def test_a_carried_position_is_the_native_states_own_and_plays_on_alike(name: str, n: int) -> None:
    pytest.importorskip("pybind11")
    game = cardsmith.load(name, players=n, backend="native")
    lay = game.position_layout
    for seed in range(3):
        s = State.initial(game, seed)
        rng = random.Random(seed)
        k = 0
        while not s.is_terminal():
            if k % 7 == 0:  # every seventh position carried, and played on in lockstep for a while
                t = native_at(game, s)
                assert lay.difference(lay.words(s), position(t)) is None
                _lockstep(s.clone(), t, lay, random.Random(k), 25)
            s.apply_action(rng.choice(s.legal_actions()))
            k += 1


@needs_build
@pytest.mark.slow
@pytest.mark.parametrize(("name", "n", "stock"), [("hearts", 4, False), ("go-fish", 2, True), (MELDS, 2, True)])
def test_a_lazy_position_carries_its_undecided_cards(name: str, n: int, stock: bool) -> None:
    pytest.importorskip("pybind11")
    game = cardsmith.load(name, players=n, backend="native")
    lay = game.position_layout
    s = State.initial(game)
    rng = random.Random(3)
    carried = undecided = 0
    while not s.is_terminal() and carried < 12:
        if not s.is_chance_node():
            t = native_at(game, s)
            carried += 1
            undecided += any(x[-1] for part, x in lay.sections(lay.words(s)) if part.startswith("zone "))
            _lockstep(s.clone(), t, lay, random.Random(carried), 40)
        s.apply_action(rng.choice(s.legal_actions()))
    assert carried == 12
    assert bool(undecided) == stock  # a stock nobody sees keeps cards in no order yet (Hearts deals them all)


@needs_build
@pytest.mark.slow
def test_a_native_state_at_a_chance_node_has_no_position(melds: Any) -> None:
    t = melds.new_initial_state()
    assert t.is_chance_node() and t.position() is None


def _put(t: Any, words: list[int], moves: int = 0) -> None:
    t.set_position(struct.pack(f"<{len(words)}q", *words), moves)


@needs_build
@pytest.mark.slow
def test_what_does_not_fit_is_refused_in_one_line_and_the_state_kept(melds: Any) -> None:
    lay = melds.position_layout
    s = State.initial(melds, 2)
    t = native_at(melds, s)
    words = lay.words(s)
    before = position(t)
    said = "the position does not fit this game's native state: "
    cards = dict(lay.sections(words))
    zi = next(i for i, z in enumerate(lay.zones) if len(cards[f"zone {z}"]) > 3)
    at = sum(len(x) for name, x in lay.sections(words)[:[n for n, _ in lay.sections(words)].index(
        f"zone {lay.zones[zi]}")])
    twice = words[:]
    twice[at + 2] = twice[at + 1]
    too_long = s.clone()
    table = next(i for i, (_, k) in enumerate(lay.variables) if k == "L")
    too_long.v[table] = [[0]] * 257
    wrong_phase = words[:]
    wrong_phase[0] = len(melds.phases)
    cases = [
        (words[:-3], f"{said}it ends early ({len(words) - 3} words)"),
        ([*words, 0], f"{said}1 words more than it holds"),
        (twice, f"{said}card {twice[at + 1]} is in two places"),
        (wrong_phase, f"{said}phase is {len(melds.phases)}, not 0 to {len(melds.phases) - 1}"),
        (lay.words(too_long), f"{said}variable {table} holds 257 items; the native backend holds 256"),
    ]
    for bad, message in cases:
        with pytest.raises(GameError) as e:
            _put(t, bad)
        assert str(e.value) == message
        assert position(t) == before
    with pytest.raises(PositionError) as e:
        native_at(melds, too_long)
    assert str(e.value) == f"{said}variable '{lay.variables[table][0]}' holds 257 items; the native backend holds 256"


@needs_build
@pytest.mark.slow
def test_the_differential_test_compares_whole_positions() -> None:
    pytest.importorskip("pybind11")
    from cardsmith.native.difftest import run

    matches, nodes, err = run("go-fish", 2, {}, 4, seed=2, views_every=0, positions_every=1)
    assert err is None and matches == 4 and nodes > 100
