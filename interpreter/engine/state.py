"""The generic turn engine, in the shape of OpenSpiel's state API.

A `State` is a handful of flat lists (zones, variables, where each card is)
plus the phase and whose turn it is, so `clone()` is a few list copies. One
step runs the chosen action's effects, the phase's `after` steps, counts the
turn of a round phase, moves the turn on, and follows any `goto` or
`end deal` through phase entries, deal ends and new deals.
"""

from __future__ import annotations

from itertools import repeat
from operator import or_
from typing import TYPE_CHECKING, Any

from ..dsl.diagnostics import count_of
from ..dsl.library import RuleRuntimeError
from . import infostate, tensors
from .chance import Draws, NeedChance, Pending, apply_leftover, fix_seen, guessed_node
from .context import designer_view, public_view, span_of, where
from .errors import IllegalAction, RuleError, describe_failure, failure_code
from .fields import SLOTS, derive
from .flow import start_match, take_action
from .history import RESEED, entries, serialize
from .observation import Ended, describe, observe
from .resample import resample
from .setup import Resolved, Setup, Stack, resolve
from .steps import step_reach

if TYPE_CHECKING:  # the game makes states; a state only reads its game
    from .game import Game

CHANCE = -1
TERMINAL = -4

# What compiled rule code raises when a rule fails (the library's own errors and Python's, from a
# division by zero, an index out of range, ...): each becomes a located RuleError.
RULE_FAILURES = (RuleRuntimeError, ArithmeticError, LookupError, TypeError, ValueError, RecursionError,
                 AttributeError, MemoryError)


