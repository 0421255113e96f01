"""Errors raised while a game runs; each renders as one clear message."""

from __future__ import annotations

from collections.abc import Mapping

from ..dsl.diagnostics import Diagnostic, Span, render
from ..dsl.library import BudgetExceeded, RuleRuntimeError, _short
from .text import one_line


class GameError(Exception):
    """Base class: a problem a user can act on, shown without a traceback."""


class IllegalAction(GameError):
    """An action id that is not legal in the current state."""


class AmbiguousAction(GameError):
    """An action text that several actions legal at once print as: the text cannot say which is meant."""


class BadOption(GameError):
    """A table option that does not exist or has a value out of range."""


class SetupRefused(BadOption):
    """A table the rule file's `constraints:` refuse: the designer's message, and where the constraint is."""

    def __init__(self, message: str, span: Span | None = None):
        super().__init__(message)
        self.message = message
        self.span = span


class RuleError(GameError):
    """A rule failed while the game ran (division by zero, empty max, stuck phase...).

    Codes: R001 a rule failed, R002 a player is left with no legal action,
    R003 the match does not end, R004 a rule did more work than one move may, R005 a match went past a
    bound the rule file declares (`match: bounds`).

    What a rule error says may reach any player (`cardsmith play`, the Python API, a table on the
    network), so `message` and `context` hold nothing a player may not see: what failed, where in the
    rule file, the phase, whose turn, the deal, and the cards of zones every player sees. The values the
    failing rule computed (`detail`) and every zone's cards (`view`) can give hidden cards away: they
    are for the designer's own tools only (`cardsmith run`, `validate --deep`, scenario files), which
    print them labelled as the designer's view.
    """

    def __init__(self, message: str, span: Span | None = None, context: str = "", code: str = "R001",
                 detail: str | None = None, view: str | None = None):
        self.span = span
        self.context = context
        self.code = code
        self.detail = detail
        self.view = view
        self.sources: Mapping[str, str] | None = None  # the rule file texts, for the source line
        where = f"{span}: " if span else ""
        extra = f"\n    {context}" if context else ""
        super().__init__(f"{where}rule error: {message}{extra}")
        self.message = message

    def designer_lines(self) -> list[str]:
        """The designer's view: the values involved and every zone's cards (never for players)."""
        out = []
        if self.detail:
            out.append(f"designer's view: {self.detail}")
        if self.view:
            out.append(f"designer's view of the cards: {self.view}")
        return [one_line(x) for x in out]

    def render(self, designer: bool = False, sources: Mapping[str, str] | None = None) -> str:
        """file:line:col, the source line and a caret, then what the game was doing (and, for the designer's
        own tools, the designer's view).

        The line comes from `sources` or the texts the game was compiled from (`self.sources`, which the
        engine attaches); the file is never read again."""
        extra = "".join(f"\n    {line}" for line in self.designer_lines()) if designer else ""
        if self.span is None:
            return str(self) + extra
        texts = sources if sources is not None else self.sources or {}
        source = texts.get(self.span.file)
        d = Diagnostic(self.code, self.span, self.message, self.context or None)
        return render(d, source).replace(": error: ", ": rule error: ", 1).replace("    hint: ", "    ", 1) + extra


def describe_failure(e: BaseException) -> tuple[str, str | None]:
    """What failed, in words any player may read, and the values involved, for the designer only."""
    if isinstance(e, RuleRuntimeError):
        return str(e), e.detail
    if isinstance(e, ZeroDivisionError):
        return "division by zero", None
    if isinstance(e, IndexError):
        return "a list position that does not exist", None
    if isinstance(e, KeyError):
        return "no table entry for this key", f"key {_short(e.args[0] if e.args else None)}"
    if isinstance(e, TypeError):
        return "a value of the wrong kind", str(e)
    if isinstance(e, RecursionError):
        return "rules nested too deeply", None
    if isinstance(e, MemoryError):
        return "the rules ran out of memory", None
    return f"a rule failed ({type(e).__name__})", str(e)


class BoundExceeded(RuleRuntimeError):
    """A `pick` chose among more values than the rule file's `match: bounds: outcomes` promises (R005)."""


def failure_code(e: BaseException) -> str:
    return "R004" if isinstance(e, BudgetExceeded) else "R005" if isinstance(e, BoundExceeded) else "R001"
