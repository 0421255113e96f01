"""Any rule file as an OpenSpiel game (`pyspiel`), for OpenSpiel's algorithms and tests.

    import pyspiel
    import cardsmith.openspiel  # registers the game "cardsmith"
    game = pyspiel.load_game("cardsmith", {"file": "my-game.yaml", "players": 3})

Parameters: `file` (a rule file's path or a bundled game's name), `players` (0: the rule file's fewest),
`options` (table options as `name:value` pairs joined by `;`, e.g. `"lives:2;variant:short"`) and `backend`
(`auto`, the default: the native backend where it can be built here, else the Python one with a one-line
`NativeFallback` warning, or $CARDSMITH_BACKEND where that is set; `native`; `python`) and `layout`
(`cardsmith`, the default: cardsmith's own action ids and tensors; `openspiel`: the ids and tensors of the
OpenSpiel game the rule file's `openspiel:` section declares, `cardsmith.engine.layout`, on the Python backend).
`cardsmith.openspiel.load(game, players, options, backend)` does the same from Python values.

The game is sequential, with explicit stochastic chance (every shuffle and `pick` is a chance node: the
state is made without a seed), imperfect information, terminal rewards; its utility type comes from the
rule file (zero-sum, constant-sum or general-sum). Strings come from the state's own
`observation_string` / `information_state_string`, tensors from `cardsmith.engine.tensors`. Needs the
`rl` extra (`pip install cardsmith[rl]`).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel

from . import rlspaces
from .api import load as _load_cardsmith
from .dsl.pipeline import compile_file
from .engine import tensors
from .engine.backends import default_backend
from .engine.bundled import exists, resolve
from .engine.errors import GameError
from .engine.game import Game
from .engine.layout import Layout, layout_of
from .engine.state import CHANCE, TERMINAL, State

SHORT_NAME = "cardsmith"
# No default game: the engine names none; `file` must be given (a rule file's path or a bundled game).
DEFAULT_PARAMS: dict[str, Any] = {"file": "", "players": 0, "options": "", "backend": "auto", "layout": "cardsmith"}
LAYOUTS = ("cardsmith", "openspiel")
# What the registered type promises for any rule file; each game's own type narrows the utility and counts.
_MAX_PLAYERS = 64
_INT_MAX = 2**31 - 1


def _game_type(utility: Any, min_players: int, max_players: int, short_name: str = SHORT_NAME,
               params: Mapping[str, Any] = DEFAULT_PARAMS, tensors: tuple[bool, bool] = (True, True)) -> Any:
    return pyspiel.GameType(
        short_name=short_name,
        long_name="cardsmith rule file",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=tensors[1],
        provides_observation_string=True,
        provides_observation_tensor=tensors[0],
        parameter_specification=dict(params),
    )


_GAME_TYPE = _game_type(pyspiel.GameType.Utility.GENERAL_SUM, 1, _MAX_PLAYERS)


def parse_options(text: str) -> dict[str, str]:
    """`"a:1;b:yes"` -> {"a": "1", "b": "yes"} (values as text, as on the command line)."""
    out: dict[str, str] = {}
    for part in text.split(";"):
        if not part.strip():
            continue
        name, sep, value = part.partition(":")
        if not sep:
            raise ValueError(f"option '{part}' must be written name:value")
        out[name.strip()] = value.strip()
    return out


def format_options(options: Mapping[str, Any]) -> str:
    def text(v: Any) -> str:
        return ("yes" if v else "no") if isinstance(v, bool) else str(v)
    return ";".join(f"{k}:{text(v)}" for k, v in options.items())


def _utility(g: Game) -> tuple[Any, float | None]:
    """The OpenSpiel utility type of a game and the sum of its returns (None when it varies)."""
    if getattr(g, "zero_sum", False):
        return pyspiel.GameType.Utility.ZERO_SUM, 0.0
    total = getattr(g, "utility_sum", None)
    if total is not None:
        return pyspiel.GameType.Utility.CONSTANT_SUM, float(total)
    return pyspiel.GameType.Utility.GENERAL_SUM, None


def _bound(g: Game, name: str, default: float) -> float:
    """A utility bound of the game: a rule file's `returns` may leave one open (None: unbounded)."""
    value = getattr(g, name, default)
    if value is None:
        return -float("inf") if name == "min_utility" else float("inf")
    return float(value)