class State:
    __slots__ = SLOTS  # the field table (fields.py) says how each is copied, serialized and made

    game: Game
    z: list[list[int]]  # zones, bottom card first
    v: list[Any]  # variables; per-player ones take one slot per seat
    loc: list[int]  # card -> zone index
    by: list[int]  # card -> player whose action last moved it
    out: list[bool]  # seat -> eliminated (copied on write)
    phase: int
    cur: int
    actor: int
    turns: int
    dealer: int
    deal_no: int
    rng: int | None  # None: shuffles are explicit chance nodes
    terminal: bool
    winners: list[int]
    log: list[Any] | None
    legal: list[int] | None  # cached legal actions of this state
    chance_queue: list[int]
    chance_pos: int
    pending: Pending | None  # at a chance node: the step it stopped and the outcomes possible (chance.py)
    trail: Any  # the history: (previous, who, what) triples (history.py), O(1) to extend and share
    moves: int
    stage: str  # IN_PHASE, STARTING, DEALING, ENDING_DEAL or OVER
    rets: list[float] | None  # each seat's result, worked out once when the match ends
    setup: Resolved | None  # the position asked for: first dealer, fixed cards of deals (engine/setup.py)
    stack: Stack | None  # while a fixed deal's steps run: the shuffles' fixed positions
    team: list[int]  # seat -> team number, 0 to n - 1 (copied on write; set again at every deal)
    sit: list[bool]  # seat -> sits out this deal (copied on write; cleared at every deal)
    seed0: int | None  # the seed the state was made with
    seen: Any  # per player, the information state worked out so far (infostate.py); shared, copied on write
    trace: list[Any] | None  # while replaying: where each shuffle and pick took its outcomes (resample.py)
    # The last deal as it ended, after `match: end_deal` and before the next deal gathered the cards (None
    # before the first deal ends): what each player saw then is part of its observation (observation.py).
    ended: Ended | None
    # Without a seed or a setup, shuffled zones are dealt lazily (chance.py): zone -> its bottom k cards in no
    # order yet (shared by clones, replaced on write). None: every order is decided (a seed, a setup, an
    # explicit replay).
    unfixed: dict[int, int] | None
    draws: Draws | None  # while a lazy step runs: the chance outcomes it has been given (chance.py)

    # ------------------------------------------------------------ construction
    @classmethod
    def initial(cls, game: Game, seed: int | None = None, log: bool = False,
                setup: Setup | Resolved | None = None, lazy: bool = True) -> State:
        """The state before the first decision. `setup` (engine/setup.py) fixes the first dealer and cards
        the deals give; it is checked first, and a setup the game cannot play raises BadSetup. Without a seed
        or a setup, shuffled zones are dealt lazily (chance.py), unless `lazy` is false: then every shuffle is
        a chance node per position at once, as histories recorded before lazy dealing were played."""
        if seed is None and setup is None and lazy and not log:
            # Always the same state (the start's first chance node, or its first decision): made once.
            first = game.__dict__.get("_lazy_start")
            if first is None:
                first = game.__dict__["_lazy_start"] = cls._made(game, None, False, None, True)
            return first.clone()
        return cls._made(game, seed, log, setup, lazy)

    @classmethod
    def _made(cls, game: Game, seed: int | None, log: bool, setup: Setup | Resolved | None, lazy: bool) -> State:
        s = _fresh(game, seed, log, resolve(game, setup), lazy)
        s._run(None, None if seed is not None else [])
        return s

    @classmethod
    def blank(cls, game: Game, seed: int | None, lazy: bool = False, setup: Resolved | None = None) -> State:
        """A state before the match starts (State.initial runs the start at once), for a replay to run the start
        as its first step (history.py); `lazy`: it deals shuffled zones lazily, as a state made without a seed
        or a setup does (chance.py)."""
        return _fresh(game, seed, False, setup, lazy)

    # Derived from the field table (fields.py) below the class.
    def clone(self) -> State:
        raise NotImplementedError

    def _copy_into(self, s: State) -> None:
        """Make `s` a copy of this state (clone's, and a step's return to the state before it)."""
        raise NotImplementedError

    def _restore(self, base: State) -> None:
        base._copy_into(self)

    # ------------------------------------------------------------ OpenSpiel-style queries
    def current_player(self) -> int:
        if self.terminal:
            return TERMINAL
        if self.pending is not None:
            return CHANCE
        return self.cur

    def is_terminal(self) -> bool:
        return self.terminal

    def is_chance_node(self) -> bool:
        return self.pending is not None and not self.terminal

    def legal_actions(self, player: int | None = None) -> list[int]:
        if self.terminal:
            return []
        if self.pending is not None:
            return list(self.pending.options)  # a copy, as below
        if player is not None and player != self.cur:
            return []
        legal = self.legal
        if legal is None:
            self.actor = self.cur
            self.game.steps[0] = self.game.step_limit
            try:
                legal = self.game.phases[self.phase].legal(self)
            except RULE_FAILURES as e:
                raise self._rule_error(e) from None
            if not legal:
                ph = self.game.phases[self.phase]
                err = RuleError(f"no legal action for {self.game.player_name(self.cur)} in phase '{ph.name}'",
                                ph.spec.span, f"deal {self.deal_no}; the rules leave this player stuck; "
                                f"{self.public_view()}", code="R002", view=self.designer_view())
                err.sources = self.game.compiled.sources
                raise err
            self.legal = legal
        return list(legal)  # a copy: callers may change theirs

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.pending is None:
            return []
        opts = self.pending.options
        return list(zip(opts, repeat(1.0 / len(opts))))

    def chance_values(self) -> list[Any]:
        """What each chance outcome of `chance_outcomes()` stands for, in the same order: the card for a card
        dealt or shuffled, the item of the list for a `pick` (whose outcomes are positions in it)."""
        p = self.pending
        if p is None:
            return []
        if p.kind == "index":
            assert p.values is not None
            return [p.values[i] for i in p.options]
        return list(p.options)

    def returns(self) -> list[float]:
        """Each seat's result: `match: returns`, or 1/k to each of k winners; all 0 before the end."""
        if not self.terminal or self.rets is None:
            return [0.0] * self.game.n
        return list(self.rets)

    def rewards(self) -> list[float]:
        """The result of the last transition: a match pays only at its end, so this is 0 for every seat until
        the terminal state, and there it is `returns()` (the sum of the rewards along a match is its returns)."""
        return self.returns()

    def action_to_string(self, player: int | None, action: int) -> str:
        if self.pending is not None:
            if self.pending.kind == "index":
                return f"chance: choice {action}"
            return f"chance: {self.game.card_names[action]}"
        return self.game.action_to_string(player, action)

    def action_from_string(self, text: str) -> int | None:
        """The action printed as `text` at this state (None if none is): when actions of different phases print
        alike, the one legal now, else one the current phase offers. AmbiguousAction if two legal ones do."""
        return self.game.codec.at_state(self, text)

    def observation(self, player: int) -> dict[str, Any]:
        return self._evaluating(observe, player)

    # ------------------------------------------------------------ history, strings, serialization
    def history(self) -> list[int]:
        """OpenSpiel's history: player actions and the chance outcomes given at chance nodes, in order. A state
        made with a seed draws its chance itself, and its history holds the player actions only."""
        return [what for who, what in entries(self.trail) if who >= CHANCE]

    def full_history(self) -> list[tuple[int, int]]:
        """The history as (player, action) pairs, the player CHANCE (-1) for chance outcomes."""
        return [(who, what) for who, what in entries(self.trail) if who >= CHANCE]

    def observation_string(self, player: int) -> str:
        """What `player` sees now (observation()), as deterministic text."""
        return infostate.observation_string(self, player)

    def information_state_string(self, player: int) -> str:
        """Everything `player` has perceived since the match began: its perfect recall, as text."""
        return self._evaluating(infostate.information_state_string, player)  # type: ignore[no-any-return]

    def serialize(self) -> str:
        """The state as text (`Game.deserialize_state` reads it back): the game, the seed and the history."""
        return serialize(self)

    def resample_from_infostate(self, player: int, rng: Any) -> State:
        """A state `player` cannot tell from this one, its hidden cards redrawn; see resample.py."""
        return resample(self, player, rng)

    # ------------------------------------------------------------ reading zones and variables
    def zone(self, name: str, player: int | None = None) -> list[str]:
        """The names of the cards in a zone, bottom first (a per-player zone needs the player)."""
        return [self.game.card_names[c] for c in self.zone_cards(name, player)]

    def zone_cards(self, name: str, player: int | None = None) -> list[int]:
        """The ids of the cards in a zone, bottom first."""
        return list(self.z[self.game.slot_of("zone", name, player)])

    def var(self, name: str, player: int | None = None) -> Any:
        """A variable's value (a per-player variable needs the player, a per-team one the team number); cards by
        id, as the rules hold them."""
        v = self.v[self.game.slot_of("variable", name, player)]
        return list(v) if isinstance(v, list) else v

    def observation_tensor(self, player: int) -> list[float]:
        """The player's observation as a fixed-size list of floats (layout: `engine/tensors.py`)."""
        return self._evaluating(tensors.observation_tensor, player)  # type: ignore[no-any-return]

    def information_state_tensor(self, player: int) -> list[float]:
        """The observation tensor followed by counts of the player's own actions (`engine/tensors.py`)."""
        return self._evaluating(tensors.information_state_tensor, player)  # type: ignore[no-any-return]

    def __str__(self) -> str:
        return self._evaluating(describe)

    def _evaluating(self, fn: Any, *args: Any) -> Any:
        """fn(self, *args), which may run the rules' `visible` expressions: their failures are rule errors."""
        self.game.steps[0] = self.game.step_limit
        try:
            return fn(self, *args)
        except RULE_FAILURES as e:
            raise self._rule_error(e) from None

    def evaluating_as(self, seat: int, fn: Any, *args: Any) -> Any:
        """fn(self, *args) with `seat` as the `player` the rules' expressions read (a strategy deciding for the
        seat to act, bots/strategy.py and bots/rollout.py)."""
        self.actor = seat
        return self._evaluating(fn, *args)

    # ------------------------------------------------------------ copies and records for other modules
    # The only ways other modules change a state's fields (tests/test_state_writers.py): each says what for.
    def reading_copy(self) -> State:
        """A copy only to read (masked.py): no legal actions cached, nothing to draw from, no history, no log."""
        t = self.clone()
        t.legal = None
        t.rng = None
        t.trail = ()
        t.log = None
        return t

    def seeded_copy(self, seed: int) -> State:
        """A copy that draws its chance from `seed` (a resample's run of a step), with the same history."""
        t = self.clone()
        t.rng = seed
        return t

    def carried_copy(self) -> State:
        """A copy to go on from where a native state was put at this position (native/position.py), as that
        state goes on: no log, and a setup that keeps only the deals dealt so far (a later deal is dealt by the
        seed alone, as the native state deals it)."""
        t = self.clone()
        t.log = None
        if t.setup is not None:
            t.setup = Resolved(t.setup.dealer, {k: d for k, d in t.setup.deals.items() if k <= self.deal_no})
        return t

    def reseed(self, seed: int) -> None:
        """From here the state draws its chance from `seed` (a resampled state draws its future afresh); the
        history records it (history.py RESEED)."""
        self.rng = seed
        self.trail = (self.trail, RESEED, seed)

    def cards_moved(self) -> None:
        """Cards were moved outside a step (a resample's swap of two cards): the legal actions cached are stale."""
        self.legal = None

    def remember(self, key: Any, value: Any) -> None:
        """Keep `value` under `key` in the state's cache of what players perceived (infostate.py, tensors.py):
        a new dict each time, since clones share it."""
        self.seen = {**(self.seen or {}), key: value}

    def _ended_copy(self) -> State:
        """The copy a deal as it ended keeps (observation.Ended): without the log, whose copy every deal would
        cost O(deals²), and without the deal before."""
        log, self.log = self.log, None
        try:
            t = self.clone()
        finally:
            self.log = log
        t.ended = None
        return t

    # ------------------------------------------------------------ stepping
    def apply_action(self, action: int) -> None:
        if self.terminal:
            raise IllegalAction("the game is over; no action can be taken")
        if self.pending is not None:
            self._chance(action)
            return
        legal = self.legal if self.legal is not None else self.legal_actions()
        if action not in legal:
            # The message reaches whoever sent the action: it names that action and where the game is,
            # never the legal ones (they would show the hand of the player to act).
            g = self.game
            name = g.action_to_string(self.cur, action) if type(action) is int and \
                0 <= action < g.num_actions else repr(action)
            raise IllegalAction(f"action {action!r} ({name}) is not legal for {g.player_name(self.cur)} in phase "
                                f"'{g.phases[self.phase].name}'")
        self.trail = (self.trail, self.cur, action)
        if self.rng is not None:
            self._guarded(action)  # a seeded state draws its own chance: no chance node can stop the step
        else:
            self._run(action, [])

    def _chance(self, action: int) -> None:
        """Apply a chance outcome: the next node of the step, or the step run again with every outcome."""
        p = self.pending
        assert p is not None
        if action not in p.options:
            raise IllegalAction(f"chance outcome {action} is not possible here")
        trail = (self.trail, CHANCE, action)
        # This state's own `pending` (clones copy it) changes in place from one node of a step to the next.
        guessed = p.guessed
        if guessed is not None:
            key, at = guessed[p.at][0], p.at + 1
            p.given.append((key, action))
            if at < len(guessed) and guessed[at][1] is None:
                # The next card of the same zone, nothing else changed: these outcomes but the one given.
                p.options.remove(action)
                p.at = at
            elif at < len(guessed):
                # The next card the run guessed: the step runs again once all of them are given.
                self.pending = guessed_node(p.base, p.action, p.given, guessed, at, p.start)
            else:
                self._restore(p.base)
                self._run_lazy(p.action, p.given, p.base)
            self.trail = trail
            return
        if p.kind == "card" and len(p.options) > 2 and self.setup is None:
            # The next card of the same shuffle: the cards left are the options, and the state is the
            # one before the step, as at every chance node. Running the step again for each card would
            # cost the square of the cards shuffled; it runs once the shuffle's last card is given.
            p.options.remove(action)
            p.given.append(action)
            self.trail = trail
            return
        self._restore(p.base)
        self.pending = None
        self._run(p.action, p.given + [action])
        self.trail = trail

    def _run_lazy(self, action: int | None, given: list[tuple[int, int]], base: State) -> None:
        """One run of a step of a lazy state (chance.py), from `base` (which this state is now), with the
        chance outcomes given so far: to its end if they are all it needs, else up to the chance nodes it
        guessed, the first of which this state then is."""
        per: dict[int, list[int]] = {}
        for key, o in given:
            per.setdefault(key, []).append(o)
        d = self.draws = Draws(per)
        try:
            self._guarded(action)
            if self.unfixed:
                fix_seen(self)
        except NeedChance:
            pass  # a pick: the guesses so far end there (Draws.picks_open)
        except RuleError:
            if not d.guessed:
                raise
            # A card the run guessed may have led here; the real ones are drawn first.
        finally:
            self.draws = None
        if d.guessed:
            self._restore(base)
            self.pending = guessed_node(base, action, given, d.guessed, 0, len(given))
            return
        leftover = d.leftover()
        if leftover:
            apply_leftover(self, leftover)

    def _may_meet_chance(self, a: int) -> bool:
        """Whether the step of action `a` from this lazy state may meet chance (steps.py)."""
        g = self.game
        r = g.step_reach.get((self.phase, a))
        if r is None:
            table = g.action_table
            run = table[a][0] if table is not None else g.action_for(a).run
            r = g.step_reach[(self.phase, a)] = step_reach(g, self.phase, run)
        if r.chance:
            return True
        un = self.unfixed
        if un:
            zones, ruled = r.zones, g.rule_visible_zones
            for zi in un:
                if zi in zones or zi in ruled:
                    return True
        return False

    def _run(self, action: int | None, outcomes: list[int] | None) -> None:
        """One step (`action`, or the match's start for None) and its chance. `outcomes` None: a seeded state
        draws its own. A list: a state without a seed takes its chance outcomes from it (a replayed history),
        and a step that needs more stops at a chance node (`pending`), to go on when `_chance` has them all;
        a lazy state deals only the cards the step reaches (`_run_lazy`)."""
        if outcomes is None:
            self._guarded(action)
            return
        if self.unfixed is not None:
            if action is not None and not self._may_meet_chance(action):
                self._guarded(action)  # no chance to meet: no copy, no bookkeeping of outcomes (steps.py)
                return
            self._run_lazy(action, [], self.clone())
            return
        base = self.clone()
        self.chance_queue = outcomes
        self.chance_pos = 0
        try:
            self._guarded(action)
        except NeedChance as nc:
            self._restore(base)
            self.pending = Pending(base, action, nc.options, nc.kind, outcomes, values=nc.values)
            return
        used = self.chance_pos
        self.chance_queue = []
        self.chance_pos = 0
        if used < len(outcomes):  # only a replayed history (history.py) can give too many
            raise IllegalAction(f"{count_of(len(outcomes) - used, 'chance outcome')} more than the step uses")

    def _guarded(self, action: int | None) -> None:
        """The step itself (flow.py), with the budget reset and a failure of rule code made a located
        `RuleError`; a chance node met (`NeedChance`) and an illegal action pass through to `_run`."""
        self.legal = None
        try:
            if action is None:
                self.game.steps[0] = self.game.step_limit
                start_match(self)
            else:
                take_action(self, action)  # which resets the budget itself
        except RuleError as e:
            e.sources = e.sources or self.game.compiled.sources
            raise
        except (NeedChance, IllegalAction):
            raise
        except RULE_FAILURES as e:
            raise self._rule_error(e) from None

    def n_active(self) -> int:
        """The players taking part in this deal: a round phase waits for each of them."""
        g = self.game
        if self.sit is g.all_seated:
            return g.n if self.out is g.none_out else g.n - self.out.count(True)
        return g.n - sum(map(or_, self.out, self.sit))

    # ------------------------------------------------------------ errors
    def _rule_error(self, e: BaseException) -> RuleError:
        span = span_of(self.game, e) or (e.at if isinstance(e, RuleRuntimeError) else None)
        g = self.game
        ctx = f"{self.where()}; {self.public_view()}"
        code = failure_code(e)
        message, detail = describe_failure(e)
        err = RuleError(message, span, ctx, code=code, detail=detail, view=self.designer_view())
        err.sources = g.compiled.sources
        return err

    def where(self) -> str:
        """Where the match is, in words any player may read (context.where)."""
        return where(self)

    def public_view(self) -> str:
        """One line of the state for error messages any player may read (context.public_view)."""
        return public_view(self)

    def designer_view(self) -> str:
        """Every zone's cards (the top eight), whoever may see them: for the designer's own tools only."""
        return designer_view(self)


_clone, _copy_into, _fresh = derive(State)
State.clone = _clone  # type: ignore[method-assign]
State._copy_into = _copy_into  # type: ignore[method-assign]
