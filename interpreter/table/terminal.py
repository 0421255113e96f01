"""The terminal table: one seat's view (`view.TableView`) drawn as lines of styled text.

Everything here is built from the view alone, so the terminal shows exactly what the web page shows and
nothing a seat may not see. A line is a list of segments, each a text and a style name; `Screen` prints
them with rich when it is installed and stdout is a terminal, as plain text otherwise. Every segment is
escaped (`one_line`) when printed: names, labels and messages come from rule files that may be a stranger's.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Sequence
from typing import Any, TextIO

from ..engine.errors import GameError
from ..engine.game import Game
from ..engine.text import one_line
from ..rulebook import build_rulebook, to_lines
from .view import RED_SUITS, SUIT_SYMBOLS, TableView, table_help

Seg = tuple[str, str]  # text, style ("" for none)
Line = list[Seg]

# A visible zone of a player is shown card by card in the players' table up to this width, as a count above.
CELL_WIDTH = 18


def plain(line: Line) -> str:
    return "".join(one_line(text) for text, _style in line)


def number(v: Any) -> str:
    """A value as a player reads it: 2.0 as 2, lists joined, nothing as a dash."""
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, list):
        return ", ".join(number(x) for x in v) or "none"
    if v is None:
        return "-"
    return str(v)


class Painter:
    """Turns a game's views and log events into lines; card names become short cards with suit symbols."""

    def __init__(self, tv: TableView, symbols: bool = True) -> None:
        self.tv = tv
        self.game: Game = tv.game
        self.symbols = symbols
        names = sorted(set(self.game.card_names), key=len, reverse=True)
        self._short = {n: self.card(tv.cards.card(n)) for n in names}
        # Card names inside free text (log messages, action texts, values) are shown as cards too.
        self._names = re.compile(r"(?<!\w)(" + "|".join(map(re.escape, names)) + r")(?!\w)") if names else None
        self._actions = {a.name: a for a in self.game.spec.actions}
        self._rulebook: list[Line] | None = None

    # ------------------------------------------------------------ cards and text
    def card(self, c: dict[str, Any]) -> Seg:
        suit = c.get("suit")
        if self.symbols and suit in SUIT_SYMBOLS:
            return f"{c['rank']}{SUIT_SYMBOLS[suit]}", "red" if suit in RED_SUITS else "bold"
        return str(c["name"]), "bold"

    def cards(self, cards: Sequence[dict[str, Any]], grouped: bool = False) -> Line:
        """Cards side by side; `grouped` (a sorted hand): cards of suits without a symbol by suit, `red: 1 2 5`."""
        if not cards:
            return [("(none)", "dim")]
        out: Line = []
        if grouped and not all(self.symbols and c.get("suit") in SUIT_SYMBOLS for c in cards):
            groups: dict[Any, list[dict[str, Any]]] = {}
            for c in cards:
                groups.setdefault(c.get("suit"), []).append(c)
            for i, (suit, cs) in enumerate(groups.items()):
                if i:
                    out.append(("  ", ""))
                if suit is None or (self.symbols and suit in SUIT_SYMBOLS):
                    out += self.cards(cs)
                else:
                    out.append((f"{suit}:", "dim"))
                    out += [(" " + str(c["rank"]), "bold") for c in cs]
            return out
        for i, c in enumerate(cards):
            if i:
                out.append((" ", ""))
            out.append(self.card(c))
        return out

    def text(self, s: str, style: str = "") -> Line:
        """Free text with the card names in it shown as cards."""
        if self._names is None or not s:
            return [(s, style)]
        out: Line = []
        pos = 0
        for m in self._names.finditer(s):
            if m.start() > pos:
                out.append((s[pos:m.start()], style))
            out.append(self._short[m.group(1)])
            pos = m.end()
        if pos < len(s):
            out.append((s[pos:], style))
        return out

    def value(self, v: Any) -> Line:
        out: Line = []
        if isinstance(v, str):
            return self.text(v)
        if isinstance(v, list) and v and all(isinstance(x, list) for x in v):
            # Lists of cards (melds on the table): each in brackets, its cards side by side.
            for i, x in enumerate(v):
                out += ([(" ", "")] if i else []) + self.group([self.text(str(n))[0] for n in x])
            return out
        if isinstance(v, list) and v:
            for i, x in enumerate(v):
                out += ([(", ", "")] if i else []) + self.value(x)
            return out
        return [(number(v), "")]

    # ------------------------------------------------------------ moves
    def move(self, m: dict[str, Any]) -> Line:
        """A legal move with what it does: `play A♦`; several parameters each by name, `swap: give A♦, take 9♥`."""
        return self._named(str(m["label"]), [(p["name"], self._param(p)) for p in m["params"]])

    def group(self, cards: list[Seg]) -> Line:
        """A list of cards that is one value (a meld, a pair): `[7♥ 8♥ 9♥]`."""
        out: Line = [("[", "dim")]
        for i, c in enumerate(cards):
            out += ([(" ", "")] if i else []) + [c]
        return out + [("]", "dim")]

    def _param(self, p: dict[str, Any]) -> Line:
        if p["kind"] == "card":
            return [self.card(p["card"])]
        if p["kind"] == "cards":
            return self.group([self.card(c) for c in p["cards"]])
        if p["kind"] == "bool":
            return [(p["name"] if p["value"] == "yes" else f"no {p['name']}", "")]
        return [(number(p["value"]), "bold")]

    def _named(self, label: str, params: list[tuple[str, Line]]) -> Line:
        out: Line = [(label, "")]
        if len(params) == 1:
            out += [(" ", "")] + params[0][1]
        elif params:
            out.append((":", ""))
            for i, (name, val) in enumerate(params):
                out += [("," if i else "", ""), (f" {name.replace('_', ' ')} ", "dim")] + val
        return out

    def action_text(self, text: str) -> Line:
        """An action as the log gives it (public text): its parameters named when the text reads back as one
        action of several parameters, the text as it is otherwise (a secret action, an unusual label, or
        actions of different phases that print alike but name their parameters differently)."""
        g = self.game
        try:
            ids = g.codec.from_string(text)
        except Exception:  # a text the codec cannot parse is shown as it is
            ids = []
        if len({tuple(p.name for p in g.codec.action_for(a).params) for a in ids}) > 1:
            ids = []  # the log keeps the text, not which action: the names could be the wrong action's
        if ids:
            info, vals = g.codec.decode(ids[0])
            if len(info.params) > 1 or any(p.kind == "cards" for p in info.params):
                params: list[tuple[str, Line]] = []
                for p, v in zip(info.params, vals):
                    if p.kind == "card":
                        params.append((p.name, [self._short[g.card_names[v]]]))
                    elif p.kind == "cards":
                        params.append((p.name, self.group([self._short[g.card_names[c]] for c in v])))
                    elif p.kind == "player":
                        params.append((p.name, [(self.tv.names[v], "bold")]))
                    elif p.kind == "bool":
                        params.append((p.name, [(p.name if v else f"no {p.name}", "")]))
                    else:
                        params.append((p.name, [(str(v), "bold")]))
                return self._named(info.label or info.name, params)
        return self.text(text)

    # ------------------------------------------------------------ the table
    def table(self, v: dict[str, Any], title: str | None = None) -> tuple[Line, list[Line]]:
        """The header and the lines of the table as `v`'s seat sees it."""
        names = self.tv.names
        head = title or f"{v['game']}  ·  deal {v['deal']}  ·  dealer {names[v['dealer']]}  ·  {v['phase']['label']}"
        lines: list[Line] = []
        me = v["seat"]
        per_zone: dict[str, dict[int, dict[str, Any]]] = {}
        mine: list[dict[str, Any]] = []
        shared: list[dict[str, Any]] = []
        for z in v["zones"]:
            if z["owner"] is None:
                shared.append(z)
            else:
                per_zone.setdefault(z["label"], {})[z["owner"]] = z
                if z["owner"] == me and z["visible"] and z["name"] in self._private_names():
                    mine.append(z)
        per_var: dict[str, dict[int, Any]] = {}
        team_vars: dict[str, dict[int, Any]] = {}
        shared_vars: list[dict[str, Any]] = []
        for x in v["variables"]:
            if x["owner"] is None:
                shared_vars.append(x)
            elif x["team"]:
                team_vars.setdefault(x["label"], {})[x["owner"]] = x["value"]
            else:
                per_var.setdefault(x["label"], {})[x["owner"]] = x["value"]
        teams = [p["team"] for p in v["players"]]
        show_teams = len(set(teams)) < len(teams)
        header = ["player", *(["team"] if show_teams else []), *per_zone, *per_var]
        rows: list[list[Line]] = []
        for p in v["players"]:
            seat = p["seat"]
            turn = v["turn"] == seat and not v["over"]
            name: Line = [("▶ " if turn else "  ", "green"), (p["name"], "bold")]
            if seat == me:
                name.append((" (you)", "cyan"))
            if p["out"]:
                name.append((" out", "red"))
            elif p["sitting_out"]:
                name.append((" sits out", "dim"))
            row = [name] + ([[(str(p["team"]), "")]] if show_teams else [])
            for zones in per_zone.values():
                z = zones.get(seat)
                row.append(self._cell(z, seat == me))
            for vals in per_var.values():
                row.append(self.value(vals[seat]) if seat in vals else [("", "")])
            rows.append(row)
        lines += columns([[(h, "dim")] for h in header], rows)
        for label, vals in team_vars.items():
            parts: Line = [(f"{label}: ", "dim")]
            for i, (t, val) in enumerate(sorted(vals.items())):
                members = ", ".join(names[p] for p in range(len(teams)) if teams[p] == t)
                if not members:
                    continue
                parts += ([("; ", "")] if i else []) + [(f"team {t} ({members}) ", "")] + self.value(val)
            lines.append(parts)
        lines.append([])
        rows = []
        for z in shared:
            if z["visible"]:
                rows.append([[(z["label"], "dim")], self.cards(z["cards"])])
            elif z["count"]:
                rows.append([[(z["label"], "dim")], [(f"{z['count']} face down", "dim")]])
        for x in shared_vars:
            if x["value"] is not None and x["value"] != []:
                rows.append([[(x["label"], "dim")], self.value(x["value"])])
        lines += columns([], rows)
        for z in mine:
            if z["cards"] or z["name"] == mine[0]["name"] and not v["over"]:
                lines += [[], [(f"Your {z['label']}: ", "cyan")] + self.cards(z["cards"], grouped=True)]
        if not lines[-1]:
            lines.pop()
        return [(head, "bold")], lines

    def _private_names(self) -> set[str]:
        return {n.split("[", 1)[0] for n in self.tv.private}

    def _cell(self, z: dict[str, Any] | None, own: bool) -> Line:
        if z is None:
            return [("", "")]
        if not z["visible"]:
            return [(f"{z['count']} face down" if z["count"] else "-", "dim")]
        if own and z["name"] in self._private_names():
            return [(f"{z['count']} (below)" if z["count"] else "-", "dim")]
        cells = self.cards(z["cards"]) if z["cards"] else [("-", "dim")]
        if len(plain(cells)) > CELL_WIDTH:
            return [(f"{z['count']} cards", "")]
        return cells

    def moves(self, moves: list[dict[str, Any]], width: int) -> list[Line]:
        """The legal moves numbered from 1, in columns when there are many and the terminal is wide enough."""
        items = [[(f"{i:>3}  ", "green")] + self.move(m) for i, m in enumerate(moves, 1)]
        widest = max((len(plain(x)) for x in items), default=0) + 3
        cols = max(1, min(4, width // max(widest, 1))) if len(items) > 8 else 1
        height = -(-len(items) // cols)
        out: list[Line] = []
        for r in range(height):
            row: Line = []
            for c in range(cols):
                i = c * height + r
                if i < len(items):
                    cell = items[i]
                    pad = widest - len(plain(cell)) if c < cols - 1 else 0
                    row += cell + [(" " * pad, "")]
            while row and not row[-1][0].strip():
                row.pop()
            out.append(row)
        return out

    # ------------------------------------------------------------ the log
    def event(self, ev: dict[str, Any], seat: int) -> list[Line]:
        """The lines of one event of the perceived log (end-of-deal changes are added by the caller)."""
        names = self.tv.names
        kind = ev["event"]
        if kind == "deal":
            return [[], [(f"── Deal {ev['deal']} · dealer {names[ev['dealer']]} ──", "cyan")]]
        if kind == "action":
            who = "You" if ev["player"] == seat else names[ev["player"]]
            return [[("  ", ""), (who, "bold"), (": ", "")] + self.action_text(ev["text"])]
        if kind == "announce":
            return [[("  * ", "yellow")] + self.text(ev["text"], "yellow")]
        if kind == "eliminated":
            who = "You are" if ev["player"] == seat else f"{names[ev['player']]} is"
            return [[("  ✖ ", "red"), (f"{who} out of the match", "red")]]
        if kind == "sits_out":
            return [[(f"  * {names[ev['player']]} sits out this deal", "dim")]]
        if kind == "team":
            return [[(f"  * {names[ev['player']]} is on team {ev['team']}", "dim")]]
        if kind == "end_deal":
            out: list[Line] = [[("  ── End of deal ", "magenta"), (str(ev["deal"]), "magenta"), (" ──", "magenta")]]
            for r in ev.get("report", []):  # the designer's report lines, if the view gives them
                line: Line = [(f"    {r['label']}: ", "magenta")]
                for p, val in enumerate(r["values"]):
                    line += ([(", ", "")] if p else []) + [(names[p] + " ", "")] + self.value(val)
                out.append(line)
            return out
        if kind == "over":
            return self.result(ev["winners"], ev["returns"])
        return []

    def ended(self, ended: dict[str, Any], seat: int) -> list[Line]:
        """The table as a deal ended (the view's `deal_end`, or a finished match's last view), for the end-of-deal
        summary: a line per player with the zones the seat saw then (hands the rules turned up) and the values
        just counted, then the shared zones' cards and values. Only zones holding something are shown, so a
        trick game's emptied hands take no room."""
        names = self.tv.names
        private = self._private_names()
        per_zone: dict[str, dict[int, dict[str, Any]]] = {}
        shared: Line = []
        for z in ended["zones"]:
            if z["owner"] is not None:
                per_zone.setdefault(z["label"], {})[z["owner"]] = z
            elif z["visible"] and z["cards"]:
                shared += ([("  ·  ", "dim")] if shared else []) + [(f"{z['label']} ", "dim")] + self.cards(z["cards"])
        per_zone = {label: zs for label, zs in per_zone.items() if any(z["count"] for z in zs.values())}
        per_var: dict[str, dict[int, Any]] = {}
        for x in ended["variables"]:
            if x["owner"] is None:
                if x["value"] is not None and x["value"] != []:
                    shared += [("  ·  ", "dim")] if shared else []
                    shared += [(f"{x['label']} ", "dim")] + self.value(x["value"])
            elif not x["team"]:
                per_var.setdefault(x["label"], {})[x["owner"]] = x["value"]
        rows: list[list[Line]] = []
        for p in range(len(names)):
            row: list[Line] = [[(names[p], "bold")] + ([(" (you)", "cyan")] if p == seat else [])]
            for zs in per_zone.values():
                z = zs.get(p)
                if z is None or not z["count"]:
                    row.append([("-", "dim")])
                elif not z["visible"]:
                    row.append([(f"{z['count']} face down", "dim")])
                else:
                    # A hand is shown whole (it is what the end of a deal turns up); a long pile as a count.
                    cells = self.cards(z["cards"], grouped=z["name"] in private)
                    too_long = z["name"] not in private and len(plain(cells)) > CELL_WIDTH
                    row.append([(f"{z['count']} cards", "")] if too_long else cells)
            row += [self.value(vals[p]) if p in vals else [("", "")] for vals in per_var.values()]
            rows.append(row)
        head = [[("", "")]] + [[(label, "dim")] for label in (*per_zone, *per_var)]
        out = [[("    ", "")] + line for line in columns(head, rows)] if len(head) > 1 else []
        if shared:
            out.append([("    ", "")] + shared)
        return out

    def result(self, winners: list[int], returns: list[float]) -> list[Line]:
        names = self.tv.names
        w = " and ".join(names[p] for p in winners)
        verb = "wins" if len(winners) == 1 else "share the win"
        out: list[Line] = [[], [("══ The match is over: ", "bold"),
                                (f"{w} {verb}" if winners else "nobody wins", "bold green"), (" ══", "bold")]]
        if self.game.returns_name != "returns":
            out.append([(f"  {self.game.returns_name}: ", "dim")] + [
                (("" if p == 0 else ", ") + f"{names[p]} {number(x)}", "") for p, x in enumerate(returns)])
        return out

    # ------------------------------------------------------------ rules help
    def rulebook(self) -> list[Line]:
        """The rulebook's main part (docs/rulebook.md), built once: what `cardsmith explain` says of the game."""
        if self._rulebook is None:
            try:
                doc = build_rulebook(self.game.compiled)
            except GameError:  # a rule file the engine cannot set up at every count: the help still shows
                self._rulebook = []
            else:
                self._rulebook = [[("The rules", "bold cyan"), (" (as cardsmith explain writes them)", "dim")]] + \
                    to_lines(doc, main_only=True, head=False) + [[], [("─" * 40, "dim")], []]
        return self._rulebook

    def help(self) -> list[Line]:
        """The rulebook, then (last, so they are on screen) the summary, what the table shows, the table's
        options and the commands."""
        g = self.game
        lines: list[Line] = self.rulebook() + [[(g.name, "bold")]]
        if g.spec.summary:
            lines.append([(g.spec.summary.strip(), "")])
        helps = table_help(g.spec, g.shown)
        if helps:
            lines += [[], [("At the table:", "cyan")]]
            lines += [[("  ", ""), (h["label"], "bold"), ("  ", ""), (h["doc"], "")] for h in helps]
        if g.spec.options:
            lines += [[], [("Table options (set with --option NAME=VALUE when a match starts):", "cyan")]]
            for o in g.spec.options:
                val = g.options.get(o.name)
                shown = "yes" if val is True else "no" if val is False else number(val)
                lines.append([("  ", ""), (o.name, "bold"), (" = ", ""), (shown, "green")]
                             + ([("  ", ""), (o.doc, "")] if o.doc else []))
        lines += [[], [("Commands:", "cyan")]] + [[(f"  {k:<10}", "bold"), (d, "")] for k, d in COMMANDS]
        return lines


COMMANDS = [
    ("1, 2, ...", "make that move"),
    ("?", "this help: the rules (as cardsmith explain writes them), the summary, the options, the commands"),
    ("t", "show the table again"),
    ("h [N]", "history: the table at an earlier moment (arrow keys or p/n to step, q to come back)"),
    ("s [FILE]", "save the match (to --save FILE, or to FILE); resume it with 'cardsmith play --resume FILE'"),
    ("q", "leave the table"),
]


def columns(header: list[Line], rows: list[list[Line]]) -> list[Line]:
    """Rows of cells padded into aligned columns (two spaces apart)."""
    every = ([header] if header else []) + rows
    if not every:
        return []
    n = max(len(r) for r in every)
    widths = [max((len(plain(r[i])) for r in every if i < len(r)), default=0) for i in range(n)]
    out: list[Line] = []
    for r in every:
        line: Line = []
        for i, cell in enumerate(r):
            line += cell
            if i < len(r) - 1:
                line.append((" " * (widths[i] - len(plain(cell)) + 2), ""))
        out.append(line)
    return out


def rich_available() -> bool:
    try:
        import rich  # noqa: F401
    except ImportError:
        return False
    return True


def can_show(chars: str, stream: TextIO) -> bool:
    """Whether `stream` can encode these characters (the suit symbols need a Unicode terminal)."""
    encoding = getattr(stream, "encoding", None)
    if not encoding:  # an in-memory stream holds any text
        return True
    try:
        chars.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


class Screen:
    """Prints lines with rich (colours, a frame around the table) or as plain text."""

    def __init__(self, fancy: bool, out: TextIO | None = None) -> None:
        self.out = out if out is not None else sys.stdout
        self.console: Any = None
        if fancy:
            from rich.console import Console
            self.console = Console(file=self.out, highlight=False, markup=False, emoji=False)

    @property
    def width(self) -> int:
        return int(self.console.width) if self.console is not None else 80

    def _text(self, line: Line) -> Any:
        from rich.text import Text
        t = Text()
        for text, style in line:
            t.append(one_line(text), style=style or None)
        return t

    def print(self, lines: Iterable[Line]) -> None:
        for line in lines:
            if self.console is not None:
                self.console.print(self._text(line))
            else:
                print(plain(line), file=self.out)
        self.out.flush()

    def clear(self) -> None:
        """A clean screen (rich on a terminal only: plain output is a transcript and keeps everything)."""
        if self.console is not None:
            self.console.clear()

    def panel(self, head: Line, lines: list[Line]) -> None:
        """The table in a frame titled `head` (plain text: a heading line, then the lines indented)."""
        if self.console is None:
            print(f"\n== {plain(head)} ==", file=self.out)
            for line in lines:
                print(("  " + plain(line)).rstrip(), file=self.out)
            self.out.flush()
            return
        from rich.console import Group
        from rich.panel import Panel
        self.console.print(Panel(Group(*(self._text(x) for x in lines)), title=self._text(head),
                                 title_align="left", expand=False))