def _instance(file: str, players: int, options: str, backend: str = "python") -> Game:
    """The cardsmith game for these parameters. pyspiel makes a new game object for every state it
    deserialises, so compiled games are kept, keyed by the file's path, size and time of change too."""
    path = resolve(file)
    try:
        st = path.stat()
        stamp: tuple[int, int] = (st.st_mtime_ns, st.st_size)
    except OSError:
        stamp = (0, 0)
    return _cached(str(path), stamp, players, options, backend)


@lru_cache(maxsize=32)
def _cached(path: str, stamp: tuple[int, int], players: int, options: str, backend: str) -> Game:
    return _load_cardsmith(Path(path), players, parse_options(options), backend=backend)


def _fewest(file: str) -> int:
    """The fewest players the rule file allows (compiling it reports its errors, if any)."""
    r = compile_file(resolve(file))
    if not r.ok or r.game is None:
        from .dsl.diagnostics import RuleFileError
        raise RuleFileError(r.diagnostics, r.sources)
    return int(r.game.spec.min_players)


class CardsmithGame(pyspiel.Game):
    """A rule file at a player count and options, as a pyspiel game."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        p = dict(DEFAULT_PARAMS)
        p.update(params or {})
        file, players, options, backend = str(p["file"]), int(p["players"]), str(p["options"]), str(p["backend"])
        layout = str(p["layout"])
        if layout not in LAYOUTS:
            raise GameError(f"the parameter 'layout' is one of {', '.join(LAYOUTS)}, not '{layout}'")
        if not file:
            raise GameError("the game 'cardsmith' needs the parameter 'file': a rule file's path or a bundled "
                            "game's name")
        if players <= 0:
            players = _fewest(file)
        # pyspiel fills in a parameter's default, so `auto` given and `auto` by default are one: both may be
        # decided by $CARDSMITH_BACKEND.
        if layout == "openspiel" and backend == "native":
            raise GameError("the layout 'openspiel' runs on the Python backend: give backend 'python' or 'auto'")
        # A declared layout reads masked copies of the state and replays its history: the Python backend's.
        self.cardsmith: Game = _instance(file, players, options, "python" if layout == "openspiel" else
                                         default_backend() if backend == "auto" else backend)
        g = self.cardsmith
        self.layout: Layout | None = layout_of(g) if layout == "openspiel" else None
        utility, total = _utility(g)
        info = pyspiel.GameInfo(
            num_distinct_actions=g.num_distinct_actions() if self.layout is None else self.layout.num_actions,
            max_chance_outcomes=g.max_chance_outcomes(),
            num_players=g.n,
            min_utility=_bound(g, "min_utility", 0.0),
            max_utility=_bound(g, "max_utility", 1.0),
            utility_sum=total,
            # OpenSpiel keeps these in a C++ int; the engine's bound can be larger.
            max_game_length=min(g.max_game_length(), _INT_MAX))
        spec = g.spec
        # The backend is named in the game's parameters (and its string) only where it is not the default, so a
        # game loaded from its string runs where it ran.
        named = {"file": file, "players": players, "options": options}
        if backend != "auto":
            named["backend"] = backend
        tensors_given = (True, True)
        if self.layout is not None:
            named["layout"] = layout
            tensors_given = (self.layout.declares("observation"), self.layout.declares("information_state"))
        super().__init__(_game_type(utility, spec.min_players, spec.max_players, tensors=tensors_given), info, named)

    def get_type(self) -> Any:
        """The game's type, named by its own registered name (`own_name`) rather than "cardsmith": Python code
        that reloads a game by `get_type().short_name` alone, as Shimmy's `OpenSpielCompatibilityV0(env=game)`
        does at every reset, gets this very game back. (The game's string, `str(game)`, stays
        `cardsmith(file=...,players=...)`, so serialised states load in any process.)"""
        kept = self.__dict__.get("_own_type")
        if kept is None:
            kept = self.__dict__["_own_type"] = _register_own(self)
        return kept

    @property
    def own_name(self) -> str:
        """The name this game is registered under: `pyspiel.load_game(game.own_name)` loads it again."""
        return str(self.get_type().short_name)

    def new_initial_state(self) -> CardsmithState:
        return CardsmithState(self)

    def max_chance_nodes_in_history(self) -> int:
        """The chance outcomes of a history, bounded (pyspiel's default for a Python game is
        `max_game_length`, which a history dealing many cards between actions can pass): engine/bounds.py."""
        return min(self.cardsmith.max_chance_nodes_in_history(), _INT_MAX)

    def max_history_length(self) -> int:
        return min(self.max_game_length() + self.max_chance_nodes_in_history(), _INT_MAX)

    @property
    def strings(self) -> _Strings:
        """The information state strings of this game's states, by history (`_Strings`)."""
        kept = self.__dict__.get("_strings")
        if kept is None:
            kept = self.__dict__["_strings"] = _Strings()
        return kept  # type: ignore[no-any-return]

    def initial_inner(self) -> Any:
        """A new cardsmith initial state (without a seed), cloned from one made once."""
        first = self.__dict__.get("_initial")
        if first is None:
            first = self.__dict__["_initial"] = self.cardsmith.new_initial_state()
        return first.clone()

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> CardsmithObserver:
        return CardsmithObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)

    def observation_tensor_shape(self) -> list[int]:
        if self.layout is not None:
            return [self.layout.size("observation")]
        return tensors.observation_tensor_shape(self.cardsmith)

    def information_state_tensor_shape(self) -> list[int]:
        if self.layout is not None:
            return [self.layout.size("information_state")]
        return tensors.information_state_tensor_shape(self.cardsmith)


