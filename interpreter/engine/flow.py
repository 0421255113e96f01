"""How a match moves on: one action's step, phase entries, and the starts and ends of deals and the match.

`State` (state.py) is the position and its OpenSpiel-shaped interface; these are the rules of the turn engine
that change it. `take_action` runs the chosen action's effects, the phase's `after` steps, counts the turn of a
round phase and moves the turn on; whatever it returns (a `goto` or `end deal`) is followed by `transfer`
through phase entries, deal ends and new deals. Each is called with the step budget already reset
(`State._guarded`), and each charges its own work to it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..dsl.abi import END_DEAL
from ..dsl.diagnostics import count_of
from ..dsl.library import RuleRuntimeError
from .budget import over
from .chance import fix_seen
from .context import DEALING, ENDING_DEAL, IN_PHASE, OVER
from .errors import RuleError
from .observation import Ended
from .returns import final_returns
from .runtime import _next_active, _next_in_match, _prev_active, _shown, _team
from .setup import deal as stacked_deal

if TYPE_CHECKING:
    from .state import State

__all__ = ["MAX_TRANSFERS", "end_deal", "seat_teams", "start_deal", "start_match", "take_action", "transfer"]

# A step that passes through more phase entries than this is a goto loop.
MAX_TRANSFERS = 10_000


def take_action(s: State, a: int) -> None:
    g = s.game
    table = g.action_table
    if table is not None:
        run, offset = table[a]
    else:
        info = g.action_for(a)
        run, offset = info.run, info.offset
    s.actor = s.cur
    s.moves += 1
    if s.moves > g.action_limit:
        if g.declared.actions == g.action_limit:
            b = g.spec.match.bounds
            raise RuleError(f"the match passed {count_of(g.action_limit, 'action')}, the most that 'actions' of "
                            f"the match's 'bounds' declares: phase '{g.phases[s.phase].name}' repeats "
                            f"{_recent_actions(s)}", b.actions.span if b is not None and b.actions is not None
                            else None, "raise the bound in the rule file if such a match is right", code="R005")
        raise RuleError(f"the match passed {count_of(g.limits.actions, 'action')} "
                        f"without ending: phase "
                        f"'{g.phases[s.phase].name}' repeats {_recent_actions(s)}",
                        g.phases[s.phase].spec.span, g.limits.hint("actions"), code="R003")
    g.steps[0] = g.step_limit
    if s.log is not None:
        s.log.append(("action", s.cur, g.action_to_string(s.cur, a), g.public_action_string(a)))
    r = run(s, a - offset)
    ph = g.phases[s.phase]
    if r is None and ph.after is not None:
        r = ph.after(s)
    if r is None:
        if ph.round:
            s.turns += 1
            if s.turns >= s.n_active():
                r = ph.end(s)
                if r is None:
                    raise RuleError(f"round phase '{ph.name}' ended without 'goto' or 'end deal'",
                                    ph.spec.span)
        if r is None:
            nxt = ph.next
            if nxt == "clockwise":
                s.cur = _next_active(s, s.cur)
            elif nxt == "counterclockwise":
                s.cur = _prev_active(s, s.cur)
            if ph.then is not None:
                r = ph.then
    if r is not None:
        transfer(s, r)

def _recent_actions(s: State) -> str:
    names: list[str] = []
    h = s.trail
    while h and len(names) < 12:
        h, who, a = h
        if who >= 0:
            names.append(s.game.action_for(a).name)
    names.reverse()
    distinct = list(dict.fromkeys(names))
    return "the actions " + ", ".join(distinct) if distinct else "without actions"

def transfer(s: State, r: int | None) -> None:
    g = s.game
    steps = g.steps
    hops = 0
    while r is not None and not s.terminal:
        hops += 1
        steps[0] -= 1  # a phase entry or a new deal is work: goto and deal loops use up the budget
        if steps[0] < 0:
            e = over(g.step_limit)
            e.at = g.phases[r].spec.span if r >= 0 else g.spec.match.span
            raise e
        if hops > MAX_TRANSFERS:
            raise RuleError("phases jump to each other without any player acting (a goto loop)",
                            g.phases[s.phase].spec.span)
        if r >= 0:
            s.phase = r
            s.stage = IN_PHASE
            s.turns = 0
            ph = g.phases[r]
            if ph.first is not None:
                s.cur = ph.first(s)
            r = ph.start(s) if ph.start is not None else None
            if r is None and (s.out[s.cur] or s.sit[s.cur]):
                s.cur = _next_active(s, s.cur)
        elif r == END_DEAL:
            r = end_deal(s)
    s.legal = None

def start_match(s: State) -> None:
    g = s.game
    for i, const, vo in g.var_init:
        s.v[i] = const if vo is None else g.initial_value(vo[0], s, vo[1])
    s.actor = s.dealer
    seat_teams(s)
    r = g.match_start(s)
    if r is not None:
        raise RuleError("'match: start' may not goto a phase; 'match: deal' does that", g.spec.match.span)
    if s.setup is not None and s.setup.dealer is not None:
        s.dealer = s.setup.dealer
    transfer(s, start_deal(s))

def start_deal(s: State) -> int:
    g = s.game
    s.stage = DEALING
    s.deal_no += 1
    s.sit = g.all_seated
    seat_teams(s)
    for i, const, vo in g.deal_init:
        s.v[i] = const if vo is None else g.initial_value(vo[0], s, vo[1])
    s.actor = s.dealer
    if s.log is not None:
        s.log.append(("deal", s.deal_no, s.dealer))
    fixed = s.setup.deals.get(s.deal_no) if s.setup is not None else None
    r = g.match_deal(s) if fixed is None else stacked_deal(s, fixed)
    if r is None:
        raise RuleError("'match: deal' must end with 'goto' a phase", g.spec.match.span)
    if r == END_DEAL:
        # A deal may end at once (e.g. a hand revealed on the deal); that is the rule file's call.
        return END_DEAL
    return int(r)

def end_deal(s: State) -> int | None:
    g = s.game
    s.stage = ENDING_DEAL
    s.actor = s.dealer
    if s.log is not None:
        rows = []
        for label, fn, kind, span in g.reports:
            try:
                rows.append((label, [_shown(s, fn(s, p), kind) for p in range(g.n)]))
            except RuleRuntimeError as e:
                e.at = e.at or span  # a value the report gave that cannot be shown: the report is at fault
                raise
        s.log.append(("end_deal", s.deal_no, rows))
    r = g.match_end_deal(s)
    if r is not None:
        raise RuleError("'match: end_deal' may not goto a phase or end the deal again", g.spec.match.span)
    if s.log is not None:
        s.log.append(("scores", s.deal_no))
    # Whether the match is over, who won and the returns are one question of a state that does not
    # change meanwhile: the rules' functions of the state remember their values through it.
    g.question[0] = {}
    try:
        over = g.over_when(s) if g.over_when is not None else False
        over = bool(over) or (g.max_deals is not None and s.deal_no >= g.max_deals)
        if over:
            s.winners = sorted(set(g.winners(s))) if g.winners is not None else []
            s.rets = final_returns(s)
    finally:
        g.question[0] = None
    if not over:
        if s.unfixed:
            fix_seen(s)  # what the players see of the deal as it ended is decided
        s.ended = Ended(s._ended_copy())
        if s.trace is not None:  # resampling: the shuffles before this point made the deal that ended
            s.trace.append(("ended",))
    if over:
        s.terminal = True
        s.stage = OVER
        if s.log is not None:
            s.log.append(("over", s.winners, s.rets))
        return None
    s.dealer = g.next_dealer(s) if g.next_dealer is not None else _next_in_match(s, s.dealer)
    return start_deal(s)

def seat_teams(s: State) -> None:
    """The teams of `players: teams` (each seat its own team without it), at the start of the match and
    of every deal: sides formed during a deal (team[p] = t) last until the deal ends."""
    g = s.game
    if g.teams_of is None:
        s.team = g.own_teams
        return
    s.actor = s.dealer
    try:
        s.team = [_team(g.teams_of(s, p), g.n) for p in range(g.n)]
    except RuleRuntimeError as e:
        e.at = e.at or (g.spec.teams.span if g.spec.teams is not None else None)  # a value out of range
        raise

