"""What one seat sees at the table, as plain data: the one source for the terminal table, the web page and
the wire.

`seat_view(state, seat)` is built from three things only:

- the seat's observation (engine/observation.py), which already hides what the rules hide;
- the match's log as the seat perceived it (`perceived_log`): its own actions in full, the others' by their
  public text (a `secret:` action shows its label and "(hidden)"), and the public events (deals, the
  rule file's announcements, eliminations, the end of each deal, the result). The end-of-deal `report`
  lines are left out: they are the designer's summary, computed from every card, and may show what a
  seat never saw (a folded hand's card). Scores and lives a seat may see are variables visible to it.
- the seat's legal moves when it is its turn, each with its parameters decoded.

Nothing reads the state's zones or variables directly, so a card hidden from the seat cannot reach the
view; `tests/test_table_view.py` checks it by permuting hidden cards (the permutation property).

Card lists in hands (a player's own zones not everyone sees) are sorted by suit then rank in the deck's
order, so the order the cards were dealt in (which the others may know parts of) does not show and a
player finds a card where they expect it; every other zone keeps its order, which often matters (a trick, a pile's top).
"""

from __future__ import annotations

from typing import Any

from ..dsl import abi
from ..dsl import types as T
from ..dsl.spec import GameSpec
from ..engine.game import Game
from ..engine.state import State

# The symbols and colours of the four French suits; any other suit is shown by its name.
SUIT_SYMBOLS = {"clubs": "\u2663", "diamonds": "\u2666", "hearts": "\u2665", "spades": "\u2660"}
RED_SUITS = frozenset({"diamonds", "hearts"})


def readable(name: str) -> str:
    """A rule file's identifier as words: `out_now` -> `out now`, `dealer_choice` -> `dealer choice`."""
    return name.replace("_", " ")


def shown_name(spec: Any) -> str:
    """What the tables call a zone, variable or phase: its `label`, else its name as words."""
    return spec.label or readable(spec.name)


def table_help(spec: GameSpec, shown: dict[str, bool] | None = None) -> list[dict[str, str]]:
    """The rule file's help for what the table shows: each phase, zone and variable drawn there that has a
    `doc`, by the name the table gives it. Rules help in every table lists them under the summary. `shown`:
    a table's `Game.shown`, whose options decided a `show` condition; without it, all that may be shown."""
    out = []
    for kind, specs in (("phase", spec.phases), ("zone", spec.zones), ("variable", spec.variables)):
        for sp in specs:
            show = getattr(sp, "show", True)
            if shown is not None and kind != "phase":
                show = shown[f"{'var' if kind == 'variable' else kind}:{sp.name}"]
            if sp.doc and show is not False:
                out.append({"kind": kind, "label": shown_name(sp), "doc": sp.doc})
    return out


class Cards:
    """Card names -> suit, rank and sort key, for one game."""

    def __init__(self, g: Game) -> None:
        suits = [str(s) for s in g.spec.suits]
        ranks = [str(r) for r in g.spec.ranks]
        suit_of, rank_of = g.ns[abi.card_table("suit")], g.ns[abi.card_table("rank")]
        self._info: dict[str, dict[str, Any]] = {}
        self._key: dict[str, tuple[int, int, int]] = {}
        for c, name in enumerate(g.card_names):
            suit = None if suit_of[c] is None else str(suit_of[c])
            rank = str(rank_of[c])
            self._info[name] = {"name": name, "suit": suit, "rank": rank}
            self._key[name] = (suits.index(suit) if suit in suits else len(suits),
                               ranks.index(rank) if rank in ranks else len(ranks), c)

    def card(self, name: str) -> dict[str, Any]:
        return dict(self._info[name])

    def sort(self, names: list[str]) -> list[str]:
        return sorted(names, key=self._key.__getitem__)


def perceived_log(g: Game, log: list[Any], seat: int, names: list[str] | None = None) -> list[dict[str, Any]]:
    """The log's events as `seat` perceived them, as plain records; the rule file's announcements name
    seats by `names` (the table's names for its players) when given."""
    out: list[dict[str, Any]] = []
    for ev in log:
        kind = ev[0]
        if kind == "deal":
            out.append({"event": "deal", "deal": ev[1], "dealer": ev[2]})
        elif kind == "action":
            who = ev[1]
            out.append({"event": "action", "player": who, "text": ev[2] if who == seat else ev[3]})
        elif kind == "announce":
            text = ev[1]
            if names is not None and len(ev) > 2:  # the message with the seats it names as numbers
                text = "".join(names[x] if isinstance(x, int) else x for x in ev[2])
            out.append({"event": "announce", "text": text})
        elif kind in ("eliminated", "sits_out"):
            out.append({"event": kind, "player": ev[1]})
        elif kind == "team":
            out.append({"event": "team", "player": ev[1], "team": ev[2]})
        elif kind == "end_deal":
            # Not its report lines: they are the designer's summary, worked out from every card (a folded
            # hand's card, a hand never shown), so a seat cannot be shown them.
            out.append({"event": "end_deal", "deal": ev[1]})
        elif kind == "over":
            out.append({"event": "over", "winners": list(ev[1]), "returns": list(ev[2])})
    return out


def _shown(v: Any) -> Any:
    if isinstance(v, bool):
        return "yes" if v else "no"
    return v