class _Inner:
    """The cardsmith state inside a pyspiel state. pyspiel clones a Python state by deep-copying its
    attributes (this cheap copy clones the state and shares the compiled game) and serialises it by pickling
    them: pickled, it is empty and is rebuilt from the pyspiel history, which holds every action and chance
    outcome. `keyed`: the pyspiel history decides the state (not so for a resampled state, whose pyspiel
    history is empty), so its strings may be kept by history (`_Strings`)."""

    __slots__ = ("state", "keyed", "outcomes", "layout")

    def __init__(self, state: Any = None, keyed: bool = True, layout: Layout | None = None) -> None:
        self.state = state
        self.keyed = keyed
        # The game's declared layout, if it plays with one: kept here since asking the pyspiel state for its
        # game costs as much as the query it is for.
        self.layout = layout
        # The chance outcomes of the state at a history (its trail): pyspiel's `apply_action` asks for them
        # again, to check the outcome given, right after the caller did.
        self.outcomes: tuple[Any, list[tuple[int, float]]] | None = None

    def __deepcopy__(self, memo: Any) -> _Inner:
        s = self.state
        return _Inner(None if s is None else s.clone(), self.keyed, self.layout)

    def __reduce__(self) -> tuple[Any, tuple[()]]:
        if not self.keyed and self.state is not None:
            # Its pyspiel history is empty, so the text would read back as the match's start. (And its chance
            # was drawn as the resampler found it: its history does not replay on a new state of a game that
            # deals lazily.)
            raise pyspiel.SpielError(
                "a state from resample_from_infostate cannot be serialized: it has no pyspiel history (it is for "
                "search); serialize the state it was resampled from, or its cardsmith state (state.inner)")
        return (_Inner, ())


class _Strings:
    """Information state strings by (player, pyspiel history), for the states of one game whose history
    decides them. CFR walks the same tree of states at every iteration, each time from new states (`child`),
    so a string kept with its state would be worked out again at every iteration; kept by history it is
    worked out once. Bounded: emptied when it holds `MAX_CHARS` characters."""

    MAX_CHARS = 16_000_000

    def __init__(self) -> None:
        self.texts: dict[tuple[int, tuple[int, ...]], str] = {}
        self.chars = 0

    def get(self, key: tuple[int, tuple[int, ...]]) -> str | None:
        return self.texts.get(key)

    def put(self, key: tuple[int, tuple[int, ...]], text: str) -> None:
        if self.chars + len(text) > self.MAX_CHARS:
            self.texts.clear()
            self.chars = 0
        self.texts[key] = text
        self.chars += len(text)


