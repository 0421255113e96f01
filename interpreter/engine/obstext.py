"""A player's observation string, rendered from the state directly, line by line.

`infostate.render(g, observe(s, p))` defines the text. The information state string renders an
observation after every step of a match, so this gives the same lines without building the observation's
dicts and lists of card names, and with each line the key `infostate.changes` compares observations by
(what `infostate._key` reads from the line: the zone or variable it is about). The labels, card texts and
keys are worked out once per game; what a player may see is decided by `observation._plan`, as `observe`
decides it. tests/test_infostate.py checks both renderings agree on every bundled game.
"""

from __future__ import annotations

import re
from typing import Any

from ..dsl import types as T
from .observation import EVERYONE, NOBODY, OWNER, TEAM, _plan, _show
from .text import one_line

# An observation as text: its lines and, for each line, what it is about (`infostate._key` of the line).
Lines = tuple[list[str], list[str]]


def _value(v: Any) -> str:
    if v is None:
        return "none"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return one_line(str(v))


_KEY = re.compile(r"[^:=]*")


def _key(line: str) -> str:
    """What a line of an observation string is about: its zone or variable, or the first two lines."""
    m = _KEY.match(line)
    return m.group(0) if m else line


class _Labels:
    """Per game: the texts every observation string is built from, and for each player which zones and
    variables it sees where the rule file fixes that (None where the state decides: a team or a rule)."""

    __slots__ = ("players", "cards", "phases", "sees", "sees_key", "in_play", "in_play_key", "zones", "variables",
                 "zone_sees", "var_sees")

    def __init__(self, g: Any) -> None:
        self.players = [g.player_name(p) for p in range(g.n)]
        self.cards = [one_line(name) for name in g.card_names]
        self.phases = [one_line(ph.name) for ph in g.phases]
        self.sees = [f"{name} sees: " for name in self.players]
        self.sees_key = [_key(x) for x in self.sees]
        self.in_play = "in play: "
        self.in_play_key = _key(self.in_play)
        zplan, vplan = _plan(g)
        # Each label ends with its separator (': ' or ' = '), so the key of any line that starts with it is the
        # key of the label alone, and a prefix without ':' or '=' ("end of deal 2, ") simply precedes it.
        self.zones = [(f"{name}: ", _key(f"{name}: "), how, owner, rule) for name, how, owner, rule in zplan]
        # A value shown as it is (a number, a player, a flag: `_value` of it is `str` of it, "true", "false"
        # or "none") or through `_show` (cards by name, lists, text).
        self.variables = [(f"{name} = ", _key(f"{name} = "), how, owner, rule, ty, ty in _PLAIN)
                          for name, how, owner, rule, ty in vplan]
        self.zone_sees = [[_fixed(p, how, owner) for _, _, how, owner, _ in self.zones] for p in range(g.n)]
        self.var_sees = [[_fixed(p, how, owner) for _, _, how, owner, *_ in self.variables] for p in range(g.n)]


_PLAIN = (T.INT, T.NUM, T.BOOL, T.PLAYER)


def _fixed(p: int, how: int, owner: int | None) -> bool | None:
    if how == EVERYONE:
        return True
    if how == NOBODY:
        return False
    if how == OWNER:
        return p == owner
    return None


def _labels(g: Any) -> _Labels:
    labels = g.__dict__.get("_text_labels")
    if labels is None:
        labels = g.__dict__["_text_labels"] = _Labels(g)
    return labels  # type: ignore[no-any-return]


def _table(s: Any, p: int, lab: _Labels, prefix: str, lines: list[str], keys: list[str]) -> None:
    """The lines of the zones and the variables p sees (`infostate._seen`)."""
    cards = lab.cards
    for (label, key, how, owner, rule), zone, sees in zip(lab.zones, s.z, lab.zone_sees[p]):
        if sees is None:  # a team or a rule decides; `_fixed` decided the others once per game
            sees = bool(s.team[p] == owner) if how == TEAM else p in rule(s, owner)
        if not sees:
            lines.append(f"{prefix}{label}{len(zone)} hidden")
        elif zone:
            lines.append(prefix + label + " | ".join([cards[c] for c in zone]))
        else:
            lines.append(prefix + label + "-")
        keys.append(prefix + key)
    g = s.game
    for (label, key, how, owner, rule, ty, plain), value, sees in zip(lab.variables, s.v, lab.var_sees[p]):
        if sees is None:
            sees = bool(s.team[p] == owner) if how == TEAM else p in rule(s, owner)
        if sees:
            text = str(value) if plain and type(value) is int else _var_text(g, value, ty, plain)
            lines.append(prefix + label + text)
            keys.append(prefix + key)


