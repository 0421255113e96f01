"""`cardsmith validate --deep`: play a rule file before trusting it.

After the static checks, random matches are played at every allowed player
count, with the default options and with each value of each option (one
option changed at a time). Every distinct runtime problem is reported once,
located in the file: a rule that fails (R001), a player left with no legal
action (R002), a match that does not end within a bound (R003), a rule that
walks too many list items (R004).

An action that was legal in no state of any match is a warning at its
definition (W010). A rare action (a fold in a small poker game) may not come up
in a few matches, so while one is still missing, more matches are played on
the settings already set up, in turn, up to `HUNT` of them (within the budget).

The settings (a player count and the options) are the player counts times the
option values, which a file can make huge (64 counts, a choice of thousands of
values), so the whole run has a budget of actions (`--deep-budget`), each match
counting at least `MATCH_FLOOR`. Settings are tried in an order that covers
the most first: every player count with the default options, then each option
value once (options taken in turn, player counts rotating), then the other
combinations; the report says how many settings were explored.
"""

from __future__ import annotations

import random
import re
from bisect import bisect_left
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from ..dsl.compiler import CompiledGame
from ..dsl.diagnostics import Diagnostic, Span, count_of
from ..engine.codec import ActionInfo
from ..engine.errors import GameError, RuleError, SetupRefused
from ..engine.game import Game
from ..engine.options import option_ranges
from ..engine.state import State
from .commands import DEEP_BUDGET as BUDGET  # the command line's default, shown in its help
from .commands import DEEP_MATCH_FLOOR as MATCH_FLOOR

HUNT = 100  # matches played at most, beyond --deep-games per setting, while an action was never legal
HUNT_SETTINGS = 16  # settings kept set up for those matches (the first ones: every player count first)


@dataclass
class DeepReport:
    diagnostics: list[Diagnostic]
    games: int
    actions: int
    settings: int = 0  # settings explored
    total_settings: int = 0  # settings there are
    refused: int = 0  # settings explored that the rules' constraints refuse
    never_legal: list[str] = field(default_factory=list)  # actions legal in no state of any match, in file order


