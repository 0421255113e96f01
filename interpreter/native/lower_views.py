"""What each player sees, lowered: the plan of `engine/observation.py` (`_plan`) with its `visible` rules as
native functions, and the winners the observation shows at the end. The native `observe` (view.h) writes
from it the words that `NativeState.observation` reads back (wrapper.py, `views.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..dsl import types as T
from ..engine.observation import NOBODY, RULE, _plan
from .ir import Unsupported

if TYPE_CHECKING:
    from .lower import Lowering


def lower_views(lo: Lowering, game: Any) -> dict[str, Any]:
    """{"zones": [(how, owner, fid)], "vars": [(how, owner, fid, kind, slot)], "winners": fid}: a zone or
    variable by its index in `game.zone_names` / `game.var_names`; owner -1 for none, fid -1 for no rule."""
    zplan, vplan = _plan(game)
    zones = []
    for zi, (_name, how, owner, _rule) in enumerate(zplan):
        spec = game.zone_specs[zi]
        fid = _rule_func(lo, f"sees_zone_{zi}", spec.visible) if how == RULE else -1
        zones.append((how, -1 if owner is None else owner, fid))
    variables = []
    for vi, (_name, how, owner, _rule, ty) in enumerate(vplan):
        spec, _ = game.var_specs[vi]
        k, base = lo.vslot(spec)
        if k == "l" and T.is_list(ty) and ty.item == T.NUM:
            raise Unsupported("a variable of a list of numbers with decimals")
        per = spec.per_player or spec.per_team
        slot = vi if k == "i" else base + (owner if per and owner is not None else 0)
        fid = _rule_func(lo, f"sees_var_{vi}", spec.visible) if how == RULE else -1
        variables.append((how, -1 if owner is None else owner, fid, k, slot))
    m = lo.spec.match
    winners = lo.block_func("winners", [], None, m.winners) if m.winners is not None else -1
    if winners >= 0 and lo.funcs[winners].ret != "l":
        raise Unsupported("winners that are no list of players")
    return {"zones": zones, "vars": variables, "winners": winners}


def _rule_func(lo: Lowering, name: str, expr: Any) -> int:
    """A `visible` rule as a function of its slot's owner that gives a list of players."""
    fi = lo.block_func(name, ["owner"], None, expr)
    if lo.funcs[fi].ret != "l":
        raise Unsupported("a visible rule that is no list of players")
    return fi


def fix_zones(game: Any, shuffled: set[str]) -> list[int]:
    """The zones a lazy step decides at its end (chance.py fix_seen): those a query reads the order of or a
    player may see. A zone seen by a rule of its own is refused if it is ever shuffled."""
    out = []
    for zi, (_name, how, _owner, _rule) in enumerate(_plan(game)[0]):
        if how == RULE and game.zone_specs[zi].name in shuffled:
            raise Unsupported("a shuffled zone whose visibility is a rule")
        if zi in game.queried_zones or how not in (NOBODY, RULE):
            out.append(zi)
    return out
