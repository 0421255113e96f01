"""What one player may see of a state, and a full description for logs.

A zone's contents are shown to the players its `visible` rule names; the
others see only how many cards it holds. Variables likewise, and the same for
the last deal as it ended (`Ended`). Nothing else of the state reaches an
observation, so hidden information cannot leak through it.
"""

from __future__ import annotations

from typing import Any

from ..dsl import abi
from ..dsl import types as T


def _zone_viewers(s: Any, zi: int) -> Any:
    g = s.game
    spec = g.zone_specs[zi]
    vis = spec.visible
    owner = g.zone_owner[zi]
    if vis == "everyone":
        return None  # everyone
    if vis == "nobody":
        return ()
    if vis == "owner":
        return (owner,)
    return tuple(g.ns[abi.zone_visible(spec.name)](s, owner))


def _var_viewers(s: Any, vi: int) -> Any:
    g = s.game
    spec, owner = g.var_specs[vi]
    vis = spec.visible
    if vis == "everyone":
        return None
    if vis == "nobody":
        return ()
    if vis == "owner":
        if spec.per_team:  # the players on the team this slot belongs to, as the teams are now
            return tuple(p for p in range(g.n) if s.team[p] == owner)
        return (owner,)
    return tuple(g.ns[abi.var_visible(spec.name)](s, owner))


_CARDS, _CARD_LISTS = T.ListOf(T.CARD), T.ListOf(T.ListOf(T.CARD))


def _show(g: Any, value: Any, ty: T.Type) -> Any:
    if value is None:
        return None
    if ty == T.NUM and type(value) is float and value.is_integer():
        # A number with decimals that has none is shown as a whole number, however the rules reached it (16 or
        # 16.0): the same value reads the same, and the native backend, which keeps no such difference, agrees.
        return int(value)
    if ty == T.CARD:
        return g.card_names[value]
    if ty == _CARDS:
        return [g.card_names[c] for c in value]
    if ty == _CARD_LISTS:  # card_lists: each list by its cards' names
        return [[g.card_names[c] for c in xs] for xs in value]
    if isinstance(value, list):
        return list(value)
    return value


# How each zone and variable is shown, worked out once per game: EVERYONE and NOBODY need no call,
# OWNER only the slot's owner, RULE the rule file's `visible` expression at the state.
EVERYONE, NOBODY, OWNER, TEAM, RULE = range(5)


def _plan(g: Any) -> tuple[list[tuple[str, int, int | None, Any]], list[tuple[str, int, int | None, Any, Any]]]:
    plan = g.__dict__.get("_observation_plan")
    if plan is not None:
        return plan  # type: ignore[no-any-return]
    kinds = {"everyone": EVERYONE, "nobody": NOBODY, "owner": OWNER}
    zones = []
    for zi, name in enumerate(g.zone_names):
        spec, owner = g.zone_specs[zi], g.zone_owner[zi]
        how = kinds.get(spec.visible, RULE) if isinstance(spec.visible, str) else RULE
        zones.append((name, how, owner, g.ns[abi.zone_visible(spec.name)] if how == RULE else None))
    variables = []
    for vi, name in enumerate(g.var_names):
        spec, owner = g.var_specs[vi]
        how = kinds.get(spec.visible, RULE) if isinstance(spec.visible, str) else RULE
        if how == OWNER and spec.per_team:
            how = TEAM  # the players on the team this slot belongs to, as the teams are now
        variables.append((name, how, owner, g.ns[abi.var_visible(spec.name)] if how == RULE else None, spec.ty))
    plan = g._observation_plan = (zones, variables)
    return plan


def _sees(s: Any, player: int, how: int, owner: int | None, rule: Any) -> bool:
    if how == EVERYONE:
        return True
    if how == NOBODY:
        return False
    if how == OWNER:
        return player == owner
    if how == TEAM:
        return bool(s.team[player] == owner)
    return player in rule(s, owner)


def _visible(s: Any, player: int) -> dict[str, Any]:
    """The zones and variables `player` sees in `s` (the same as `_zone_viewers` and `_var_viewers` say, by
    a plan made once per game: this runs at every step of a resample)."""
    g = s.game
    names, sz, sv = g.card_names, s.z, s.v
    zplan, vplan = _plan(g)
    zones: dict[str, Any] = {}
    for zi, (name, how, owner, rule) in enumerate(zplan):
        cards = sz[zi]
        if _sees(s, player, how, owner, rule):
            zones[name] = [names[c] for c in cards]
        else:
            zones[name] = len(cards)
    variables: dict[str, Any] = {}
    for vi, (name, how, owner, rule, ty) in enumerate(vplan):
        if _sees(s, player, how, owner, rule):
            variables[name] = _show(g, sv[vi], ty)
    return {"zones": zones, "variables": variables}


class Ended:
    """A deal as it ended: the state after `match: end_deal` ran, before the next deal gathered the cards.

    Nobody acts between the end of one deal and the start of the next, so without it a player would never
    see the cards and values of that moment: the hands the rules show at the end of a deal (a zone whose
    `visible` is everyone then), the points just counted. Each player's view of it is part of that player's
    observations until the next deal ends, and so of its information state. Made once per deal and shared
    by every later state; nothing changes it."""

    __slots__ = ("state", "deal", "views", "texts")

    def __init__(self, copy: Any) -> None:
        self.state = copy  # the state's own copy of itself, without its log (State._ended_copy)
        self.deal = copy.deal_no
        self.views: dict[int, dict[str, Any]] = {}
        self.texts: dict[int, tuple[list[str], list[str]]] = {}  # each player's lines of it (obstext.py)

    def view(self, player: int) -> dict[str, Any]:
        v = self.views.get(player)
        if v is None:
            v = self.views[player] = {"deal": self.deal, **_visible(self.state, player)}
        return v


def observe(s: Any, player: int) -> dict[str, Any]:
    g = s.game
    seen = _visible(s, player)
    return {
        "player": player,
        "phase": g.phases[s.phase].name,
        "current": None if s.terminal or s.pending is not None else s.cur,
        "dealer": s.dealer,
        "deal": s.deal_no,
        "active": [p for p in range(g.n) if not s.out[p] and not s.sit[p]],
        "sitting_out": [p for p in range(g.n) if s.sit[p]],
        "teams": list(s.team),
        "zones": seen["zones"],
        "variables": seen["variables"],
        "deal_end": s.ended.view(player) if s.ended is not None else None,
        "terminal": s.terminal,
        "winners": list(s.winners) if s.terminal else None,
    }


def describe(s: Any) -> str:
    g = s.game
    lines = [f"{g.name}: deal {s.deal_no}, dealer {g.player_name(s.dealer)}, phase "
             f"'{g.phases[s.phase].name}', {'over' if s.terminal else g.player_name(s.cur) + ' to act'}"]
    if s.team != g.own_teams:
        lines.append(f"  teams: {', '.join(f'{g.player_name(p)} {t}' for p, t in enumerate(s.team))}")
    if any(s.sit):
        lines.append(f"  sitting out: {', '.join(g.player_name(p) for p in range(g.n) if s.sit[p])}")
    for zi, name in enumerate(g.zone_names):
        if s.z[zi]:
            lines.append(f"  {name}: {', '.join(g.card_names[c] for c in s.z[zi])}")
    for vi, name in enumerate(g.var_names):
        lines.append(f"  {name} = {_show(g, s.v[vi], g.var_specs[vi][0].ty)}")
    return "\n".join(lines)