def _var_text(g: Any, value: Any, ty: Any, plain: bool) -> str:
    """A variable's value as its line shows it."""
    if plain and type(value) is int:
        return str(value)
    if value is None:
        return "none"
    return _value(_show(g, value, ty))


def _seen_by(s: Any, players: list[int], fixed: list[bool | None], how: int, owner: Any, rule: Any) -> list[bool]:
    """Whether each of `players` sees a zone or a variable: `fixed[i]` where `_fixed` decided it once per game,
    else the team, else the rule, run at most once (it does not depend on who asks)."""
    viewers = None
    out = []
    for p, sees in zip(players, fixed):
        if sees is None:
            if how == TEAM:
                sees = bool(s.team[p] == owner)
            else:
                if viewers is None:
                    viewers = rule(s, owner)
                sees = p in viewers
        out.append(sees)
    return out


def _turn(s: Any, names: list[str]) -> str:
    if s.terminal:
        return "over, won by " + (", ".join(names[w] for w in s.winners) or "nobody")
    if s.pending is not None:
        return "chance to act"
    return f"{names[s.cur]} to act"


def _first(s: Any, lab: _Labels, p: int, turn: str, in_play: str) -> Lines:
    return ([f"{lab.sees[p]}deal {s.deal_no}, dealer {lab.players[s.dealer]}, phase '{lab.phases[s.phase]}', {turn}",
             in_play], [lab.sees_key[p], lab.in_play_key])


def _in_play(s: Any, lab: _Labels) -> str:
    out, sit, names = s.out, s.sit, lab.players
    return lab.in_play + ", ".join([names[q] for q in range(s.game.n) if not out[q] and not sit[q]])


def _ended(s: Any, p: int, lab: _Labels, lines: list[str], keys: list[str]) -> None:
    """The lines of the deal as it ended (once per player and deal: `Ended.texts` keeps them)."""
    ended = s.ended
    if ended is not None:
        end = ended.texts.get(p)
        if end is None:
            end_lines: list[str] = []
            end_keys: list[str] = []
            _table(ended.state, p, lab, f"end of deal {ended.deal}, ", end_lines, end_keys)
            end = ended.texts[p] = (end_lines, end_keys)
        lines += end[0]
        keys += end[1]


def observation_lines(s: Any, p: int) -> Lines:
    """p's observation string at s as lines, with the key of each line. Runs the rules' `visible`
    expressions: call it through `State._evaluating` so their failures are located rule errors."""
    lab = _labels(s.game)
    out = _first(s, lab, p, _turn(s, lab.players), _in_play(s, lab))
    _table(s, p, lab, "", out[0], out[1])
    _ended(s, p, lab, out[0], out[1])
    return out


def observation_lines_of(s: Any, players: list[int]) -> list[Lines]:
    """`observation_lines(s, p)` for each p of `players`, made at once: a zone's or a variable's line is
    made once for all who see it, and each rule's `visible` runs once, as for one player (it does not
    depend on who asks), so the rules' work and their first failure are those of one player's call. Each
    player's lines of the deal as it ended are made from the rules' budget left after the table, as one
    player's call makes them. Call it through `State._evaluating`."""
    g = s.game
    lab = _labels(g)
    turn, in_play = _turn(s, lab.players), _in_play(s, lab)
    outs = [_first(s, lab, p, turn, in_play) for p in players]
    cards = lab.cards
    for zi, ((label, key, how, owner, rule), zone) in enumerate(zip(lab.zones, s.z)):
        shown = hidden = None
        seen = _seen_by(s, players, [lab.zone_sees[p][zi] for p in players], how, owner, rule)
        for sees, (lines, keys) in zip(seen, outs):
            if sees:
                if shown is None:
                    shown = label + (" | ".join([cards[c] for c in zone]) if zone else "-")
                lines.append(shown)
            else:
                if hidden is None:
                    hidden = f"{label}{len(zone)} hidden"
                lines.append(hidden)
            keys.append(key)
    for vi, ((label, key, how, owner, rule, ty, plain), value) in enumerate(zip(lab.variables, s.v)):
        shown = None
        seen = _seen_by(s, players, [lab.var_sees[p][vi] for p in players], how, owner, rule)
        for sees, (lines, keys) in zip(seen, outs):
            if sees:
                if shown is None:
                    shown = label + _var_text(g, value, ty, plain)
                lines.append(shown)
                keys.append(key)
    if s.ended is not None:
        left = g.steps[0]
        for p, (lines, keys) in zip(players, outs):
            g.steps[0] = left
            _ended(s, p, lab, lines, keys)
    return outs


__all__ = ["Lines", "observation_lines", "observation_lines_of"]
