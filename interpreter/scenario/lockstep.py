"""Scenarios on the native backend: each scenario runs on the Python backend as `cardsmith test` runs it (the
reference), and a native state follows it in lockstep.

The native state is put at the Python state's position once the setup has dealt (position transfer,
native/position.py: `set:` moves cards and sets variables outside the match's history, so no replay would put
it there), and again after each later deal a `deals:` setup fixes (the Python backend stacks that deal; the
native state would deal it from the seed alone). Every action of the scenario, legal or to be refused, is
asked of both; after each the two must agree on the whole position, the player to act, the legal actions, the
returns and every player's observation and observation string. A disagreement fails the scenario, saying
where. A game the native backend does not cover (`NativeUnavailable`, a position it cannot hold) is reported as
such, never passed."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..dsl.diagnostics import RuleFileError, Span
from ..dsl.files import named_path
from ..dsl.limits import DEFAULT_LIMITS, Limits
from ..dsl.pipeline import compile_file, compile_named
from ..engine.errors import GameError, IllegalAction
from ..native.backend import NativeGame, NativeUnavailable, native_game
from ..native.position import PositionError, native_at, position
from .reading import Scenario, ScenarioFile
from .runner import ScenarioFailure, _Runner, run_one

PASSED, FAILED, UNSUPPORTED = "passed", "failed", "unsupported"


@dataclass
class LockstepResult:
    """A scenario run in lockstep: `outcome` PASSED, FAILED (the scenario itself, or a disagreement of the
    backends: `message` says which) or UNSUPPORTED (the native backend cannot take it: `message` says why)."""

    name: str
    span: Span
    outcome: str
    message: str = ""


class Unplayable(Exception):
    """The native backend cannot take this scenario (a construct it does not cover, a position it cannot
    hold): reported as unsupported, never as passed."""


class Natives:
    """The native games of one rule file, one per player count and options, built (or found in the cache) once."""

    def __init__(self, path: Path, compiled: Any, limits: Limits) -> None:
        self.path = path
        self.compiled = compiled
        self.limits = limits
        self.games: dict[tuple[int, tuple[tuple[str, Any], ...]], NativeGame | NativeUnavailable] = {}

    def get(self, n: int, options: dict[str, Any]) -> NativeGame:
        key = (n, tuple(sorted(options.items())))
        if key not in self.games:
            try:
                self.games[key] = native_game(self.path, self.compiled, n, dict(options), self.limits)
            except NativeUnavailable as e:
                self.games[key] = e
        got = self.games[key]
        if isinstance(got, NativeUnavailable):
            raise Unplayable(got.reason)
        return got


class LockstepRunner(_Runner):
    """The scenario runner with a native state following its Python state."""

    def __init__(self, sf: ScenarioFile, sc: Scenario, compiled: Any, natives: Natives) -> None:
        super().__init__(sf, sc, compiled)
        self.natives = natives
        self.native: Any = None
        self.native_game: NativeGame
        self.steps = 0  # actions applied, for the messages

    def started(self) -> None:
        self.native_game = self.natives.get(self.game.n, self.game.options)
        self.carry("once the setup has dealt")
        self.compare("once the setup has dealt")

    def carry(self, when: str) -> None:
        try:
            self.native = native_at(self.native_game, self.state)
        except PositionError as e:
            raise Unplayable(f"the native state cannot be put at the position {when}: {e}") from None

    def disagree(self, message: str) -> ScenarioFailure:
        return self.fail(None, f"the native backend disagrees {message}")

    def apply(self, a: int) -> None:
        s, t = self.state, self.native
        step = f"at action {self.steps + 1} ({self.said(a)!r})"
        legal = t.legal_actions() if not t.is_terminal() else []
        deal = s.deal_no
        try:
            super().apply(a)
        except IllegalAction:
            if a in legal:
                raise self.disagree(f"{step}: the Python backend refuses it, the native backend takes it") from None
            raise
        except GameError as e:  # the rules failed: the native backend must refuse it too, with the same words
            try:
                t.clone().apply_action(a)
            except GameError as f:
                if str(f) != str(e):
                    raise self.disagree(f"{step}: the native backend fails with {str(f)!r}") from None
                raise
            raise self.disagree(f"{step}: the Python backend fails ({e}); the native backend takes it") from None
        if a not in legal:
            raise self.disagree(f"{step}: the native backend refuses it (legal there: {legal[:12]})")
        t.apply_action(a)
        self.steps += 1
        fixed = s.setup.deals if s.setup is not None else {}
        if any(deal < k <= s.deal_no for k in fixed):
            # The Python backend stacked the deal that started: the deal that ended must agree, and the native
            # state is put at the stacked position.
            self.compare_ended(step)
            self.carry(f"after the fixed deal {s.deal_no}")
        self.compare(step)

    def said(self, a: int) -> str:
        """An action as `cardsmith run` prints it (its id, where it prints as nothing)."""
        try:
            return self.game.action_to_string(self.state.current_player(), a)
        except GameError:
            return str(a)

    def compare_ended(self, step: str) -> None:
        lay = self.native_game.position_layout
        words = position(self.native)
        if words is None:
            raise self.disagree(f"{step}: its chance step is half drawn")
        ours = [p for p in lay.sections(words) if p[0].startswith("the deal as it ended")]
        theirs = [p for p in lay.sections(lay.words(self.state)) if p[0].startswith("the deal as it ended")]
        for (name, x), (_, y) in zip(theirs, ours):
            if x != y:
                raise self.disagree(f"{step}: {name}: Python {list(x)}, native {list(y)}")
        if len(ours) != len(theirs):
            raise self.disagree(f"{step}: on whether a deal has ended")

    def compare(self, when: str) -> None:
        s, t, g = self.state, self.native, self.game
        lay = self.native_game.position_layout
        words = position(t)
        if words is None:
            raise self.disagree(f"{when}: its chance step is half drawn")
        diff = lay.difference(lay.words(s), words)
        if diff is not None:
            raise self.disagree(f"{when} on the position: {diff} (Python, native)")
        if s.current_player() != t.current_player():
            raise self.disagree(f"{when} on the player to act: {s.current_player()} against {t.current_player()}")
        if s.is_terminal() != t.is_terminal():
            raise self.disagree(f"{when} on whether the match is over")
        if not s.is_terminal() and s.legal_actions() != t.legal_actions():
            raise self.disagree(f"{when} on the legal actions: {s.legal_actions()[:12]} against "
                                f"{t.legal_actions()[:12]}")
        if s.returns() != t.returns():
            raise self.disagree(f"{when} on the returns: {s.returns()} against {t.returns()}")
        for p in range(g.n):
            if s.observation(p) != t.observation(p):
                raise self.disagree(f"{when} on {g.player_name(p)}'s observation")
            if s.observation_string(p) != t.observation_string(p):
                raise self.disagree(f"{when} on {g.player_name(p)}'s observation string")


def rules_path(sf: ScenarioFile) -> Path:
    """The rule file a scenario file names (a bundled game's file, or its `game:` path)."""
    if sf.bundled:
        return Path(sf.rules)
    target = named_path(sf.path, sf.game)
    if isinstance(target, str):
        raise GameError(f"{sf.game!r} is not the name of a .yaml rule file")
    return Path(target.path)


def run_lockstep(sf: ScenarioFile, only: str | None = None,
                 limits: Limits = DEFAULT_LIMITS) -> list[LockstepResult]:
    """The scenarios of a read scenario file (only those named `only`), each in lockstep on both backends."""
    if sf.bundled:
        loaded = compile_file(sf.rules, limits)
    else:
        assert sf.game_span is not None
        loaded = compile_named(sf.path, sf.game, sf.game_span, "T002", "T004", limits)
    if not loaded.ok or loaded.game is None:
        raise RuleFileError(loaded.diagnostics, {sf.path: sf.source, **loaded.sources})
    natives = Natives(rules_path(sf), loaded.game, limits)
    out = []
    for sc in sf.scenarios:
        if only is not None and sc.name != only:
            continue
        runner = LockstepRunner(sf, sc, loaded.game, natives)
        try:
            r = run_one(sf, sc, loaded.game, runner)
        except Unplayable as e:
            out.append(LockstepResult(sc.name, sc.span, UNSUPPORTED, str(e)))
            continue
        out.append(LockstepResult(r.name, r.span, PASSED if r.ok else FAILED, r.message))
    return out


def main(argv: list[str] | None = None) -> int:
    """`python -m cardsmith.scenario.lockstep SCENARIO... [--only NAME] [-v]`: each scenario on both backends,
    a line for each that failed or that the native backend cannot take, then the counts; exit 1 if any failed."""
    import argparse

    from ..engine.text import say
    from .reading import read

    ap = argparse.ArgumentParser(prog="python -m cardsmith.scenario.lockstep",
                                 description="run scenario files on the Python and native backends in lockstep")
    ap.add_argument("files", nargs="+", metavar="SCENARIO")
    ap.add_argument("--only", metavar="NAME", help="run only the scenarios with this name")
    ap.add_argument("--verbose", "-v", action="store_true", help="a line for every scenario, passed or not")
    args = ap.parse_args(argv)
    counts = {PASSED: 0, FAILED: 0, UNSUPPORTED: 0}
    for f in args.files:
        try:
            results = run_lockstep(read(f), args.only)
        except RuleFileError as e:
            print(e.render())
            counts[FAILED] += 1
            continue
        for r in results:
            counts[r.outcome] += 1
            if r.outcome == FAILED:
                say(f"FAIL  {r.span}: {r.name}: {r.message}")
            elif r.outcome == UNSUPPORTED:
                say(f"UNSUPPORTED  {r.span}: {r.name}: {r.message}")
            elif args.verbose:
                say(f"ok    {f}: {r.name}")
    say(f"{counts[PASSED]:,} passed, {counts[FAILED]:,} failed, {counts[UNSUPPORTED]:,} unsupported by the native "
        "backend")
    return 1 if counts[FAILED] else 0


if __name__ == "__main__":
    raise SystemExit(main())
