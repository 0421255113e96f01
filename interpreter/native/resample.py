"""The native resampler, stage A (docs/design/native.md, "The resampler natively"): step 1 (`Info`), the
constraint layer's `assign` and the backtracking `Search` of `engine/resample/` run in the binding
(`rs_info.h`, `rs_match.h`, `rs_search.h`), on a game's library through its primitives (abi.h), with the
same random numbers: for the same state, player and generator they give what the Python code gives.

What the binding needs of a game is worked out here once per game (`tables`): per action its kind, its
public class (one per public text, so that texts are compared as numbers), whether the player sees it in full
and its parameters; per variable of an observation its shape and whether its items are cards. The Python
generator's state goes to the binding and comes back (`getstate`/`setstate`), so the Python code that draws
after a native search draws what it would have drawn after the Python one."""

from __future__ import annotations

import importlib
import random
from typing import Any

from ..dsl import types as T
from ..engine import resample as R
from ..engine.errors import GameError
from ..engine.history import blank, entries, explicit, groups, mark, play_group
from ..engine.resample.matching import NoDeal
from ..engine.state import State

# Steps of a history as the native search gives them: (the action, None for the match's start; its outcomes)
Steps = list[tuple[int | None, list[int]]]
# carry.py, the module (its bounds read at each call: `carry` names the package's function)
carry_mod = importlib.import_module("..engine.resample.carry", __package__)
MAX_ACTIONS = 1_000_000  # a game with more action ids gets no tables (their cost grows with the ids)


def _binding(game: Any) -> Any:
    return game.binding


class Unavailable(Exception):
    """The native resampler does not take this game (the Python one does)."""


def tables(game: Any) -> Any:
    """The binding's `Tables` of a native game, made once and kept on the game."""
    made = getattr(game, "_rs_tables", None)
    if made is not None:
        return made
    if game.num_actions > MAX_ACTIONS:
        raise Unavailable(f"the native resampler takes games of at most {MAX_ACTIONS:,} action ids")
    t = _binding(game).Tables()
    t.n, t.nc, t.nz = game.n, game.num_cards, len(game.zone_names)
    t.zone_owner = [-1 if o is None else o for o in game.zone_owner]
    names = {n: c for c, n in enumerate(game.card_names)}  # the last card of a name, as info.py's
    t.canon = [names[n] for n in game.card_names]
    classes: dict[str, int] = {}
    values: dict[tuple[str, Any], int] = {}
    kind, klass, pub, listy, poff, params = [], [], [], [], [0], []
    for a in range(game.num_actions):
        info = game.action_for(a)
        text = game.public_action_string(a)
        kind.append(info.index)
        klass.append(classes.setdefault(text, len(classes)))
        pub.append(text == game.action_to_string(None, a))
        listy.append(any(p.kind == "cards" for p in info.params))
        for prm, v in zip(info.params, info.decode(a - info.offset)):
            if prm.kind == "card":
                params += [1, 1, v]
            elif prm.kind == "cards":
                params += [2, len(v), *v]
            elif prm.kind == "player":
                params += [3, 1, v]
            else:
                params += [0, 1, values.setdefault((prm.kind, v), len(values))]
        poff.append(len(params))
    t.kind, t.klass, t.pub, t.listy, t.poff, t.params = kind, klass, pub, listy, poff, params
    shapes, cards = [], []
    for _name, ty in game.views.variables:
        item = ty
        if T.is_list(ty):
            shape, item = (3, ty.item.item) if T.is_list(ty.item) else (2, ty.item)
        else:
            shape = 1 if ty == T.NUM else 0
        shapes.append(shape)
        cards.append(1 if item == T.CARD else 2 if item in T.TEXTUAL and shape != 1 else 0)
    t.var_shape, t.var_card = shapes, cards
    t.text_card = [names.get(s, -1) for s in game.views.strings]
    game._rs_tables = t
    return t


def info(s: Any, p: int) -> Any:
    """Step 1 natively (info.py `Info`) for a native state that is not at a chance node: the binding's `Info`
    (`who`, `known`, `text` as public classes, `views` as observation words, `seen_at`, `acted_at`)."""
    game = s.game
    return _binding(game).Info(s, p, tables(game))


def _words(rng: random.Random) -> tuple[Any, list[int]]:
    state = rng.getstate()
    return state, list(state[1])


KINDS = ("search", "descent", "deals")  # search.py Search, descent.py Descent, constraints.py Deals


def search(game: Any, info: Any, rng: random.Random, budget: int,
           kind: str = "search") -> tuple[Steps | None, int, int, int | None]:
    """`Search(info, p, rng, budget).run()` natively, `kind` saying which of KINDS: the history found (or None),
    the steps replayed, the most steps that fitted at once (`reached`) and, for Deals, the last card a deal
    had no place for (`stuck`, else None); `rng` goes on as after the Python search."""
    state, words = _words(rng)
    found, work, reached, after, stuck = _binding(game).search(info, words, budget, KINDS.index(kind))
    rng.setstate((state[0], tuple(after), state[2]))
    return found, work, reached, stuck


