"""Which steps of a state that deals lazily may meet chance, so that only those keep a copy to go back to.

A lazy step that meets chance (chance.py) runs again from the state before it once its outcomes are given,
so it needs a copy of that state; a step that cannot meet chance needs none, and most player actions
cannot: a card played in a trick game touches no shuffled zone and no `pick`. What a step may do is read
off the generated code (dsl/codegen/reach.py: the zones, phases, the end of a deal and the card helpers
each function may reach): the action's effects, the phase's `after` and a round's end, the phases it may
enter (their `first` and `start`), and, if it may end the deal, what ending a deal runs (the next deal
only if the match may go on). The answer is conservative: a step that might meet chance keeps its copy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..dsl import abi
from ..dsl import ast as A

if TYPE_CHECKING:
    from .game import Game

# What meets chance wherever the state stands: a pick, and a shuffle (whose cards the step may then draw).
_ALWAYS = frozenset(abi.CHANCE_HELPERS)


@dataclass(frozen=True)
class StepReach:
    """What one step may do: meet chance whatever the state (`chance`), and which zones it names. A step from a
    state with undecided blocks (chance.py) may meet chance too if it names one of their zones, or one's
    visibility is a rule whose answer the step may change (the zone is then decided at its end):
    `State._may_meet_chance`."""

    chance: bool
    zones: frozenset[int]


def step_reach(g: Game, phase: int, run: Any) -> StepReach:
    """What the step of action function `run` in phase `phase` may do (the state keeps it per action id in
    `game.step_reach`)."""
    return _work_out(g, phase, run.__name__)


def _work_out(g: Game, phase: int, run: str) -> StepReach:
    reach: dict[str, frozenset[str]] = g.compiled.reach
    spec = g.spec
    ph = spec.phases[phase]
    names: set[str] = set(reach.get(run, ()))
    for fn in (abi.phase_after(ph.name), abi.phase_end(ph.name)):
        names |= reach.get(fn, frozenset())
    if ph.then:
        names.add(abi.phase_number(ph.then[0]))
    # The phases the step may enter, and those their entries may enter in turn.
    entered: set[str] = set()
    todo = [n for n in names if n.startswith(abi.phase_number(""))]
    numbers = {abi.phase_number(p.name): p for p in spec.phases}
    while todo:
        number = todo.pop()
        if number in entered or number not in numbers:
            continue
        entered.add(number)
        p = numbers[number]
        more = reach.get(abi.phase_first(p.name), frozenset()) | reach.get(abi.phase_start(p.name), frozenset())
        names |= more
        todo += [n for n in more if n.startswith(abi.phase_number("")) and n not in entered]
    if abi.END_DEAL_NAME in names:
        names |= _deal_end(g)
    zones: set[int] = set()
    for z in spec.zones:
        if abi.zone(z.name) in names:
            first = g.ns[abi.zone(z.name)]
            zones.update(range(first, first + (g.n if z.per_player else 1)))
    return StepReach(bool(names & _ALWAYS), frozenset(zones))


def _deal_end(g: Game) -> set[str]:
    """What ending a deal may run: its end, the match's end, and the next deal unless every deal ends the
    match (`over_when: true` or one deal at most)."""
    reach: dict[str, frozenset[str]] = g.compiled.reach
    m = g.spec.match
    fns = [abi.MATCH_END_DEAL, abi.MATCH_OVER_WHEN, abi.MATCH_WINNERS, abi.MATCH_RETURNS]
    fns += [abi.report(k) for k in range(len(m.report))]
    names: set[str] = set()
    for fn in fns:
        names |= reach.get(fn, frozenset())
    one_deal = (isinstance(m.over_when, A.Const) and m.over_when.value is True) or m.max_deals == 1
    if not one_deal:
        names |= _ALWAYS  # the next deal: assume it shuffles, picks and enters any phase
        names.update(abi.zone(z.name) for z in g.spec.zones)
    return names
