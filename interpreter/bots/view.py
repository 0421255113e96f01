"""What one seat may know of a state: the only thing a bot is given.

A bot that held the real `State` could read every hand. `SeatView` holds it privately and offers what the
seat may know: its legal actions when it is to act, its observation and information state, and
`resample(rng)`, a full state drawn from that information alone (the engine's `resample_from_infostate`,
which reads nothing of the real history that the seat did not perceive). So a search bot plays its own
determinizations, never the real deal.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.state import State


# Whether a native state is resampled natively, and whether an `ismcts` decision on it runs natively as a whole
# (benchmarks/native_search.py and benchmarks/ismcts.py turn them off to compare).
NATIVE_RESAMPLE = True
NATIVE_SEARCH = True


class SeatView:
    __slots__ = ("_state", "seat")

    def __init__(self, state: State, seat: int) -> None:
        self._state = state
        self.seat = seat

    @property
    def game(self) -> Game:
        return self._state.game

    def to_act(self) -> bool:
        """Whether this seat is the one to act (a bot is asked only then)."""
        s = self._state
        return not s.is_terminal() and not s.is_chance_node() and s.current_player() == self.seat

    def legal_actions(self) -> list[int]:
        """The seat's legal actions: known to it, since it is to act (empty when it is not)."""
        return self._state.legal_actions(self.seat) if self.to_act() else []

    def action_to_string(self, action: int) -> str:
        return self._state.game.action_to_string(self.seat, action)

    def observation(self) -> dict[str, Any]:
        return self._state.observation(self.seat)

    def observation_string(self) -> str:
        return self._state.observation_string(self.seat)

    def information_state_string(self) -> str:
        return self._state.information_state_string(self.seat)

    def resample(self, rng: random.Random | int) -> State:
        """A full state this seat cannot tell from the real one, drawn with `rng` (a new one each call)."""
        return self._state.resample_from_infostate(self.seat, rng)

    def _engine(self) -> State:
        """The state the engine's own functions read (resampling, masking): a native state's Python twin, the
        Python backend's state at the same position (so a search draws the same worlds on both backends)."""
        s = self._state
        twin = getattr(s, "python_state", None)
        return twin() if twin is not None else s

    def masked(self, rng: random.Random) -> State:
        """A copy of the state to read, not to play on: what this seat sees as it is, the rest arbitrary
        (the hidden cards dealt out again at random among the hidden places; engine/masked.py)."""
        from ..engine.masked import masked
        return masked(self._engine(), self.seat, rng)

    def resample_with_work(self, rng: random.Random | int, until: float | None = None) -> tuple[State, int]:
        """`resample(rng)` and the steps the resampler replayed to find it; `until`, a `time.monotonic()`
        deadline past which it stops (`OutOfTime`, a GameError). A native state resamples itself, natively
        where it can (the same state, steps and errors as the Python resampler on its twin)."""
        from ..engine.resample import resample_with_work
        native = getattr(self._state, "_resample_with_work", None) if NATIVE_RESAMPLE else None
        if native is not None:  # (a native state: wrapper.py)
            return native(self.seat, rng, until)  # type: ignore[no-any-return]
        return resample_with_work(self._engine(), self.seat, rng, until)

    def search_natively(self, rng: random.Random, **plan: Any) -> Any:
        """A whole `ismcts` decision for this seat where its state runs it natively (native/ismcts.py `decide`, with
        the bot's settings by name): what it found, or None where the bot is to search itself (`rng` untouched)."""
        native = getattr(self._state, "_ismcts", None) if NATIVE_SEARCH and NATIVE_RESAMPLE else None
        return None if native is None else native(self.seat, rng, **plan)

    def carry_with_work(self, rng: random.Random | int, hint: State) -> tuple[State | None, int]:
        """A state like `resample`'s, found by extending `hint`, a state `resample` gave this seat earlier in
        the match (cheap where a fresh one is dear); None if that fails. And the steps replayed. Natively for a
        native state, as `resample_with_work`."""
        from ..engine.resample import carry_with_work
        native = getattr(self._state, "_carry_with_work", None) if NATIVE_RESAMPLE else None
        if native is not None:
            return native(self.seat, rng, hint)  # type: ignore[no-any-return]
        return carry_with_work(self._engine(), self.seat, rng, hint)
