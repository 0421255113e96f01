"""Play in the terminal: you take one seat, bots take the others (docs/play.md).

The table is drawn from the seat's view only (`view.TableView`, drawn by `terminal.Painter`). Each moment of
the match (the start, then after every action) keeps the view as it was, for the history browser and for
the end-of-deal summary, which shows what changed in the match's per-player variables over the deal (a
life lost, points scored), then the table as the deal ended as the seat saw it (the view's `deal_end`: the
hands the rules turned up, the values just counted).

Bots are made afresh for each decision from the match's seed, the seat and the number of actions so far,
so a match saved and resumed plays on exactly as it would have without the break.
"""

from __future__ import annotations

import bisect
import contextlib
import os
import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..bots import SeatView, make_bot, parse_bots, seat_seed, strategy_names
from ..bots.spec import FILE_CAPS, BadBotSpec, capped, check_bots, parse_bot
from ..dsl.diagnostics import clipped
from ..engine import seeds
from ..engine.bundled import bundled_game, resolve
from ..engine.game import Game
from ..engine.state import State
from .record import BadRecord, MatchRecord, open_record, read_record, record_match, steps, write_record
from .terminal import Line, Painter, Screen, can_show, rich_available
from .view import SUIT_SYMBOLS, TableView

HUMAN = "you"  # the `seats` entry of the person at the terminal, in a saved match
MAX_LINE = 1000  # characters of an input line looked at; a longer one is not a command


@dataclass
class Moment:
    view: dict[str, Any]  # the seat's view then, without its log
    log_len: int  # events of the perceived log by then


def source_of(game_arg: str) -> str:
    """How a record finds the rule file again: a bundled game by its name, a file by its absolute path."""
    p = resolve(game_arg)
    if bundled_game(game_arg) is not None and p == bundled_game(game_arg):
        return game_arg
    return str(p.resolve())


def play(g: Game, seat: int | None, seed: int | None, bots_spec: str, source: str | None = None,
         save: str | None = None, plain: bool = False) -> int:
    seat = 0 if seat is None else seat
    if not 0 <= seat < g.n:
        print(f"cardsmith: error: --seat must be 0 to {g.n - 1}", file=sys.stderr)
        return 2
    # A match's deals follow from 128 bits from the OS (engine/seeds.py); the seed is written only to the save
    # file, which stays with the player (docs/play.md).
    seed = seed if seed is not None else seeds.fresh()
    try:
        specs = parse_bots(bots_spec, g.n - 1, strategy_names(g)) if g.n > 1 else []
        check_bots(specs, g)
    except BadBotSpec as e:
        print(f"cardsmith: error: argument --bots: {e}", file=sys.stderr)
        return 2
    others = iter(specs)
    seats = [HUMAN if p == seat else str(next(others)) for p in range(g.n)]
    s = State.initial(g, seed, log=True)
    t = Table(g, seat, seats, seed, source or g.spec.file, save, plain)
    t.start([s])
    return t.run()


def resume(path: str, seat: int | None, save: str | None, plain: bool = False) -> int:
    """Continue a saved match; it goes on being saved to the same file unless `save` names another."""
    rec = read_record(path)
    g = open_record(rec)
    if seat is None:
        seat = rec.seats.index(HUMAN) if HUMAN in rec.seats else next(
            (p for p, spec in enumerate(rec.seats) if not _played_by_bot(rec, p, g)), None)
        if seat is None:
            raise BadRecord(f"{path}: every seat of the match is a bot's; choose yours with --seat")
    if not 0 <= seat < g.n:
        raise BadRecord(f"--seat must be 0 to {g.n - 1}")
    seats = list(rec.seats)
    notes = []
    for p, spec in enumerate(seats):
        if p == seat:
            continue
        if not _played_by_bot(rec, p, g):
            notes.append(f"{spec} (seat {p}) is not here: a random bot plays that seat")
            seats[p] = "random"
            continue
        seats[p] = _saved_bot(path, p, spec, g, notes)
    seed = rec.seed if rec.seed is not None else seeds.fresh()
    t = Table(g, seat, seats, seed, rec.source, save or path, plain)
    t.start(list(steps(rec, g)), notes)
    return t.run()


def _saved_bot(path: str, p: int, spec: str, g: Game, notes: list[str]) -> str:
    """The bot of a save file's seat `p`, checked as a bot spec and capped like one a browser sends: a save
    file may come from anyone, and `seconds=3600` would hold the terminal an hour a move."""
    try:
        parsed = parse_bot(spec, strategy_names(g))
        check_bots([parsed], g)
    except BadBotSpec as e:
        raise BadRecord(f"{path}: the bot at seat {p}: {e}") from None
    low = capped(parsed, FILE_CAPS)
    if low != parsed:
        notes.append(f"{parsed} (seat {p}) plays as {low}: a save file's bots are capped as at the web table")
    return str(low)