def _start(s: Any, p: Any, rng: Any) -> random.Random:
    """resample/__init__.py `_start`'s checks, word for word; the generator."""
    g = s.game
    if type(p) is not int or not 0 <= p < g.n:
        raise GameError(f"no player {p!r}: the seats are 0 to {g.n - 1}")
    if isinstance(rng, random.Random):
        if type(rng) is not random.Random:  # (a subclass may draw otherwise: SystemRandom has no state to take)
            raise Unavailable("the native resampler draws as random.Random itself")
        return rng
    if type(rng) is int:
        return random.Random(rng)
    raise GameError(f"resampling takes a random.Random or a whole number as its seed, not {type(rng).__name__}")


def replayed(game: Any, found: Steps) -> State:
    """The history found, replayed as a Python state (not yet reseeded or marked)."""
    t = blank(game, None)
    for action, outcomes in found:
        play_group(t, action, outcomes)
    return t


def _finish(s: Any, found: Steps, r: random.Random) -> State:
    """The history found, replayed as a Python state, finished as resample/__init__.py `_finish` does: a seeded
    state's result draws its future chance from a new seed of the generator; a lazy one's deals lazily from
    the real state's undecided blocks."""
    t = replayed(s.game, found)
    if s.seed() is not None:
        t.reseed(r.getrandbits(64))
    else:
        mark(t, tuple(sorted(_binding(s.game).unfixed(s))))
    return t


def resample_with_work(s: Any, p: Any, rng: Any, until: float | None = None) -> tuple[State, int]:
    """`resample_with_work` (engine/resample) natively for a native state: the same state (a Python-backend
    state, as the Python resampler gives: its history replayed from the one the native search found, then
    reseeded or marked to deal lazily as `_finish` does), the same replayed steps, the same errors word for word;
    `rng` (a random.Random or a whole number) goes on as after the Python resampler. A state at a chance node
    raises RuntimeError (the Python resampler takes it)."""
    g = s.game
    r = _start(s, p, rng)
    known = info(s, p)
    state, words = _words(r)
    bounds = [R.MAX_TRIES, R.MAX_WORK, R.RESTARTS, R.MORE_RESTARTS, R.PER_STEP, R.SCOUT, R.DEALS]
    found, work, stuck, late, after = _binding(g).resample(known, words, bounds, -1.0 if until is None else until)
    r.setstate((state[0], tuple(after), state[2]))
    if late:
        raise R.OutOfTime(f"stopped at its time limit after {work:,} replayed steps, before it found a state "
                          f"{g.player_name(p)} cannot tell from this one")
    if found is None:
        raise GameError(R.not_found(g, p, work, stuck))
    return _finish(s, found, r), work


def hint_steps(hint: Any) -> list[tuple[int | None, int | None, list[int]]]:
    """A hint's steps as the native carry takes them, (who, action, outcomes) each (search.py `seed` reads them
    so): a world the native search kept has them already (`Kept`), a Python state from its history."""
    steps = getattr(hint, "steps", None)
    if steps is not None:
        return steps  # type: ignore[no-any-return]
    return [(who, action, outcomes) for who, action, outcomes, _ in groups(explicit(entries(hint.trail)))]


class Kept:
    """A world the native ISMCTS search kept for its bot's next decision to carry forward (native/ismcts.py): its
    steps as the native search found them, and made a Python state (the resampler's, replayed and reseeded) only
    where something reads its history (`trail`): the bot's own loop, where the next decision is not native."""

    __slots__ = ("game", "steps", "seed", "_state")

    def __init__(self, game: Any, steps: list[tuple[int | None, int | None, list[int]]], seed: int) -> None:
        self.game = game
        self.steps = steps
        self.seed = seed
        self._state: State | None = None

    def state(self) -> State:
        if self._state is None:
            self._state = replayed(self.game, [(action, outcomes) for _, action, outcomes in self.steps])
            self._state.reseed(self.seed)
        return self._state

    @property
    def trail(self) -> Any:
        return self.state().trail


def carry_with_work(s: Any, p: Any, rng: Any, hint: State) -> tuple[State | None, int]:
    """`carry_with_work` (engine/resample) natively for a native state: extending `hint`, a state the resampler
    found for the same player earlier in the match; the same state or None, and steps, as the Python one."""
    r = _start(s, p, rng)
    known = info(s, p)
    if hint.game is not s.game:
        return None, 0
    steps = hint_steps(hint)
    state, words = _words(r)
    found, work, after = _binding(s.game).carry(known, words, steps, carry_mod.CARRY_WORK, carry_mod.MAX_SEED)
    r.setstate((state[0], tuple(after), state[2]))
    return (None if found is None else _finish(s, found, r)), work


def assign(game: Any, domains: dict[int, set[int]], rng: random.Random,
           keep: dict[int, int] | None = None) -> dict[int, int]:
    """matching.py `assign` natively: the same deal from the same random numbers; NoDeal as there."""
    state, words = _words(rng)
    cards = list(domains)
    found, failed, after = _binding(game).assign(cards, [sorted(domains[c]) for c in cards], words, keep)
    rng.setstate((state[0], tuple(after), state[2]))
    if found is None:
        raise NoDeal(failed)
    return dict(found)


__all__ = ["KINDS", "Kept", "Unavailable", "assign", "carry_with_work", "hint_steps", "info", "replayed",
           "resample_with_work", "search", "tables"]
