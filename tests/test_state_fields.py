"""The field table of a State (engine/fields.py): the one place a field is declared, from which `__slots__`,
`clone`, a step's return to the state before it, and the new states of `State.initial` and `State.blank` are
made. A field added to the table and not to State's annotations (or the other way round) fails here, and so
does a clone that shares what it should copy."""

from __future__ import annotations

import random
from typing import Any

import pytest
from cardsmith.engine import fields
from cardsmith.engine.fields import COPY_TEXT, FIELDS, SLOTS
from cardsmith.engine.state import State
from conftest import GAMES_DIR, ROOT, game_for

SERIALS = {fields.GAME, fields.SEED, fields.SETUP, fields.HISTORY, fields.REPLAYED, fields.NOT_KEPT}


def test_the_table_is_the_states_slots_and_annotations() -> None:
    assert State.__slots__ == SLOTS
    assert len(set(SLOTS)) == len(SLOTS)
    assert set(State.__annotations__) == set(SLOTS), "a field is in fields.FIELDS and State's annotations alike"


def test_every_field_says_how_it_is_copied_serialized_and_made() -> None:
    for f in FIELDS:
        assert f.copy in COPY_TEXT, f.name
        assert f.serial in SERIALS, f.name
        assert f.initial, f.name
        assert (ROOT / "interpreter" / "engine" / f"{f.owner}.py").is_file() or \
            (ROOT / "interpreter" / "engine" / f.owner).is_dir(), f.name


HEARTS = str(GAMES_DIR / "hearts.yaml")


def _mid_match(players: int, seed: int | None, steps: int) -> State:
    g = game_for(HEARTS, players)
    s = g.new_initial_state(seed)
    r = random.Random(1)
    for _ in range(steps):
        if s.is_terminal():
            break
        s.apply_action(r.choice(s.legal_actions()))
    return s


def _value(s: State, name: str) -> Any:
    return getattr(s, name)


@pytest.mark.parametrize("seed", [7, None])
def test_a_clone_copies_each_field_as_the_table_says(seed: int | None) -> None:
    s = _mid_match(4, seed, 9)
    s.information_state_string(0)  # fills the cache of what players saw
    t = s.clone()
    for f in FIELDS:
        a, b = _value(s, f.name), _value(t, f.name)
        if f.copy == fields.DROPPED:
            assert b is None, f.name
        elif f.copy == fields.SHARED:
            assert b is a, f.name
        elif a is None:
            assert b is None, f.name
        elif f.copy == fields.MAYBE_COPY:
            assert type(b) is type(a) and b is not a, f.name
        else:
            assert b == a and b is not a, f.name
            if f.copy == fields.NESTED:
                assert all(x is not y for x, y in zip(a, b)), f.name


def test_a_clone_is_independent_of_its_original() -> None:
    s = _mid_match(4, 3, 5)
    before = s.serialize(), [z[:] for z in s.z], s.v[:], s.loc[:]
    t = s.clone()
    while not t.is_terminal():
        t.apply_action(t.legal_actions()[0])
    assert (s.serialize(), s.z, s.v, s.loc) == before


@pytest.mark.parametrize("lazy", [False, True])
def test_blank_and_initial_set_every_field(lazy: bool) -> None:
    g = game_for(HEARTS, 4)
    for s in (State.blank(g, None, lazy), State.blank(g, 5), State.initial(g, 5, log=True),
              State.initial(g, None, lazy=lazy)):
        assert all(hasattr(s, name) for name in SLOTS)
    assert State.blank(g, None, lazy).unfixed == ({} if lazy else None)
    assert State.blank(g, 5, True).unfixed is None  # a seeded state decides every order when it shuffles


def _same(f: fields.Field, a: Any, b: Any) -> bool:
    if f.name == "pending":
        return (a is None) == (b is None) and (a is None or (a.options, a.kind) == (b.options, b.kind))
    if f.name == "ended":
        return (a is None) == (b is None) and (a is None or (a.deal, a.state.z) == (b.deal, b.state.z))
    return bool(a == b)


@pytest.mark.parametrize(("seed", "lazy"), [(7, True), (None, True), (None, False)])
def test_serializing_keeps_every_field_the_table_says_it_keeps(seed: int | None, lazy: bool) -> None:
    g = game_for(str(GAMES_DIR / "cribbage.yaml"), 2)  # deals end early in a match: `ended` is kept too
    r = random.Random(2)
    s = State.initial(g, seed, lazy=lazy)
    ended = 0  # the steps since a deal ended
    for _ in range(400):
        if s.is_terminal() or ended > 5:
            break
        s.apply_action(r.choice(s.legal_actions()))
        t = g.deserialize_state(s.serialize())
        for f in FIELDS:
            if f.serial != fields.NOT_KEPT:
                assert _same(f, getattr(s, f.name), getattr(t, f.name)), f.name
        ended += s.ended is not None
    assert ended
