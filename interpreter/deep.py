"""`cardsmith validate --deep`: play a rule file before trusting it.

After the static checks, random matches are played at every allowed player
count, with the default options and with each value of each option (one
option changed at a time). Every distinct runtime problem is reported once,
located in the file: a rule that fails (R001), a player left with no legal
action (R002), a match that does not end within a bound (R003), a rule that
walks too many list items (R004).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from dsl.compiler import CompiledGame
from dsl.diagnostics import Diagnostic, Span
from dsl.limits import LIMITS

from .engine import State
from .errors import GameError, RuleError
from .instance import GameInstance


@dataclass
class DeepReport:
    diagnostics: list[Diagnostic]
    games: int
    actions: int


def option_sets(compiled: CompiledGame) -> list[dict[str, Any]]:
    """The defaults, then each value of each option with the others at their defaults."""
    out: list[dict[str, Any]] = [{}]
    for o in compiled.spec.options:
        if o.kind == "choice":
            values: list[Any] = list(o.values)
        elif o.kind == "bool":
            values = [True, False]
        else:
            assert o.min is not None and o.max is not None
            values = sorted({o.min, o.max, (o.min + o.max) // 2})
        for v in values:
            out.append({o.name: v})
    return out


def explore(compiled: CompiledGame, games_per_setting: int = 3, max_actions: int = 20_000,
            seed: int = 0) -> DeepReport:
    spec = compiled.spec
    found: dict[tuple[str, Any, str], Diagnostic] = {}
    games = actions = 0
    saved = LIMITS.actions
    LIMITS.actions = max_actions
    try:
        for n in range(spec.min_players, spec.max_players + 1):
            for opts in option_sets(compiled):
                setting = f"{n} players" + "".join(f", {k}={_shown(v)}" for k, v in opts.items())
                try:
                    game = GameInstance(compiled, n, opts)
                except RuleError as e:
                    _note(found, e, setting, None, spec.root_span)
                    continue
                except GameError:
                    continue  # e.g. a default that only some options allow: reported by validate itself
                for k in range(games_per_setting):
                    game_seed = seed + 7919 * k + n
                    games += 1
                    actions += _play(game, game_seed, found, setting, spec.root_span)
    finally:
        LIMITS.actions = saved
    return DeepReport(list(found.values()), games, actions)


def _play(game: GameInstance, seed: int, found: dict[tuple[str, Any, str], Diagnostic], setting: str,
          root: Span) -> int:
    rng = random.Random(seed)
    done = 0
    try:
        s = State.initial(game, seed)
        while not s.is_terminal():
            la = s.legal_actions()
            s.apply_action(la[rng.randrange(len(la))])
            done += 1
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
    hint = f"{where}; {context}" if context else where
    found[key] = Diagnostic(e.code, span, e.message, hint)


def _shown(v: Any) -> str:
    return ("yes" if v else "no") if isinstance(v, bool) else str(v)
