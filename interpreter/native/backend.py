"""The switch between the backends: `cardsmith.load(..., backend=...)` and the commands' `--backend`.

- "python": the Python backend, the reference (the default until the native state answers the whole state
  API natively).
- "native": the rule file lowered, compiled (cached) and loaded; `NativeUnavailable` when it cannot be
  (no compiler, no pybind11, a construct the lowering does not cover, a build past its limits), one line.
- "auto": native where it can be built, else the Python backend, saying why in one line: a
  `NativeFallback` warning, and the game's `backend_note`.

A `NativeGame` is a Python `Game` (every attribute and method of one, from the same compiled rule file) whose
`new_initial_state` makes native states (wrapper.py)."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from ..dsl.diagnostics import Span
from ..dsl.limits import Limits
from ..dsl.pipeline import compile_file
from ..engine.backends import BACKENDS
from ..engine.errors import GameError
from ..engine.game import Game
from ..engine.history import RESEED, entries
from ..engine.setup import Setup
from ..engine.state import State
from .build import DEFAULT_BUILD_LIMITS, BuildError, BuildLimits, game_library, loader
from .lower import Unsupported, lower
from .position import Layout
from .views import Reader
from .wrapper import state_class


class NativeUnavailable(GameError):
    """The native backend cannot run this game here; the message says why, in one line. `span`: where the rule
    file writes the construct the native backend does not cover, where known (else None)."""

    def __init__(self, name: str, reason: str, span: Span | None = None) -> None:
        super().__init__(f"{name} cannot run on the native backend: {reason}")
        self.name = name
        self.reason = reason
        self.span = span


class NativeFallback(UserWarning):
    """backend="auto" runs a game on the Python backend; the message says why, in one line."""


def check_backend(backend: str) -> None:
    if backend not in BACKENDS:
        raise GameError(f"backend must be 'python', 'native' or 'auto', not {str(backend)[:40]!r}")


class NativeGame(Game):
    """A game on the native backend: the Python `Game` of the same rule file, whose states are native."""

    backend = "native"
    native: Any  # the binding's Game: `random_playouts(games, seed)` is the native loop
    native_library: str  # the path of the compiled library, in the cache folder
    state_class: Any  # the class of its states: wrapper.NativeState over the binding's State
    views: Reader  # what the native observation's words mean (views.py)
    position_layout: Layout  # what the words of its positions hold (position.py)

    def new_initial_state(self, seed: int | None = None, setup: Setup | None = None) -> Any:
        """A new match on the native backend. With a `setup` (a position to start from), the Python backend's
        state: the native backend does not take setups yet."""
        if setup is not None:
            return State.initial(self, seed, setup=setup)
        try:
            s = self.state_class.start(self, seed, self.action_limit)
        except (TypeError, ValueError) as e:  # a seed the binding cannot pass (2**256 or more)
            raise GameError(str(e)) from None
        except RuntimeError as e:
            State.initial(self, seed)  # the rules fail at the start: the Python backend's error says where
            raise GameError(f"the native backend failed to start a match ({e}); please report it") from None
        return s

    def deserialize_state(self, text: str) -> Any:
        """The state `serialize` wrote: native when the native backend can play it again (a seed, or a state
        without one that deals lazily; no setup, never reseeded), else the Python backend's."""
        p = Game.deserialize_state(self, text)
        if p.setup is not None or (p.seed0 is None and p.unfixed is None) or \
                any(who == RESEED for who, _ in entries(p.trail)):
            return p
        s = self.new_initial_state(p.seed0)
        for _who, what in p.full_history():
            s.apply_action(what)
        return s


def _reason(e: BaseException) -> str:
    if isinstance(e, Unsupported):
        return f"it does not cover {e} yet"
    if isinstance(e, BuildError):
        return str(e)
    # A construct the lowering half knows, or a library that will not load: refused, never run half understood.
    return f"the native backend failed on it ({type(e).__name__}: {str(e)[:200]})"


def native_game(path: Any, compiled: Any, players: int, options: dict[str, Any], limits: Limits,
                build_limits: BuildLimits = DEFAULT_BUILD_LIMITS,
                on_build: Callable[[str], None] | None = None) -> NativeGame:
    """The native game of a compiled rule file (`compiled`, read from `path` within `limits`), or
    NativeUnavailable saying why not. A bad player count or option raises as on the Python backend.
    `on_build(what)`: told before anything is compiled (build.py)."""
    name = compiled.spec.name
    game = NativeGame.__new__(NativeGame)
    Game.__init__(game, compiled, players, options)  # checks the players and options first
    plain = compile_file(path, limits, optimize=False)  # the optimizer's inlined bodies are Python-only
    try:
        if plain.game is None:
            raise BuildError("the rule file did not compile without the optimizer")
        prog = lower(Game(plain.game, players, dict(options)))
        so, _ = game_library(prog, limits=build_limits, what="its library", on_build=on_build)
        binding = loader(limits=build_limits, on_build=on_build)
        native = binding.Game(str(so))
    except Exception as e:  # noqa: BLE001 (Unsupported, BuildError, or a construct the lowering half knows)
        raise NativeUnavailable(name, _reason(e), e.span if isinstance(e, Unsupported) else None) from None
    game.native = native
    game.native_library = str(so)
    game.views = Reader(game, prog.strings)
    game.position_layout = Layout.of(game, prog.views, prog.strings)
    game.state_class = state_class(binding)
    return game


def load_backend(path: Any, compiled: Any, players: int, options: dict[str, Any], limits: Limits,
                 backend: str, build_limits: BuildLimits = DEFAULT_BUILD_LIMITS,
                 on_build: Callable[[str], None] | None = None) -> Game:
    """The game on the backend asked for ("native" or "auto"; "python" needs no module of this folder)."""
    check_backend(backend)
    if backend == "python":
        return Game(compiled, players, options)
    try:
        return native_game(path, compiled, players, options, limits, build_limits, on_build)
    except NativeUnavailable as e:
        if backend == "native":
            raise
        g = Game(compiled, players, options)
        g.backend_note = f"{e.name} runs on the Python backend: {e.reason}"
        warnings.warn(g.backend_note, NativeFallback, stacklevel=3)
        return g