def _played_by_bot(rec: MatchRecord, p: int, g: Game) -> bool:
    """Whether a bot played seat `p`: as the record says, or (an older record) if its name is a bot's spec."""
    return rec.bots[p] if rec.bots is not None else _is_bot(rec.seats[p], g)


def _is_bot(spec: str, g: Game) -> bool:
    try:
        parse_bot(spec, strategy_names(g))
    except BadBotSpec:
        return False
    return True


class Table:
    """One person at a table of bots: the loop, the commands, the history."""

    def __init__(self, g: Game, seat: int, seats: list[str], seed: int, source: str, save: str | None,
                 plain: bool) -> None:
        self.game = g
        self.seat = seat
        self.seats = seats
        self.seed = seed
        self.source = source
        self.save_path = save
        self.tv = TableView(g)
        fancy = not plain and rich_available() and sys.stdout.isatty()
        self.screen = Screen(fancy)
        self.paint = Painter(self.tv, symbols=can_show("".join(SUIT_SYMBOLS.values()), sys.stdout))
        self.rng = random.Random(seed)
        self.moments: list[Moment] = []
        self.log: list[dict[str, Any]] = []
        self.printed = 0  # events of the log shown so far
        self.saved = -1  # how many moments the file at save_path holds (-1: none saved by this table)
        self.state: State
        # The variables whose change over a deal is its summary: the match's, that every seat sees.
        self.tracked = {v.name for v, _owner in g.var_specs if v.scope == "match" and v.visible == "everyone"}

    # ------------------------------------------------------------ moments
    def start(self, states: list[State], notes: list[str] | None = None) -> None:
        for s in states:
            self._remember(s)
        self.state = states[-1]
        g = self.game
        bots = ", ".join(spec for p, spec in enumerate(self.seats) if p != self.seat) or "no bots"
        intro = f"{g.name}: you are {self.tv.names[self.seat]} (seat {self.seat}), against {bots}."
        lines: list[Line] = [[(intro, "bold")]]
        if len(states) > 1:
            lines.append([(f"Resumed after {len(states) - 1} moves; h shows the match so far.", "cyan")])
            # The current deal so far is shown again; earlier deals are in the history.
            self.printed = next((i for i in range(len(self.log) - 1, -1, -1) if self.log[i]["event"] == "deal"), 0)
        lines += [[(n, "yellow")] for n in notes or []]
        lines.append([("Type a move's number, ? for the rules and commands, q to leave.", "dim")])
        self.screen.print(lines)

    def replay(self, states: list[State]) -> int:
        """A recorded match looked through from its start, as this seat saw it (`cardsmith replay --seat`)."""
        for s in states:
            self._remember(s)
        self.state = states[-1]
        who = f"{self.tv.names[self.seat]} (seat {self.seat})"
        self.screen.print([[(f"{self.game.name}: a recorded match of {len(states) - 1} moves, as {who} saw it.",
                             "bold")]])
        try:
            self._history("0")
        except (KeyboardInterrupt, EOFError):
            self.screen.print([[]])
        return 0

    def _remember(self, s: State) -> None:
        v = self.tv.view(s, self.seat)
        self.log = v.pop("log")
        self.moments.append(Moment(v, len(self.log)))

    def _moment_of(self, event: int) -> int:
        """The first moment whose log holds event number `event`."""
        return bisect.bisect_right([m.log_len for m in self.moments], event)

    def _deal_changes(self, event: int) -> list[Line]:
        """What the deal ending at log event `event` changed in the per-player variables everyone sees."""
        start_event = next((i for i in range(event - 1, -1, -1) if self.log[i]["event"] == "end_deal"), None)
        before = self.moments[0 if start_event is None else self._moment_of(start_event)].view
        after = self.moments[min(self._moment_of(event), len(self.moments) - 1)].view
        old, new = self._tracked(before), self._tracked(after)
        out: list[Line] = []
        for label in dict.fromkeys(k[0] for k in new):
            parts = []
            for key, value in new.items():
                if key[0] == label and old.get(key) != value and key in old:
                    who = f"team {key[1]}" if key[2] else self.tv.names[key[1]]
                    parts.append(f"{who} {_num(old[key])} → {_num(value)}")
            if parts:
                out.append([(f"    {label}: ", "magenta"), (", ".join(parts), "bold")])
        return out

    def _tracked(self, v: dict[str, Any]) -> dict[tuple[str, int, bool], Any]:
        return {(x["label"], x["owner"], x["team"]): x["value"] for x in v["variables"]
                if x["owner"] is not None and x["name"] in self.tracked}

    def _events(self, lo: int, hi: int, final: bool = False) -> list[Line]:
        out: list[Line] = []
        for i in range(lo, hi):
            ev = self.log[i]
            if ev["event"] == "over" and not final:
                continue
            out += self.paint.event(ev, self.seat)
            if ev["event"] == "end_deal":
                out += self._deal_changes(i)
                ended = self._ended(i)
                if ended is not None:
                    out += self.paint.ended(ended, self.seat)
        return out

    def _ended(self, event: int) -> dict[str, Any] | None:
        """The table as the deal ending at log event `event` left it, as this seat saw it: the `deal_end` of the
        views that follow it, or, for a match's last deal (no next deal follows), the finished match's view."""
        deal = self.log[event]["deal"]
        for m in self.moments[min(self._moment_of(event), len(self.moments) - 1):]:
            de = m.view["deal_end"]
            if de is not None and de["deal"] == deal:
                return de
            if m.view["over"] and m.view["deal"] == deal:
                return m.view
            if de is not None and de["deal"] > deal:
                break
        return None

    # ------------------------------------------------------------ the loop
    def run(self) -> int:
        try:
            return self._loop()
        except (KeyboardInterrupt, EOFError) as e:
            self.screen.print([[]])
            self._leave()
            return 130 if isinstance(e, KeyboardInterrupt) else 0

    def _loop(self) -> int:
        while True:
            s = self.state
            if s.is_terminal():
                self.screen.print(self._events(self.printed, len(self.log)))
                self.printed = len(self.log)
                self._table(self.moments[-1].view)
                self.screen.print(self.paint.result(list(s.winners), s.returns()))
                self._autosave()
                if sys.stdin.isatty():  # a person may look back; a script's input has nothing more for the table
                    self._after_the_end()
                return 0
            p = s.current_player()
            if s.is_chance_node():  # a resumed match recorded without a seed draws its chance here
                outcomes = [c for c, _prob in s.chance_outcomes()]
                self._step(outcomes[self.rng.randrange(len(outcomes))])
                continue
            if p != self.seat:
                bot = make_bot(self.seats[p], self.game, p, seat_seed(seat_seed(self.seed, p), len(self.moments)))
                self._step(bot.choose(SeatView(s, p)))
                continue
            self.screen.print(self._events(self.printed, len(self.log)))
            self.printed = len(self.log)
            self._autosave()
            view = self.moments[-1].view
            self._table(view)
            self._moves(view)
            if not self._command(view):
                self._leave()
                return 0

    def _after_the_end(self) -> None:
        """Looking back at a finished match: the history and saving, until the player leaves."""
        while True:
            line = input("h history, s FILE save, q leave > ")[:MAX_LINE].strip()
            word, _, rest = line.partition(" ")
            word, rest = word.lower(), rest.strip()
            if word in ("q", "quit", "exit", ""):
                return
            if word in ("h", "history"):
                if self._history(rest):
                    self._table(self.moments[-1].view)
                    self.screen.print(self.paint.result(list(self.state.winners), self.state.returns()))
            elif word in ("s", "save"):
                self._save(rest or self.save_path)
            elif word in ("?", "help"):
                self.screen.print(self.paint.help())
            else:
                self.screen.print([[(f"'{clipped(line, 20)}': the match is over; h, s FILE or q", "red")]])

    def _step(self, action: int) -> None:
        s = self.state.clone()
        s.apply_action(action)
        self.state = s
        self._remember(s)

    def _table(self, view: dict[str, Any], title: str | None = None) -> None:
        head, lines = self.paint.table(view, title)
        self.screen.panel(head, lines)

    def _moves(self, view: dict[str, Any]) -> None:
        self.screen.print([[("Your turn", "bold green"), (f" ({view['phase']['label']}):", "")]]
                          + self.paint.moves(view["moves"], self.screen.width))

    def _command(self, view: dict[str, Any]) -> bool:
        """Read lines until one makes a move (True) or leaves the table (False)."""
        moves = view["moves"]
        while True:
            line = input("> ")[:MAX_LINE].strip()
            word, _, rest = line.partition(" ")
            word, rest = word.lower(), rest.strip()
            if line.isascii() and line.isdigit() and len(line) < 7 and 1 <= int(line) <= len(moves):
                self._step(moves[int(line) - 1]["id"])
                return True
            if word in ("q", "quit", "exit"):
                return False
            if word in ("?", "help"):
                self.screen.print(self.paint.help())
            elif word in ("t", "table"):
                self._table(view)
                self._moves(view)
            elif word in ("h", "history"):
                if self._history(rest):
                    self._table(view)
                    self._moves(view)
            elif word in ("s", "save"):
                self._save(rest or self.save_path)
            else:
                what = f"'{clipped(line, 20)}' is not a move" if line else "nothing typed"
                self.screen.print([[(f"{what}: type 1 to {len(moves)} for a move, ? for help, q to leave", "red")]])

    # ------------------------------------------------------------ saving
    def _save(self, path: str | None, quiet: bool = False) -> None:
        if not path:
            self.screen.print([[("say where: s FILE (or start with --save FILE)", "red")]])
            return
        try:
            write_record(path, record_match(self.state, self.source, self.seats,
                                            [p != self.seat for p in range(self.game.n)]))
        except OSError as e:
            self.screen.print([[(f"cannot save to {clipped(path, 60)}: {e.strerror or e}", "red")]])
            return
        self.save_path = path
        self.saved = len(self.moments)
        if not quiet:
            self._saved_note(path)

    def _saved_note(self, path: str) -> None:
        self.screen.print([[(f"saved to {clipped(path, 200)}; resume with: cardsmith play --resume "
                             f"{clipped(path, 200)}", "cyan")]])

    def _autosave(self) -> None:
        if self.save_path:
            self._save(self.save_path, quiet=True)

    def _leave(self) -> None:
        if self.state.is_terminal():
            return
        if self.save_path:
            if self.saved != len(self.moments):
                self._save(self.save_path, quiet=True)
            if self.saved == len(self.moments):  # not when saving failed (said so already)
                self._saved_note(self.save_path)
        else:
            self.screen.print([[("You left the table (the match was not saved: s FILE saves it).", "dim")]])

    # ------------------------------------------------------------ history
    def _history(self, arg: str) -> bool:
        """Browse the moments of the match; False if `arg` is no moment (nothing was shown)."""
        last = len(self.moments) - 1
        i = last - 1 if last else 0
        if arg:
            if not (arg.isascii() and arg.isdigit() and len(arg) < 7 and int(arg) <= last):
                self.screen.print([[(f"history: give a move number from 0 to {last}", "red")]])
                return False
            i = int(arg)
        keys = sys.stdin.isatty() and os.name == "posix"
        # Key by key for the whole browse, set before the first screen is drawn: a key pressed while the
        # screen is drawn would otherwise reach a terminal still reading lines, echoed and lost.
        with _cbreak() if keys else contextlib.nullcontext():
            return self._browse(i, last, keys)

    def _browse(self, i: int, last: int, keys: bool) -> bool:
        while True:
            if keys:
                self.screen.clear()
            self._show_moment(i, last)
            if keys:
                self.screen.print([[("← / p earlier   → / n later   Home / End first and last   q back", "dim")]])
                key = _read_key()
            else:
                self.screen.print([[("p earlier, n later, a number to jump, q (or an empty line) back", "dim")]])
                key = input("history> ")[:MAX_LINE].strip().lower()
            if key in ("left", "p", "k", "up"):
                i = max(0, i - 1)
            elif key in ("right", "n", "j", "down"):
                i = min(last, i + 1)
            elif key == "home":
                i = 0
            elif key == "end":
                i = last
            elif key.isascii() and key.isdigit() and len(key) < 7:
                i = min(last, int(key))
            elif key in ("q", "", "esc", "enter", "quit"):
                return True
            else:
                self.screen.print([[(f"'{clipped(key, 20)}' is no history key", "red")]])

    def _show_moment(self, i: int, last: int) -> None:
        m = self.moments[i]
        lo = self.moments[i - 1].log_len if i else 0
        what = "the start of the match" if i == 0 else f"after move {i} of {last}"
        v = m.view
        title = f"History: {what}  ·  deal {v['deal']}  ·  {v['phase']['label']}"
        self.screen.print(self._events(lo, m.log_len, final=True))
        self._table(v, title)


def _num(v: Any) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if v is None:
        return "-"
    return str(v)


_KEYS = {b"\x1b[D": "left", b"\x1b[C": "right", b"\x1b[A": "up", b"\x1b[B": "down", b"\x1b[H": "home",
         b"\x1b[F": "end", b"\x1b[1~": "home", b"\x1b[4~": "end", b"\x1bOD": "left", b"\x1bOC": "right",
         b"\x1bOH": "home", b"\x1bOF": "end", b"\x1b": "esc", b"\r": "enter", b"\n": "enter"}


@contextlib.contextmanager
def _cbreak() -> Iterator[None]:
    """The terminal reads key by key (cbreak, not raw: Ctrl-C still interrupts) until the block ends."""
    import termios
    import tty
    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)


def _read_key() -> str:
    """One key press from a terminal in cbreak mode (`_cbreak`), arrow keys by name."""
    import select
    fd = sys.stdin.fileno()
    data = os.read(fd, 1)
    if data == b"\x1b":
        while select.select([fd], [], [], 0.05)[0] and len(data) < 8:
            data += os.read(fd, 1)
    if data == b"\x04":
        raise EOFError
    if data in _KEYS:
        return _KEYS[data]
    return data.decode("utf-8", "replace").lower()