# The engine's and OpenSpiel's ids of the chance and terminal "players" agree, so the state's own
# current_player() is OpenSpiel's.
assert (CHANCE, TERMINAL) == (int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL))


class CardsmithState(pyspiel.State):
    """A cardsmith state made without a seed, so every shuffle and `pick` is an explicit chance node.

    pyspiel's C++ side asks the Python one through callbacks (its `legal_actions()` calls
    `current_player()` four times before `_legal_actions`), so the queries Python callers make most
    (`legal_actions`, `is_chance_node`, the strings, ...) are answered here directly; C++ callers still
    go through pyspiel's methods, which reach the same answers."""

    # A state pyspiel makes for a clone is given the original's `_held` at once: until its first use, a
    # new state needs none of its own (the class's empty one stands in).
    _held = _Inner()

    def __init__(self, game: CardsmithGame, inner: Any = None, keyed: bool = True) -> None:
        super().__init__(game)
        if inner is not None:
            self._held = _Inner(inner, keyed, game.layout)

    @property
    def inner(self) -> Any:
        """The cardsmith `State` (made on first use: pyspiel makes a new state for every clone)."""
        return self._held.state or self._rebuild()

    def _rebuild(self) -> Any:
        game = self.get_game()
        s = game.initial_inner()
        layout = game.layout
        for a in self.history():
            if layout is not None and s.current_player() >= 0:
                a = layout.to_cardsmith(s, a)
            s.apply_action(a)
        held = self.__dict__.get("_held")
        if held is None:
            self._held = _Inner(s, layout=layout)
        else:
            held.state = s
            held.layout = layout
        return s

    # The state's own answers are of the types OpenSpiel's are (an int, a bool).
    def current_player(self) -> int:
        return (self._held.state or self._rebuild()).current_player()  # type: ignore[no-any-return]

    def is_terminal(self) -> bool:
        return (self._held.state or self._rebuild()).is_terminal()  # type: ignore[no-any-return]

    def is_chance_node(self) -> bool:
        return (self._held.state or self._rebuild()).current_player() == CHANCE  # type: ignore[no-any-return]

    def is_player_node(self) -> bool:
        return (self._held.state or self._rebuild()).current_player() >= 0  # type: ignore[no-any-return]

    def is_simultaneous_node(self) -> bool:
        return False

    def legal_actions(self, player: Any = None) -> list[int]:
        """OpenSpiel's `LegalActions` (the chance outcomes at a chance node, none for another player)."""
        s = self._held.state or self._rebuild()
        cur = s.current_player()
        if cur >= 0:
            if player is None or player == cur:
                layout = self._held.layout
                return s.legal_actions() if layout is None else layout.legal(s)  # type: ignore[no-any-return]
            if player >= 0:
                return []
            return pyspiel.State.legal_actions(self, player)  # type: ignore[no-any-return]  # pyspiel's error
        if cur == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        return []

    def _legal_actions(self, player: int) -> list[int]:
        s = self._held.state or self._rebuild()
        layout = self._held.layout
        return s.legal_actions() if layout is None else layout.legal(s)  # type: ignore[no-any-return]  # sorted

    def chance_outcomes(self) -> list[tuple[int, float]]:
        # Ascending, as OpenSpiel wants them: the engine gives the cards of a shuffle and the indices of a
        # pick in order (pyspiel.random_sim_test checks it on every bundled game).
        s = self._held.state or self._rebuild()
        if not isinstance(s, State):  # a native state: its binding shares the pairs, and it has no trail to key by
            return s.chance_outcomes()  # type: ignore[no-any-return]
        held = self._held
        kept = held.outcomes
        if kept is not None and kept[0] is s.trail:
            return kept[1]
        out: list[tuple[int, float]] = s.chance_outcomes()
        held.outcomes = (s.trail, out)
        return out

    def _apply_action(self, action: int) -> None:
        s = self._held.state or self._rebuild()
        layout = self._held.layout
        if layout is None or s.current_player() < 0:
            s.apply_action(action)
            return
        a = layout.to_cardsmith(s, action)
        before = s.clone() if layout.moves else None
        s.apply_action(a)
        if before is not None:
            layout.after_move(before, s, a)

    def own_actions(self, player: int) -> dict[int, float]:
        """How many times the player took each action id so far."""
        return dict(tensors.own_counts(self.inner, player))

    def _action_to_string(self, player: int, action: int) -> str:
        s = self.inner
        layout = self._held.layout
        if layout is not None and player >= 0:
            legal = s.current_player() == player and action in layout.legal(s)
            mine = layout.to_cardsmith(s, action) if legal else layout.any_cardsmith(int(action))
            return str(s.action_to_string(player, mine)) if mine is not None else f"<no action {action}>"
        return str(s.action_to_string(player, int(action)))

    def returns(self) -> list[float]:
        return [float(r) for r in (self._held.state or self._rebuild()).returns()]

    def player_return(self, player: Any) -> float:
        if type(player) is int and 0 <= player < self.get_game().num_players():
            return self.returns()[player]
        return pyspiel.State.player_return(self, player)  # type: ignore[no-any-return]  # pyspiel's error

    def information_state_string(self, player: Any = None) -> str:
        s = self._held.state or self._rebuild()
        if player is None:
            player = s.current_player()
        if type(player) is not int or not 0 <= player < s.game.n:
            return pyspiel.State.information_state_string(self, player)  # type: ignore[no-any-return]
        if not self._held.keyed:
            return str(s.information_state_string(player))
        strings: _Strings = self.get_game().strings
        key = (player, tuple(self.history()))
        text = strings.get(key)
        if text is None:
            text = str(s.information_state_string(player))
            strings.put(key, text)
        return text

    def observation_string(self, player: Any = None) -> str:
        s = self._held.state or self._rebuild()
        if player is None:
            player = s.current_player()
        if type(player) is not int or not 0 <= player < s.game.n:
            return pyspiel.State.observation_string(self, player)  # type: ignore[no-any-return]
        return str(s.observation_string(player))

    def observation_tensor(self, player: Any = None) -> list[float]:
        return self._tensor("observation_tensor", player, False)

    def information_state_tensor(self, player: Any = None) -> list[float]:
        return self._tensor("information_state_tensor", player, True)

    def _tensor(self, name: str, player: Any, info: bool) -> list[float]:
        """The tensor as pyspiel's observer gives it (float32 values; `CardsmithObserver.set_from`)."""
        s = self._held.state or self._rebuild()
        if player is None:
            player = s.current_player()
        g = s.game
        if type(player) is not int or not 0 <= player < g.n:
            return getattr(pyspiel.State, name)(self, player)  # type: ignore[no-any-return]  # pyspiel's error
        layout = self._held.layout
        if layout is not None:
            return layout.tensor(s, player, "information_state" if info else "observation")
        size = tensors.observation_size(g)
        out = np.zeros(size + tensors.history_size(g) if info else size, np.float32)
        s._evaluating(tensors.write_information_state if info else tensors.write_observation, player, out)
        # Mostly zeros (a history's unused frames): the list is made of them, with the few values set, which
        # costs a fraction of `out.tolist()` on a tensor of a few hundred thousand floats.
        at = np.flatnonzero(out)
        listed = [0.0] * len(out)
        for i, v in zip(at.tolist(), out[at].tolist()):
            listed[i] = v
        return listed

    def resample_from_infostate(self, player: int, sampler: Any) -> CardsmithState:
        """A state the player cannot tell from this one, drawn by the cardsmith state (its history kept
        only as far as the player knows it: the returned state is for search, and refuses to be serialised,
        `_Inner.__reduce__`)."""
        seed = int(sampler() * 2**53) if callable(sampler) else random.getrandbits(53)
        inner = self.inner.resample_from_infostate(player, random.Random(seed))
        return CardsmithState(self.get_game(), inner, keyed=False)

    def __str__(self) -> str:
        return str(self.inner)


