"""Where a match is and what any player may see of it, in words: the context of a rule error, and the
rule-file span of the generated code that failed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..dsl.diagnostics import Span, count_of

if TYPE_CHECKING:
    from .game import Game
    from .state import State

# Where a match is between decisions, for the context of a rule error: the phase of `State.phase` is
# where the game is only once it has been entered (`match: start` and `match: deal` run before any
# phase of the deal, `end_deal` after the last one), so `State.stage` says which of these is running.
IN_PHASE, STARTING, DEALING, ENDING_DEAL, OVER = "phase", "start", "deal", "end_deal", "over"


def where(s: State) -> str:
    """Where the match is, in words any player may read: the phase and the player to act once a phase has
    been entered; otherwise the stage of the match that is running (no phase of the deal is entered yet
    while dealing, and `State.phase` still names the previous deal's)."""
    g = s.game
    stage = s.stage
    if stage == IN_PHASE:
        return f"in phase '{g.phases[s.phase].name}', {g.player_name(s.cur)} to play, deal {s.deal_no}"
    if stage == STARTING:
        return "while the match starts, before the first deal"
    if stage == DEALING:
        return f"while dealing deal {s.deal_no} (dealer {g.player_name(s.dealer)})"
    if stage == ENDING_DEAL:
        return f"at the end of deal {s.deal_no}"
    return f"after the match ended, in deal {s.deal_no}"


def public_view(s: State) -> str:
    """One line of the state for error messages any player may read: the top cards of zones that every
    player sees, and how many cards the others hold (a count is in every observation)."""
    g = s.game
    parts = []
    for zi, name in enumerate(g.zone_names):
        owner = g.zone_owner[zi]
        if owner is not None and owner != s.cur:
            continue
        cards = s.z[zi]
        if g.zone_specs[zi].visible == "everyone" and cards:
            more = f"{len(cards) - 4} more, " if len(cards) > 4 else ""
            parts.append(f"{name}: {more}{', '.join(g.card_names[c] for c in cards[-4:])}")
        else:
            parts.append(f"{name}: {_cards(len(cards))}")
    return "; ".join(parts)


def designer_view(s: State) -> str:
    """Every zone's cards (the top eight), whoever may see them: for the designer's own tools only."""
    g = s.game
    parts = []
    for zi, name in enumerate(g.zone_names):
        cards = s.z[zi]
        if cards:
            more = f"{len(cards) - 8} more, " if len(cards) > 8 else ""
            parts.append(f"{name}: {more}{', '.join(g.card_names[c] for c in cards[-8:])}")
    return "; ".join(parts) or "every zone is empty"


def _cards(n: int) -> str:
    return "empty" if n == 0 else count_of(n, "card")


def span_of(game: Game, e: BaseException) -> Span | None:
    """The rule-file span of the innermost generated code in the traceback: the innermost AST node around
    the instruction that failed (the compiler's positions map), else the span of its line."""
    comp = game.compiled
    tb = e.__traceback__
    last = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == comp.filename:
            last = tb
        tb = tb.tb_next
    if last is None:
        return None
    found = _node_at(comp, last.tb_frame.f_code, last.tb_lasti)
    if found is not None:
        return found
    # The nearest mapped line at or above the failing one.
    for ln in range(last.tb_lineno, 0, -1):
        if ln in comp.line_map:
            return comp.line_map[ln]
    return None


def _node_at(comp: Any, code: Any, lasti: int) -> Span | None:
    """The span of the smallest recorded node whose code holds the instruction at `lasti` of `code`."""
    if lasti < 0 or not comp.positions:
        return None
    try:
        line0, line1, col0, col1 = list(code.co_positions())[lasti // 2]
    except (IndexError, ValueError):
        return None
    if line0 is None or line1 is None or col0 is None or col1 is None:
        return None
    best: Span | None = None
    size = None
    for l0, c0, l1, c1, span in comp.positions:
        if (l0, c0) <= (line0, col0) and (line1, col1) <= (l1, c1):
            extent = (l1 - l0, c1 - c0 if l1 == l0 else c1)
            if size is None or extent < size:
                best, size = span, extent
    return best
