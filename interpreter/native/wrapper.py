"""The native backend's state: the Python `State`'s public interface over a native state of the binding.

The native library answers what the hot loops ask: the player to act, legal actions, chance outcomes,
apply, returns, clone and the history; and what each player sees: the observation (view.h, read back by
views.py) and the information-state string (infostate.py). Everything else (tensors, serialization,
resampling, zones and variables by name, the views, and the engine's fields read by other modules) comes
from a Python *twin*: a Python-backend state of the same game at the same position,
built by replaying the native state's history (chance outcomes included), made when first asked for and
kept in step from then on (each later question replays only the entries since). So every answer is the
Python backend's own, exactly: the twin's, or made natively and checked against it (difftest.py).

A state made with a seed draws its chance natively exactly as the Python backend does (pyrandom.h), so its
twin is the Python state made with the same seed, given the same moves; its `history()` holds the player
actions only, as a seeded Python state's does.

A native refusal (an illegal action, a rule failing, the action limit) is asked of a copy of the twin, which
raises the Python backend's own error, word for word."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..engine.errors import GameError
from ..engine.fields import SLOTS
from ..engine.state import State
from .infostate import Carried, Known
from .infostate import information_state_string as native_infostate

if TYPE_CHECKING:
    from .backend import NativeGame


# Answered by the binding's own methods (loader.cc), with the Python backend's semantics: the hot loop calls
# them with no Python frame in between.
NATIVE = ("current_player", "is_terminal", "is_chance_node", "legal_actions", "apply_action", "chance_outcomes",
          "returns", "rewards", "history", "clone")


class NativeState:
    """A match on the native backend, with the interface of `cardsmith.State`. The class of its states is this
    one over the binding's `State` (`state_class`), which answers the names in NATIVE itself."""

    # The binding's fields and methods this class uses (loader.cc), for the type checker. The five fields are
    # the binding's (None and 0 until set), so that its `clone` copies them with no Python frame.
    if TYPE_CHECKING:
        _game: NativeGame
        _seed: int | None  # the seed it was made with (its twin is made with it)
        _twin: State | None  # the Python state at the same position, once asked for
        _synced: int  # entries of the native history the twin has been given
        _seen: Known | Carried | None  # what the players knew here or at a state before (native/infostate.py)

        def entries(self, start: int = 0) -> list[tuple[int, int]]: ...
        def entry_count(self) -> int: ...
        def current_player(self) -> int: ...
        def is_terminal(self) -> bool: ...
        def is_chance_node(self) -> bool: ...
        def legal_actions(self, player: int | None = None) -> list[int]: ...
        def apply_action(self, action: int) -> None: ...
        def chance_outcomes(self) -> list[tuple[int, float]]: ...
        def returns(self) -> list[float]: ...
        def rewards(self) -> list[float]: ...
        def history(self) -> list[int]: ...
        def clone(self) -> NativeState: ...  # with the fields above, the twin copied
        def observation_words(self, player: int) -> bytes | None: ...

    # ------------------------------------------------------------ made
    @classmethod
    def start(cls, game: NativeGame, seed: int | None, limit: int) -> NativeState:
        """A new match of `game` (a class of `state_class`): `seed` None for chance nodes, `limit` the actions."""
        return cls(game.native, seed, limit, game)  # type: ignore[call-arg]  # the binding's, which keeps both

    @property
    def game(self) -> NativeGame:
        return self._game

    @classmethod
    def initial(cls, game: Any, seed: int | None = None, log: bool = False, setup: Any = None,
                lazy: bool = True) -> Any:
        """As `State.initial`: a native state where the native backend plays it (a native game, no log, no setup,
        dealt lazily), else the Python backend's state."""
        if game.backend == "native" and not log and setup is None and lazy:
            return game.new_initial_state(seed)
        return State.initial(game, seed, log, setup, lazy)

    @classmethod
    def blank(cls, game: Any, seed: int | None, lazy: bool = False, setup: Any = None) -> State:
        """As `State.blank`: a state before the match starts, for a replay (the Python backend's)."""
        return State.blank(game, seed, lazy, setup)

    def full_history(self) -> list[tuple[int, int]]:
        """The history as (player, action) pairs, the player CHANCE (-1) for chance outcomes (none in a seeded
        state's, as in the Python backend's)."""
        return self.entries()

    def reseed(self, seed: int) -> None:
        """Not on the native backend yet (the resampler reseeds the Python states it makes): a GameError."""
        raise GameError("a native state cannot be reseeded yet: reseed its python_state()")

    # ------------------------------------------------------------ the twin
    def python_state(self) -> State:
        """The Python backend's state at this position (a copy: changing it leaves this state as it is)."""
        return self._py().clone()

    def _py(self) -> State:
        """The twin, made or brought up to date by replaying the native history since it was last asked for."""
        t = self._twin
        if t is None:
            t = self._twin = State.initial(self.game, self._seed)  # the same seed draws the same chance
            self._synced = 0
        size = self.entry_count()
        if self._synced < size:
            for _who, what in self.entries(self._synced):
                t.apply_action(what)
            self._synced = size
        return t

    def _refused_apply(self, action: Any, message: str) -> None:
        """The binding refused an action: the Python backend raises its own error for it (on a copy of the twin)."""
        self._py().clone().apply_action(action)
        raise GameError(f"the native backend refused action {action!r} that the Python backend takes ({message}); "
                        f"please report it with the game and this history: {self.entries()!r}")

    def _refused_legal(self, player: int | None, message: str) -> list[int]:
        """No legal action natively (a player the rules leave stuck, a rule failing, or a seat asked about out
        of turn): the Python backend's answer, or its located error."""
        legal = self._py().clone().legal_actions(player)
        if not legal:  # a seat asked about out of turn: no actions on either backend
            return legal
        raise GameError(f"the native backend found no legal action where the Python backend finds {legal!r} "
                        f"({message}); please report it with the game and this history: {self.entries()!r}")

    # ------------------------------------------------------------ answered by the twin
    def chance_values(self) -> list[Any]:
        return self._py().chance_values()

    def action_to_string(self, player: int | None, action: int) -> str:
        return self._py().action_to_string(player, action)

    def action_from_string(self, text: str) -> int | None:
        return self._py().action_from_string(text)

    def observation(self, player: int) -> dict[str, Any]:
        """What `player` sees, from the native state (view.h); the Python backend's before the first step, for
        a seat that is no player (its error) or where a `visible` rule fails natively (its located error)."""
        obs = self._native_observation(player)
        return obs if obs is not None else self._py().observation(player)

    def observation_string(self, player: int) -> str:
        words = self._words(player)
        return self._game.views.text(words, player) if words is not None else \
            self._py().observation_string(player)

    def _native_observation(self, player: Any) -> dict[str, Any] | None:
        words = self._words(player)
        return None if words is None else self._game.views.observation(words, player)

    def _words(self, player: Any) -> memoryview | None:
        """The native observation's words (view.h), or None where the Python backend answers."""
        if type(player) is not int or not 0 <= player < self._game.n:
            return None
        try:
            words = self.observation_words(player)
        except RuntimeError:
            return None
        return None if words is None else memoryview(words)

    def information_state_string(self, player: int) -> str:
        """The Python backend's text, from the native observations (native/infostate.py); the Python backend's
        own where those are missing (before the first step, a `visible` rule failing) or `player` is no seat."""
        text = native_infostate(self, player)
        return text if text is not None else self._py().information_state_string(player)

    def observation_tensor(self, player: int) -> list[float]:
        return self._py().observation_tensor(player)

    def information_state_tensor(self, player: int) -> list[float]:
        return self._py().information_state_tensor(player)

    def serialize(self) -> str:
        """The Python backend's text of this position: a seeded native state is written with its chance
        outcomes (its seed would deal otherwise on the Python backend)."""
        return self._py().serialize()

    def _resample_with_work(self, player: int, rng: Any, until: float | None = None) -> tuple[State, int]:
        """engine/resample `resample_with_work` of this state: natively (resample.py: the Python resampler's state,
        steps and errors), or by the Python one on the twin at a chance node or where the native one does not
        take the game. A bot's seat calls it (bots/view.py), which imports nothing of the native backend."""
        if not self.is_chance_node():
            from . import resample
            try:
                return resample.resample_with_work(self, player, rng, until)
            except (resample.Unavailable, RuntimeError):
                pass  # (nothing drawn yet: the Python resampler draws the same numbers)
        from ..engine.resample import resample_with_work
        return resample_with_work(self._py(), player, rng, until)

    def _carry_with_work(self, player: int, rng: Any, hint: State) -> tuple[State | None, int]:
        """engine/resample `carry_with_work` of this state, natively as `_resample_with_work`."""
        if not self.is_chance_node():
            from . import resample
            try:
                return resample.carry_with_work(self, player, rng, hint)
            except (resample.Unavailable, RuntimeError):
                pass
        from ..engine.resample import carry_with_work
        return carry_with_work(self._py(), player, rng, hint)

    def _ismcts(self, player: int, rng: Any, **plan: Any) -> Any:
        """One `ismcts` decision for `player` natively (native/ismcts.py `decide`: the Python bot's loop, its worlds
        and iterations in the binding), or None where the bot searches in Python. A bot's seat calls it."""
        from . import ismcts
        return ismcts.decide(self, player, rng, **plan)

    def resample_from_infostate(self, player: int, rng: Any) -> State:
        """A state `player` cannot tell from this one, a Python state: found by the native resampler (the Python
        backend's state, steps and errors: resample.py), or by the Python one on the twin at a chance node or
        where the native one does not take the game."""
        if self.is_chance_node():
            return self._py().resample_from_infostate(player, rng)
        return self._resample_with_work(player, rng)[0]

    def zone(self, name: str, player: int | None = None) -> list[str]:
        return self._py().zone(name, player)

    def zone_cards(self, name: str, player: int | None = None) -> list[int]:
        return self._py().zone_cards(name, player)

    def var(self, name: str, player: int | None = None) -> Any:
        return self._py().var(name, player)

    def _evaluating(self, fn: Any, *args: Any) -> Any:
        """fn(twin, *args) as the Python state runs it (its `visible` rules' failures located): what the adapters
        call to write a tensor in place (openspiel.py, pettingzoo.py)."""
        return self._py()._evaluating(fn, *args)

    def evaluating_as(self, seat: int, fn: Any, *args: Any) -> Any:
        return self._py().evaluating_as(seat, fn, *args)

    def reading_copy(self) -> State:
        return self._py().reading_copy()

    def seeded_copy(self, seed: int) -> State:
        return self._py().seeded_copy(seed)

    def carried_copy(self) -> State:
        return self._py().carried_copy()

    def cards_moved(self) -> None:
        self._py().cards_moved()

    def remember(self, key: Any, value: Any) -> None:
        self._py().remember(key, value)

    def n_active(self) -> int:
        return self._py().n_active()

    def where(self) -> str:
        return self._py().where()

    def public_view(self) -> str:
        return self._py().public_view()

    def designer_view(self) -> str:
        return self._py().designer_view()

    def __str__(self) -> str:
        return str(self._py())


def _field(name: str) -> property:
    def get(self: NativeState) -> Any:
        return getattr(self._py(), name)
    get.__doc__ = f"The engine's field `{name}`, read from the Python twin (read only)."
    return property(get)


# The engine's fields (engine/fields.py), which other modules read (the phase, the winners, the log...): each
# a read-only property from the twin, named one by one from the field table.
for _name in SLOTS:
    if _name != "game":
        setattr(NativeState, _name, _field(_name))


def state_class(binding: Any) -> type[NativeState]:
    """The class of the native states of a binding module: NativeState over its `State` (made once a module)."""
    cls: type[NativeState] | None = getattr(binding, "cardsmith_state", None)
    if cls is None:
        made = {"__module__": __name__, "__doc__": NativeState.__doc__}
        cls = type("NativeState", (NativeState, binding.State), made)
        binding.cardsmith_state = cls
    return cls