def _option_values(compiled: CompiledGame) -> list[list[dict[str, Any]]]:
    """For each option, one setting per value it can take."""
    out: list[list[dict[str, Any]]] = []
    for o in compiled.spec.options:
        if o.kind == "choice":
            values: list[Any] = list(o.values)
        elif o.kind == "bool":
            values = [True, False]
        elif o.min is not None and o.max is not None:
            values = sorted({o.min, o.max, (o.min + o.max) // 2})
        else:  # a range worked out for the player count: its ends and middle there (`_resolve`)
            values = [_End("min"), _End("mid"), _End("max")]
        out.append([{o.name: v} for v in values])
    return out


@dataclass(frozen=True)
class _End:
    """The lowest, middle or highest value of an int option whose range depends on the player count."""
    which: str


def _resolve(compiled: CompiledGame, n: int, opts: dict[str, Any],
             cache: dict[int, dict[str, tuple[int, int]] | None]) -> dict[str, Any] | None:
    """`opts` with each `_End` replaced by its value at n players (the other options at their defaults), or
    None if the game cannot be set up there to tell."""
    if not any(isinstance(v, _End) for v in opts.values()):
        return opts
    if n not in cache:
        cache[n] = option_ranges(compiled, n)
    ranges = cache[n]
    out: dict[str, Any] = {}
    for k, v in opts.items():
        if isinstance(v, _End):
            if ranges is None or k not in ranges:
                return None
            lo, hi = ranges[k]
            v = lo if v.which == "min" else hi if v.which == "max" else (lo + hi) // 2
        out[k] = v
    return out


def settings(compiled: CompiledGame) -> tuple[int, Iterator[tuple[int, dict[str, Any]]]]:
    """How many settings there are, and all of them in the order to try them (made as needed)."""
    spec = compiled.spec
    counts = list(range(spec.min_players, spec.max_players + 1))
    per_option = _option_values(compiled)
    # Each option value once, the options taken in turn, so a choice of thousands of values does not
    # starve the options after it.
    turns = [vs[i] for i in range(max((len(vs) for vs in per_option), default=0)) for vs in per_option
             if i < len(vs)]

    def order() -> Iterator[tuple[int, dict[str, Any]]]:
        for n in counts:
            yield n, {}
        for shift in range(len(counts)):
            for k, opts in enumerate(turns):
                yield counts[(k + shift) % len(counts)], opts

    return len(counts) * (1 + len(turns)), order()


def explore(compiled: CompiledGame, games_per_setting: int = 3, max_actions: int = 20_000,
            seed: int = 0, budget: int = BUDGET, wanted: set[str] | None = None,
            progress: Callable[[int], None] | None = None) -> DeepReport:
    """Play the settings in turn (see the module's docstring). `wanted`: the actions whose legality is
    followed (default all; one that no phase entered lists cannot be legal, and is not hunted for).
    `progress(1)` is called as each setting is done (`settings()` says how many there are)."""
    spec = compiled.spec
    found: dict[tuple[str, Any, str], Diagnostic] = {}
    games = actions = explored = refused = 0
    spent = 0
    ranges: dict[int, dict[str, tuple[int, int]] | None] = {}
    total, order = settings(compiled)
    if progress is not None:
        order = _ticking(order, progress)
    unseen = {a.name for a in spec.actions} if wanted is None else set(wanted)  # not yet legal in any state
    playable: list[tuple[int, Game, str]] = []  # settings set up, for the hunt
    # The compiled file's limits, but a match here is cut short at `max_actions`.
    limits = replace(compiled.limits, actions=max_actions)
    for n, opts in order:
        if spent >= budget:
            break
        explored += 1
        resolved = _resolve(compiled, n, opts, ranges)
        if resolved is None:
            spent += MATCH_FLOOR
            continue  # the game cannot be set up at this count: reported by validate itself
        opts = resolved
        setting = count_of(n, "player") + "".join(f", {k}={_shown(v)}" for k, v in opts.items())
        try:
            game = Game(compiled, n, opts, limits=limits)
        except RuleError as e:
            _note(found, e, setting, None, spec.root_span)
            spent += MATCH_FLOOR
            continue
        except SetupRefused:
            refused += 1  # a table the rules' constraints refuse: nothing to play
            spent += MATCH_FLOOR
            continue
        except GameError:
            spent += MATCH_FLOOR
            continue  # e.g. a default that only some options allow: reported by validate itself
        if len(playable) < HUNT_SETTINGS:
            playable.append((n, game, setting))
        for k in range(games_per_setting):
            if k and spent >= budget:
                break
            game_seed = seed + 7919 * k + n
            games += 1
            done = _play(game, game_seed, found, setting, spec.root_span, unseen)
            actions += done
            spent += max(done, MATCH_FLOOR)
    hunted = 0
    while unseen and playable and spent < budget and hunted < HUNT:
        n, game, setting = playable[hunted % len(playable)]
        game_seed = seed + 7919 * (games_per_setting + hunted // len(playable)) + n
        hunted += 1
        games += 1
        done = _play(game, game_seed, found, setting, spec.root_span, unseen)
        actions += done
        spent += max(done, MATCH_FLOOR)
    never = [a.name for a in spec.actions if a.name in unseen] if games else []
    return DeepReport(list(found.values()), games, actions, explored, total, refused, never)


def _ticking(order: Iterator[tuple[int, dict[str, Any]]],
             progress: Callable[[int], None]) -> Iterator[tuple[int, dict[str, Any]]]:
    """The settings of `order`, calling `progress(1)` when the loop asks for the next one: the one before is
    done then, whichever `continue` ended it."""
    for item in order:
        yield item
        progress(1)


def never_legal(compiled: CompiledGame, report: DeepReport) -> list[Diagnostic]:
    """W010 for each action of `report.never_legal`, at the action's definition."""
    played = f"{count_of(report.games, 'random match')} ({count_of(report.actions, 'action')})"
    return [Diagnostic("W010", a.span, f"action '{a.name}' was never legal in the {played} played",
                       "no player could take it in any state those matches reached: check its 'when' and the "
                       "lists its parameters range over", severity="warning")
            for a in compiled.spec.actions if a.name in report.never_legal]


def _newly_legal(la: list[int], pending: list[ActionInfo], unseen: set[str]) -> list[ActionInfo]:
    """Strike from `unseen` the actions of `pending` that have an id in `la` (sorted); the others."""
    left = []
    for info in pending:
        i = bisect_left(la, info.offset)
        if i < len(la) and la[i] < info.offset + info.size:
            unseen.discard(info.name)
        else:
            left.append(info)
    return left


def _play(game: Game, seed: int, found: dict[tuple[str, Any, str], Diagnostic], setting: str,
          root: Span, unseen: set[str]) -> int:
    rng = random.Random(seed)
    done = 0
    pending = [a for a in game.actions if a.name in unseen]
    try:
        # With a log, as `run` plays: the values of `log` steps and reports are worked out too (and fail
        # here if they would fail there); the log itself is not kept.
        s = State.initial(game, seed, log=True)
        while not s.is_terminal():
            la = s.legal_actions()
            if pending and not s.is_chance_node():
                pending = _newly_legal(la, pending, unseen)
            s.apply_action(la[rng.randrange(len(la))])
            done += 1
            if s.log:
                s.log.clear()
    except RuleError as e:
        _note(found, e, setting, seed, root)
    return done


def _note(found: dict[tuple[str, Any, str], Diagnostic], e: RuleError, setting: str, seed: int | None,
          root: Span) -> None:
    span = e.span or root
    key = (e.code, (span.file, span.line, span.col), re.sub(r"\bP\d+\b", "P?", e.message))
    if key in found:
        return
    where = f"with {setting}" + (f", seed {seed}" if seed is not None else "")
    context = e.context.replace("--max-actions", "--deep-actions") if e.code == "R003" else e.context
    # --deep is the designer's own tool: the hint adds the designer's view (the values, every zone's cards).
    hint = "; ".join([where] + ([context] if context else []) + e.designer_lines())
    found[key] = Diagnostic(e.code, span, e.message, hint)


def _shown(v: Any) -> str:
    return ("yes" if v else "no") if isinstance(v, bool) else str(v)