class TableView:
    """Builds seat views for one game; its tables (card order, labels) are worked out once."""

    def __init__(self, g: Game, names: list[str] | None = None) -> None:
        self.game = g
        self.cards = Cards(g)
        self.names = list(names) if names is not None else [g.player_name(p) for p in range(g.n)]
        # Hands: a player's own zone that not everyone sees (the rules may show it at times).
        self.private = {name for name, spec, owner in zip(g.zone_names, g.zone_specs, g.zone_owner)
                        if owner is not None and spec.visible != "everyone"}
        self.var_types = {name: spec.ty for name, (spec, _o) in zip(g.var_names, g.var_specs)}
        self.var_owner = dict(zip(g.var_names, (o for _s, o in g.var_specs)))
        self.var_per_team = {name: spec.per_team for name, (spec, _o) in zip(g.var_names, g.var_specs)}
        # How the rule file presents each thing (`label`, `doc`); those with `show: false` are left off.
        self.zone_spec = dict(zip(g.zone_names, g.zone_specs))
        self.var_spec = {name: spec for name, (spec, _o) in zip(g.var_names, g.var_specs)}
        self.phases = {ph.name: ph for ph in g.spec.phases}

    def view(self, s: State, seat: int) -> dict[str, Any]:
        g = self.game
        obs = s.observation(seat)
        end = obs["deal_end"]
        turn = obs["current"]
        over = obs["terminal"]
        players = [{"seat": p, "name": self.names[p], "out": p not in obs["active"] and p not in obs["sitting_out"],
                    "sitting_out": p in obs["sitting_out"], "team": obs["teams"][p]} for p in range(g.n)]
        return {
            "game": g.name,
            "seat": seat,
            "players": players,
            "deal": obs["deal"],
            "dealer": obs["dealer"],
            "phase": self._phase(obs["phase"]),
            "turn": turn,
            "your_turn": turn == seat and not over,
            "over": over,
            "winners": obs["winners"],
            "returns_name": g.returns_name,
            "returns": s.returns() if over else None,
            "zones": self._zones(obs["zones"]),
            "variables": self._variables(obs["variables"], set(obs["teams"])),
            # The last deal as it ended: the cards the rules showed then (hands turned up) and the values
            # just counted; None before the first deal ends.
            "deal_end": None if end is None else {"deal": end["deal"], "zones": self._zones(end["zones"]),
                                                   "variables": self._variables(end["variables"], set(obs["teams"]))},
            "moves": self.moves(s, seat) if turn == seat and not over else [],
            "log": perceived_log(g, s.log or [], seat, self.names),
        }

    def _phase(self, name: str | None) -> dict[str, Any]:
        ph = self.phases.get(name or "")
        if ph is None:  # between phases (the match not begun, or over)
            return {"name": name, "label": readable(name or ""), "doc": ""}
        return {"name": name, "label": shown_name(ph), "doc": ph.doc}

    def _zones(self, seen: dict[str, Any]) -> list[dict[str, Any]]:
        out = []
        for zname, owner in zip(self.game.zone_names, self.game.zone_owner):
            spec = self.zone_spec[zname]
            if not self.game.shown[f"zone:{spec.name}"]:
                continue
            v = seen[zname]
            z: dict[str, Any] = {"name": spec.name, "label": shown_name(spec), "doc": spec.doc, "owner": owner}
            if isinstance(v, int):
                z.update(visible=False, count=v, cards=None)
            else:
                names = self.cards.sort(v) if zname in self.private else v
                z.update(visible=True, count=len(v), cards=[self.cards.card(n) for n in names])
            out.append(z)
        return out

    def _variables(self, seen: dict[str, Any], teams: set[int]) -> list[dict[str, Any]]:
        out = []
        for vname, value in seen.items():
            spec = self.var_spec[vname]
            if not self.game.shown[f"var:{spec.name}"]:
                continue
            if self.var_per_team[vname] and self.var_owner[vname] not in teams:
                continue  # a team number no player is on now: a row nobody at the table could read as theirs
            rec = {"name": spec.name, "label": shown_name(spec), "doc": spec.doc, "owner": self.var_owner[vname],
                   "team": bool(self.var_per_team[vname]), "value": self._value(vname, value)}
            if T.card_lists(spec.ty) and value is not None:
                # The page draws each list as small cards (melds on the table); `value` names them.
                rec["cards"] = [[self.cards.card(n) for n in xs] for xs in value]
            out.append(rec)
        return out

    def _value(self, vname: str, value: Any) -> Any:
        ty = self.var_types[vname]
        if ty == T.PLAYER:
            return None if value is None else self.names[value]
        if T.is_list(ty) and value is None:  # a list not set yet (a record cut short before the start)
            return _shown(value)
        if ty == T.ListOf(T.PLAYER):
            return [self.names[p] for p in value]
        if ty == T.ListOf(T.ListOf(T.CARD)):  # card_lists: each list of card names as it is
            return [list(xs) for xs in value]
        if isinstance(value, list):
            return [_shown(x) for x in value]
        return _shown(value)

    def moves(self, s: State, seat: int) -> list[dict[str, Any]]:
        """The seat's legal moves: the action id to send back, its text, and each parameter decoded."""
        g = self.game
        out = []
        for a in s.legal_actions():
            info, vals = g.codec.decode(a)
            params: list[dict[str, Any]] = []
            for p, v in zip(info.params, vals):
                if p.kind == "card":
                    params.append({"name": p.name, "kind": "card", "card": self.cards.card(g.card_names[v])})
                elif p.kind == "cards":
                    params.append({"name": p.name, "kind": "cards",
                                   "cards": [self.cards.card(g.card_names[c]) for c in v]})
                elif p.kind == "player":
                    params.append({"name": p.name, "kind": "player", "value": self.names[v], "seat": v})
                else:
                    params.append({"name": p.name, "kind": str(p.kind), "value": _shown(v)})
            out.append({"id": a, "action": info.name, "label": info.label or readable(info.name),
                        "text": s.action_to_string(seat, a), "params": params})
        return out


def seat_view(s: State, seat: int, names: list[str] | None = None) -> dict[str, Any]:
    """What `seat` sees now; see the module's docstring."""
    return TableView(s.game, names).view(s, seat)
