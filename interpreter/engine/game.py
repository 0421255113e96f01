"""A game instance: a compiled rule file fixed to a player count and options.

Building one evaluates the option defaults, builds the pack (which may depend
on both), lays out zones and variables in flat arrays, and execs the compiled
module in a namespace holding exactly these tables and the runtime helpers.
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..dsl import abi
from ..dsl import ast as A
from ..dsl import types as T
from ..dsl.codegen.reach import ORDERED
from ..dsl.compiler import CompiledGame
from ..dsl.diagnostics import RuleFileError, Span, count_of
from ..dsl.library import RUNTIME_HELPERS, BudgetExceeded
from ..dsl.limits import DEFAULT_LIMITS, Limits
from ..dsl.pipeline import compile_file
from ..dsl.projection import class_tables
from ..dsl.spec import PhaseSpec, ReturnsSpec
from . import bounds, tensors
from . import budget as budget_
from . import returns as returns_
from .codec import ActionCodec, ActionInfo
from .errors import BadOption, GameError, RuleError, describe_failure, failure_code
from .history import deserialize
from .option_values import check_constraints, parse_option_value, set_options  # noqa: F401  (parse_option_value: re-exported)
from .runtime import HELPERS
from .setup import Resolved, Setup
from .state import State

# The generated code may use these Python builtins and nothing else.
_SAFE_BUILTINS = {name: getattr(builtins, name) for name in abi.BUILTINS}


@dataclass
class PhaseInfo:
    name: str
    index: int
    spec: PhaseSpec
    first: Any
    start: Any
    after: Any
    end: Any
    legal: Any
    round: bool
    next: str
    then: int | None


class _Count(int):
    """The number of action ids, which may also be called: `game.num_distinct_actions()` as in OpenSpiel."""

    def __call__(self) -> int:
        return int(self)


class Game:
    """A compiled rule file at a player count with table options.

    `budget` is the step counter (a one-item list) the rules charge; setting the game up (option defaults,
    the pack, card properties, parameter ranges) is charged to it too. Pass one shared counter to bound the
    setup work of many instances together (`cardsmith validate` builds one per player count). `limits`
    (dsl/limits.py) bound what the rules may do (steps per move, actions per match, cards, list items);
    by default the ones `compiled` was read within.

    The result of a match, for OpenSpiel and the logs (engine/returns.py): `min_utility`, `max_utility`
    (None: `returns` has no such bound), `zero_sum`, `utility_sum` (0 for zero-sum, else None) and
    `returns_name`, what the numbers are called; without `match: returns`, 0, 1, no, None, "returns".
    OpenSpiel's bounds of a match (`max_game_length`, `max_chance_outcomes`, ...) are engine/bounds.py's."""

    min_utility: float | None
    max_utility: float | None
    zero_sum: bool
    utility_sum: float | None
    returns_name: str
    returns_fn: Any  # the compiled `returns` expression, (state, seat) -> value; None: the winners' share
    returns_spec: ReturnsSpec | None
    # The rule file's `match: bounds` at this table (engine/bounds.py): the action limit is lowered to its
    # `actions`, and a pick from more values than its `outcomes` is a rule error (R005).
    declared: bounds.Declared = bounds.Declared()

    option_ranges: dict[str, tuple[int, int]]  # each int option's range at this player count (options.py)

    # Which backend plays it ("python" here; "native" for cardsmith.native's NativeGame), and why a game asked
    # for with backend="auto" runs in Python (None: it was not asked, or it did not fall back).
    backend = "python"
    backend_note: str | None = None

    def __init__(self, compiled: CompiledGame, num_players: int, options: dict[str, Any] | None = None,
                 budget: list[int] | None = None, *, constraints: bool = True, limits: Limits | None = None):
        # constraints=False: set up a table the rules' constraints refuse (to work out option ranges).
        self.check_constraints = constraints
        # The limits it runs within: the ones the file was compiled within unless told otherwise.
        self.limits = limits if limits is not None else compiled.limits
        # Read on every move: plain attributes.
        self.step_limit = self.limits.steps
        self.action_limit = self.limits.actions
        try:
            self._setup(compiled, num_players, options, budget)
        except RuleError as e:
            e.sources = e.sources or compiled.sources  # for the source line of the error
            raise

    def _setup(self, compiled: CompiledGame, num_players: int, options: dict[str, Any] | None,
               budget: list[int] | None) -> None:
        spec = compiled.spec
        self.compiled = compiled
        self.spec = spec
        self.name = spec.name
        if not spec.min_players <= num_players <= spec.max_players:
            players = count_of(spec.min_players, "player") if spec.min_players == spec.max_players else \
                f"{spec.min_players} to {spec.max_players} players"
            raise BadOption(f"{spec.name} is for {players}, not {num_players}")
        self.n = num_players
        ns: dict[str, Any] = {"__builtins__": _SAFE_BUILTINS}
        ns.update(RUNTIME_HELPERS)
        ns.update(HELPERS)
        ns["N"] = num_players
        ns["MISS"] = object()
        # The table of the question being asked of an unchanging state (State._question), else None: the
        # rules' functions of the state remember their values in it.
        self.question: list[dict[Any, Any] | None] = [None]
        ns["QM"] = self.question
        ns["NC"] = 0  # no card before the pack is built (a rule of the setup reading one gets a rule error)
        for i in range(len(class_tables(spec))):
            ns[abi.card_class(i)] = ()  # no card has a class yet: a memo key needing one is not made
        self.steps = budget if budget is not None else [self.step_limit]
        ns.update(budget_.helpers(self.steps, self.step_limit, ns))
        self.seats = ns["PLAYERS"] = list(range(num_players))
        ns["SUITS"] = list(spec.suits)
        ns["RANKS"] = list(spec.ranks)
        ns["SUIT_POS"] = {s: i for i, s in enumerate(spec.suits)}
        ns["RANK_POS"] = {r: i for i, r in enumerate(spec.ranks)}
        ns["PHASE_NAMES"] = [ph.name for ph in spec.phases]
        for k, (v, _) in spec.constants.items():
            ns[abi.const(k)] = v
        self.ns = ns
        exec(compiled.code, ns)  # our generated code, from the checked AST only
        if compiled.spare is not None:
            exec(compiled.spare, ns)  # the define: functions the rules never call, for probes (the same)
        self.options = self._options(options or {})
        for k, v in self.options.items():
            ns[abi.option(k)] = v
        if self.check_constraints:
            check_constraints(self)
        self._build_pack()
        self._layout()
        self._lazy_plan()
        self._shown()
        self._initials()
        self._actions()
        self._phases()
        m = spec.match
        self.match_start = ns[abi.MATCH_START]
        self.match_deal = ns[abi.MATCH_DEAL]
        self.match_end_deal = ns[abi.MATCH_END_DEAL]
        self.next_dealer = ns.get(abi.MATCH_NEXT_DEALER)
        self.over_when = ns.get(abi.MATCH_OVER_WHEN)
        self.winners = ns.get(abi.MATCH_WINNERS)
        self.max_deals = m.max_deals
        # `players: teams` (None: every seat is a team of its own); lists shared by states until one is written.
        self.teams_of = ns.get(abi.TEAMS_OF)
        self.own_teams = list(range(num_players))
        # The `teams` of the last team list asked about (engine/runtime.py `_teams`): lists of teams are
        # shared by states until one is written, so most questions are about the same list.
        self.teams_seen: tuple[list[int] | None, list[int]] = (None, [])
        self.all_seated = [False] * num_players
        self.none_out = [False] * num_players  # `State.out` before anyone is eliminated (copied on write)
        self.reports = [(label, ns[abi.report(k)], compiled.report_kinds[k], e.span)
                        for k, (label, e) in enumerate(m.report)]
        returns_.setup(self)
        bounds.declare(self)  # after the options: its values may read them

    # ------------------------------------------------------------ options
    def _options(self, given: dict[str, Any]) -> dict[str, Any]:
        return set_options(self, given)

    # ------------------------------------------------------------ the pack
    def _build_pack(self) -> None:
        spec, ns = self.spec, self.ns
        universe: list[tuple[Any, str]] = []  # (suit or None, rank)
        counts: list[int] = []
        for i, e in enumerate(spec.pack):
            if e.when is not None and not self._call(ns[abi.pack_when(i)], e.when.span):
                continue
            kinds: list[tuple[Any, str]]
            if e.card is not None:
                kinds = [(None, e.card)]
            else:
                suits, ranks = e.suits or spec.suits, e.ranks or spec.ranks
                if len(universe) + len(suits) * len(ranks) > 10 * self.limits.cards:
                    # Counted before the kinds are made: 100,000 suits times 100,000 ranks is no pack.
                    raise RuleError(f"the pack entries describe more than {10 * self.limits.cards:,} kinds of card",
                                    e.span, self.limits.hint("cards"))
                kinds = [(s, r) for s in suits for r in ranks]
            self._charge(len(kinds), e.span)
            universe.extend(kinds)
            counts.extend([e.copies] * len(kinds))
        # Card tables over the candidate cards, so `where` can read properties.
        self._tables(universe)
        keep: list[tuple[Any, str]] = []
        entry_of: list[int] = []
        pos = 0
        for i, e in enumerate(spec.pack):
            if e.when is not None and not self._call(ns[abi.pack_when(i)], e.when.span):
                continue
            n_kinds = 1 if e.card is not None else len(e.suits or spec.suits) * len(e.ranks or spec.ranks)
            for j in range(pos, pos + n_kinds):
                if e.where is None or self._call(ns[abi.pack_where(i)], e.where.span, j):
                    for _ in range(counts[j]):
                        keep.append(universe[j])
                        entry_of.append(i)
            pos += n_kinds
        if not keep:
            raise RuleError(f"the pack for {count_of(self.n, 'player')} is empty",
                            spec.spans.get("deck", spec.root_span))
        if len(keep) > self.limits.cards:
            raise RuleError(f"the pack for {count_of(self.n, 'player')} has {count_of(len(keep), 'card')}",
                            spec.root_span,
                            self.limits.hint("cards"))
        self._tables(keep)
        self.num_cards = len(keep)
        # `pack` in the rules: every card once (runtime._move gathers it without checking).
        self.pack = ns["PACK"] = list(range(len(keep)))

    def _tables(self, kinds: list[tuple[Any, str]]) -> None:
        spec, ns = self.spec, self.ns
        suit_pos = {s: i for i, s in enumerate(spec.suits)}
        rank_pos = {r: i for i, r in enumerate(spec.ranks)}
        ns[abi.card_table("suit")] = tuple(s for s, _ in kinds)
        ns[abi.card_table("rank")] = tuple(r for _, r in kinds)
        ns[abi.card_table("suit_index")] = tuple(suit_pos.get(s, -1) for s, _ in kinds)
        ns[abi.card_table("rank_index")] = tuple(rank_pos.get(r, -1) for _, r in kinds)
        raw = [r if s is None else f"{r} of {s}" for s, r in kinds]
        # Copies of a card (a doubled pack, several jokers) are told apart: "2 of clubs #2".
        seen: dict[str, int] = {}
        named = []
        for n in raw:
            seen[n] = seen.get(n, 0) + 1
            named.append(n if seen[n] == 1 else f"{n} #{seen[n]}")
        names = tuple(named)
        ns[abi.card_table("name")] = names
        ns["NC"] = len(names)
        self.card_names = names
        for p in spec.properties:
            self._charge(len(kinds), p.span)  # a property is worked out for every kind of card
            vals = []
            for s, r in kinds:
                if p.by == "rank":
                    vals.append(p.table.get(r, p.default))
                elif p.by == "suit":
                    vals.append(p.table.get(s, p.default) if s is not None else p.default)
                elif p.by == "const":
                    vals.append(p.default)
                else:
                    vals.append(self._call(ns[abi.property_fn(p.name)], p.span, r, s, rank_pos.get(r, -1),
                                           suit_pos.get(s, -1)))
            ns[abi.property_table(p.name)] = tuple(vals)
        for i, attrs in enumerate(class_tables(spec)):
            ns[abi.card_class(i)] = _classes([ns[abi.card_table(a) if a in abi.CARD_FIELDS else abi.property_table(a)]
                                              for a in attrs], len(kinds))
        # Memo keys name cards by these tables: an entry made over the candidate cards would mean others now.
        for memo in ns["MEMOS"]:
            memo.clear()

    def _call(self, fn: Any, span: Span, *args: Any) -> Any:
        try:
            return fn(*args)
        except BudgetExceeded:
            raise self._too_much(span) from None
        except (Exception, MemoryError) as e:
            message, detail = describe_failure(e)
            raise RuleError(message, span, code=failure_code(e), detail=detail) from None

    def _charge(self, n: int, span: Span) -> None:
        try:
            budget_.charge(self, n)
        except BudgetExceeded:
            raise self._too_much(span) from None

    def _too_much(self, span: Span) -> RuleError:
        return RuleError(f"setting the game up for {count_of(self.n, 'player')} took more than "
                         f"{count_of(self.step_limit, 'unit')} of work",
                         span, self.limits.hint("steps"), code="R004")

    # ------------------------------------------------------------ zones and variables
    def _layout(self) -> None:
        ns, n = self.ns, self.n
        self.zone_names: list[str] = []
        self.zone_owner: list[int | None] = []
        self.zone_specs = []
        for z in self.spec.zones:
            ns[abi.zone(z.name)] = len(self.zone_names)
            count = n if z.per_player else 1
            for p in range(count):
                self.zone_names.append(f"{z.name}[{p}]" if z.per_player else z.name)
                self.zone_owner.append(p if z.per_player else None)
                self.zone_specs.append(z)
        self.var_names: list[str] = []
        self.var_specs = []
        # Slots of list variables: all of them together may hold at most `limits.held` items (the cards of the
        # lists a `card_lists` variable holds count too: `nested_slots`).
        self.list_slots: list[int] = []
        nested: list[int] = []
        for v in self.spec.variables:
            ns[abi.var(v.name)] = len(self.var_names)
            # A per-team variable has a slot for every team number, 0 to n - 1, as a per-player one for every seat.
            per = v.per_player or v.per_team
            count = n if per else 1
            for p in range(count):
                if T.is_list(v.ty):
                    self.list_slots.append(len(self.var_names))
                if T.card_lists(v.ty):
                    nested.append(len(self.var_names))
                self.var_names.append(f"{v.name}[{p}]" if per else v.name)
                self.var_specs.append((v, p if per else None))
        self.nested_slots = frozenset(nested)

    def _lazy_plan(self) -> None:
        """The zones whose order a query may read (legal actions, `visible` rules, strategies): in a state
        without a seed, a step ends by deciding them (chance.py `fix_seen`)."""
        prefixes = (abi.legal(""), abi.phase_legal(""), abi.zone_visible(""), abi.var_visible(""), "strategy_")
        read: set[str] = set()
        for fn, names in self.compiled.reach.items():
            if fn.startswith(prefixes):
                read.update(n for n in names if n.startswith(ORDERED))
        slots: set[int] = set()
        for z in self.spec.zones:
            if ORDERED + abi.zone(z.name) in read:
                first = self.ns[abi.zone(z.name)]
                slots.update(range(first, first + (self.n if z.per_player else 1)))
        self.queried_zones = frozenset(slots)
        # Zones whose `visible` is a rule: a step may make one seen, and so decide it (engine/steps.py).
        self.rule_visible_zones = frozenset(zi for zi, z in enumerate(self.zone_specs)
                                            if isinstance(z.visible, A.Expr))
        self.step_reach: dict[tuple[int, int], Any] = {}  # (phase, action id) -> what its step may do (steps.py)

    def _shown(self) -> None:
        """Which zones and variables the tables draw at this table (`show`, fixed for the game): by name."""
        self.shown: dict[str, bool] = {}
        for kind, things in (("zone", self.spec.zones), ("var", self.spec.variables)):
            for x in things:
                show = x.show
                if isinstance(show, A.Expr):
                    show = self._call(self.ns[abi.shown(kind, x.name)], show.span) is True
                self.shown[f"{kind}:{x.name}"] = show

    def _initials(self) -> None:
        """Per variable slot: a constant initial value, or the function computing it."""
        self.var_init: list[tuple[int, Any, Any]] = []  # (slot, constant, (spec, owner) or None)
        for i, (v, owner) in enumerate(self.var_specs):
            if v.initial is None or isinstance(v.initial, A.Const):
                const = self.initial_value(v, None, owner)
                self.var_init.append((i, const, None))
            else:
                self.var_init.append((i, None, (v, owner)))
        self.deal_init = [t for t in self.var_init if self.var_specs[t[0]][0].scope == "deal"]

    def initial_value(self, v: Any, s: Any, owner: int | None = None) -> Any:
        if v.initial is None:
            return {T.INT: 0, T.NUM: 0, T.BOOL: False}.get(v.ty, [] if T.is_list(v.ty) else None)
        if isinstance(v.initial, A.Const):
            return v.initial.value
        fn = self.ns[abi.initial(v.name)]
        # In play the engine locates a failure and gives the state's context; setting up, `_call` does.
        val = fn(s, owner) if s is not None else self._call(fn, v.initial.span, s, owner)
        return list(val) if isinstance(val, list) else val

    # ------------------------------------------------------------ actions and phases
    def _actions(self) -> None:
        """The action ids (codec.py), and their tables in the namespace for the generated code."""
        self.codec = ActionCodec(self)
        self.ns.update(self.codec.tables())
        self.actions: list[ActionInfo] = self.codec.actions
        self.num_actions = self.codec.num_actions
        # OpenSpiel's name is a method; code that reads the count as an attribute keeps working (_Count).
        self.num_distinct_actions = _Count(self.num_actions)
        # id -> (run function, offset), for the engine's step; None past codec.TABLE_MAX ids (bisect).
        self.action_table = self.codec.table

    def _phases(self) -> None:
        ns = self.ns
        self.phases: list[PhaseInfo] = []
        idx = self.compiled.phase_index
        empty = self.compiled.empty

        def opt(name: str) -> Any:
            """A block the engine calls; None if the rule file left it empty, so the engine skips it."""
            return None if name in empty else ns[name]

        for i, ph in enumerate(self.spec.phases):
            n = ph.name
            self.phases.append(PhaseInfo(n, i, ph, ns.get(abi.phase_first(n)), opt(abi.phase_start(n)),
                                         opt(abi.phase_after(n)), ns[abi.phase_end(n)], ns[abi.phase_legal(n)],
                                         ph.round, ph.next, idx[ph.then[0]] if ph.then else None))

    def action_for(self, a: int) -> ActionInfo:
        return self.codec.action_for(a)

    # ------------------------------------------------------------ naming
    def player_name(self, p: int) -> str:
        return f"P{p}"

    def action_to_string(self, player: int | None, a: int) -> str:
        return self.codec.to_string(a)

    def public_action_string(self, a: int) -> str:
        """The action as the other players see it: a secret action hides its parameters."""
        info = self.action_for(a)
        if info.secret and info.params:
            return f"{info.label or info.name} (hidden)"
        return self.action_to_string(None, a)

    def card_id(self, name: str) -> int:
        """The first card with this name ('A of clubs'); raises KeyError."""
        try:
            return self.card_names.index(name)
        except ValueError:
            raise KeyError(name) from None

    def new_initial_state(self, seed: int | None = None, setup: Setup | None = None) -> State:
        """A new match. `seed`: shuffles and picks drawn from it (None: they are chance nodes). `setup`: a
        position to start from, the first dealer and the cards deals give (docs/python.md); a setup the
        game cannot play raises BadSetup."""
        return State.initial(self, seed, setup=setup)

    def blank_state(self, seed: int | None, lazy: bool = False, setup: Resolved | None = None) -> State:
        """A state before the match starts, for a replay (history.py) to run the start as its first step."""
        return State.blank(self, seed, lazy, setup)

    # ------------------------------------------------------------ OpenSpiel's game queries
    def num_players(self) -> int:
        return self.n

    def max_chance_outcomes(self) -> int:
        """A bound on the outcomes of one chance node (see bounds.py)."""
        return bounds.max_chance_outcomes(self)

    def max_game_length(self) -> int:
        """A bound, not the exact longest match, on the player actions of a match (OpenSpiel's meaning: chance
        outcomes are not counted; see bounds.py)."""
        return bounds.max_game_length(self)

    def max_chance_nodes_in_history(self) -> int:
        """A bound on the chance outcomes of a history (see bounds.py)."""
        return bounds.max_chance_nodes_in_history(self)

    def max_history_length(self) -> int:
        """A bound on the length of a history, player actions and chance outcomes together."""
        return self.max_game_length() + self.max_chance_nodes_in_history()

    def deserialize_state(self, text: str) -> State:
        """The state `State.serialize` wrote, replayed on this game; bad text raises a GameError."""
        return deserialize(self, text)

    def slot_of(self, kind: str, name: Any, player: int | None) -> int:
        """The slot of zone or variable `name` (kind "zone" or "variable"), of `player` if it is per player (of
        the team numbered `player` if it is per team)."""
        specs = self.spec.zones if kind == "zone" else self.spec.variables
        found = next((x for x in specs if x.name == name), None)
        if found is None:
            known = ", ".join(x.name for x in specs) or "none"
            raise GameError(f"{self.spec.name} has no {kind} {name!r} ({kind}s: {known})")
        base = self.ns[abi.zone(found.name) if kind == "zone" else abi.var(found.name)]
        if getattr(found, "per_team", False):
            # One slot per team number a seat could take (0 to n - 1), as `team[p]` numbers them.
            if type(player) is not int or not 0 <= player < self.n:
                raise GameError(f"variable '{found.name}' is per team: give a team number from 0 to {self.n - 1}, "
                                f"not {player!r}")
            return int(base) + player
        if not found.per_player:
            if player is not None:
                raise GameError(f"{kind} '{found.name}' is not per player: give no player")
            return int(base)
        if type(player) is not int or not 0 <= player < self.n:
            raise GameError(f"{kind} '{found.name}' is per player: give a seat from 0 to {self.n - 1}, "
                            f"not {player!r}")
        return int(base) + player

    def observation_tensor_shape(self) -> list[int]:
        """The shape of `State.observation_tensor` for this game (fixed by players and options)."""
        return tensors.observation_tensor_shape(self)

    def information_state_tensor_shape(self) -> list[int]:
        return tensors.information_state_tensor_shape(self)

    # ------------------------------------------------------------ reading an action's text
    def action_from_string(self, text: str) -> int | None:
        """The lowest action id that action_to_string prints as `text`, or None. Actions of different phases
        may print alike: `State.action_from_string` reads a text where it is used, among the actions legal then."""
        ids = self.actions_from_string(text)
        return ids[0] if ids else None

    def actions_from_string(self, text: str) -> list[int]:
        """Every action id that action_to_string prints as `text`, lowest first (parsed per action: the cost
        does not depend on the size of the id space)."""
        return self.codec.from_string(text)


def _classes(columns: list[tuple[Any, ...]], cards: int) -> tuple[int, ...]:
    """Each card's class: cards with the same values in all these columns (1 and 1.0 and true differ:
    a result may show the difference) share a number."""
    first: dict[tuple[Any, ...], int] = {}
    try:
        return tuple([first.setdefault(tuple([(type(v), v) for v in values]), len(first))
                      for values in zip(*columns)]) if columns else (0,) * cards
    except TypeError:  # a property whose values cannot be hashed: every card a class of its own
        return tuple(range(cards))


def load_game(path: str | Path, num_players: int, options: dict[str, Any] | None = None,
              limits: Limits = DEFAULT_LIMITS) -> Game:
    r = compile_file(path, limits)
    if not r.ok or r.game is None:
        raise RuleFileError(r.diagnostics, r.sources)
    return Game(r.game, num_players, options)