class CardsmithObserver:
    """OpenSpiel's observer interface (`make_py_observer`): perfect recall gives the information state,
    otherwise the observation. Only the full view of one player (public and the player's private
    information) is offered: a rule file does not split its state into public and private parts."""

    def __init__(self, game: CardsmithGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        g = game.cardsmith
        self.declared = game.layout
        if self.declared is not None:  # the declared blocks, by their names
            tensor = "information_state" if self.perfect_recall else "observation"
            layout = [(b.name, b.total) for b in self.declared.blocks[tensor]]
        else:
            layout = tensors.tensor_layout(g, self.perfect_recall)
        self.tensor = np.zeros(sum(size for _, size in layout), np.float32)
        self.dict: dict[str, Any] = {}
        at = 0
        for name, size in layout:
            self.dict[name] = self.tensor[at:at + size]
            at += size

    def set_from(self, state: CardsmithState, player: int) -> None:
        s = state.inner
        out = self.tensor
        if self.declared is not None:
            out[:] = self.declared.tensor(s, player, "information_state" if self.perfect_recall else "observation")
            return
        out.fill(0.0)
        # rule errors of `visible` rules located
        s._evaluating(tensors.write_information_state if self.perfect_recall else tensors.write_observation,
                      player, out)

    def string_from(self, state: CardsmithState, player: int) -> str:
        return state.information_state_string(player) if self.perfect_recall else state.observation_string(player)


pyspiel.register_game(_GAME_TYPE, CardsmithGame)


def _own_params(game: CardsmithGame) -> dict[str, Any]:
    """The game's parameters, with a rule file's path made absolute (a bundled game's name stays a name), so
    its own name loads it from any working directory."""
    params = dict(game.get_parameters())
    file = str(params["file"])
    if Path(file).suffix in (".yaml", ".yml") or exists(Path(file)):
        params["file"] = str(Path(file).resolve())
    return {**DEFAULT_PARAMS, **params}


def _register_own(game: CardsmithGame) -> Any:
    """Register (once per name) the game type of `game`'s own name: `cardsmith_<game>_v<rules digest>_p<players>`,
    then `_o<digest>` of the options, the backend, the layout and the file's path where those are not the
    defaults (a bundled game named by its name). Its parameters default to the game's, so the name alone loads
    the game again; a rule file edited since gives a clear error (the edited file has another name)."""
    g = game.cardsmith
    params = _own_params(game)
    name = f"{rlspaces.versioned_name(g)}_p{g.n}"
    key = f"{params['options']}|{params['backend']}"
    if params["file"] != game.get_parameters()["file"] or "/" in str(params["file"]):
        key += f"|{params['file']}"
    if params["layout"] != "cardsmith":
        key += f"|layout={params['layout']}"
    if key != "|auto":
        name += f"_o{hashlib.sha256(key.encode()).hexdigest()[:6]}"
    utility, _ = _utility(g)
    lay = game.layout
    given = (True, True) if lay is None else (lay.declares("observation"), lay.declares("information_state"))
    own = _game_type(utility, g.spec.min_players, g.spec.max_players, name, params, given)
    if name not in pyspiel.registered_names():
        pyspiel.register_game(own, _own_factory(name, rlspaces.rules_digest(g)))
    return own


def _own_factory(name: str, digest: str) -> Any:
    """A subclass of CardsmithGame for the own name: pyspiel keeps what it registers until the process exits,
    and frees a plain function then without holding the GIL (a crash at exit); a class lives on to the end."""
    def __init__(self: CardsmithGame, params: Mapping[str, Any] | None = None) -> None:
        CardsmithGame.__init__(self, params)
        now = rlspaces.rules_digest(self.cardsmith)
        if now != digest:
            raise GameError(f"the rule file '{self.get_parameters()['file']}' changed since the game '{name}' was "
                            f"loaded: load it again by its file (its name is now '{self.own_name}')")
    return type("CardsmithGame", (CardsmithGame,), {"__init__": __init__, "__module__": __name__})


def load(game: str | Path, players: int = 0, options: Mapping[str, Any] | None = None,
         backend: str = "auto", layout: str = "cardsmith") -> Any:
    """The rule file `game` (a path or a bundled game's name) as a pyspiel game, on `backend`, with the action ids
    and tensors of `layout` (`cardsmith`, or `openspiel`: those its `openspiel:` section declares)."""
    params = {"file": str(game), "players": players, "options": format_options(options or {}), "backend": backend}
    if layout != "cardsmith":
        params["layout"] = layout
    return pyspiel.load_game(SHORT_NAME, params)


__all__ = ["SHORT_NAME", "CardsmithGame", "CardsmithObserver", "CardsmithState", "format_options", "load",
           "parse_options"]
