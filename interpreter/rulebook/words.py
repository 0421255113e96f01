"""Statements and a few kinds of expression in plain words.

Words are used only where the language says exactly what they mean (docs/language.md, sections 4 and 5):
`deal 3 from stock to hand` deals three cards to each active player, one at a time from the dealer's
left; `left(dealer)` is the player to the dealer's left; `len(trick) == 0` says the trick is empty.
Anything else is quoted as code, as the rule file writes it: a rulebook that says something the rules
do not would be worse than one that quotes them.
"""

from __future__ import annotations

import re
import string
from typing import cast

from ..dsl import ast as A
from ..dsl import refs as R
from ..dsl import types as T
from ..dsl.spec import GameSpec
from . import unparse
from .model import Block, Bullets, Code, Note, Paragraph, Run, Runs, code, codelink, link, text
from .source import Source


def shown_name(name: str, label: str = "") -> str:
    """What the tables call a zone, variable or phase: its label, or its name as words."""
    return label or name.replace("_", " ")


def count_words(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def anchor(kind: str, name: str) -> str:
    """A section's anchor: names are letters, digits and `_` (S006), so these are safe in any format."""
    return f"{kind}-{name}".replace("_", "-").lower()


class Words(A.StrictVisitor):
    """Writes a game's statements and expressions for the rulebook, with links to its sections: a statement
    in a sentence (`sentence`) by its method here, or by its `WORDS` (dsl/ast.py)."""

    covers = (A.Stmt,)

    @classmethod
    def knows(cls, kind: type[A.Node]) -> bool:
        return super().knows(kind) or bool(getattr(kind, "WORDS", ""))

    def __init__(self, spec: GameSpec, source: Source) -> None:
        self.spec = spec
        self.source = source
        self.zones = {z.name: z for z in spec.zones}
        self.phases = {p.name: p for p in spec.phases}
        self.procs = {p.name for p in spec.procedures}
        self.funcs = {f.name for f in spec.functions}

    # ------------------------------------------------------------ expressions
    def code(self, e: A.Expr) -> Run:
        """`e` as code (as the file writes it when it is a whole value on one line), with a link to a helper
        rule when it is a call of one."""
        written = self.source.text(e)
        s = written if written is not None and "\n" not in written else unparse.expr(e)
        if isinstance(e, A.Call) and e.func in self.funcs:
            return codelink(s, anchor("define", e.func))
        return code(s)

    def quoted(self, e: A.Expr) -> Runs | Code:
        """`e` as the file writes it: a line of code, or a block of code when the designer wrote lines."""
        written = self.source.text(e)
        if written is not None and "\n" in written:
            return Code(written)
        return [self.code(e)]

    def _zone(self, e: A.Expr) -> bool:
        return (isinstance(e, A.Name) and isinstance(e.ref, R.Zone)) or (
            isinstance(e, A.Index) and isinstance(e.obj, A.Name) and isinstance(e.obj.ref, R.Zone))

    def player(self, e: A.Expr) -> Runs:
        """A player in words where the language fixes them (the dealer, a neighbour), else as code."""
        if isinstance(e, A.Name) and isinstance(e.ref, R.Builtin) and e.id == "dealer":
            return [text("the dealer")]
        if isinstance(e, A.Const) and type(e.value) is int and 0 <= e.value < self.spec.max_players:
            return [text(f"P{e.value}")]
        if isinstance(e, A.Call) and e.func in ("left", "right") and isinstance(e.ref, R.Library) and len(e.args) == 1:
            side = e.func
            arg = e.args[0]
            if isinstance(arg, A.Name) and isinstance(arg.ref, R.Builtin) and arg.id == "dealer":
                return [text(f"the player to the dealer's {side}")]
            return [text(f"the player to the {side} of ")] + self.player(arg)
        if isinstance(e, A.Call) and e.func == "next_active" and isinstance(e.ref, R.Library) and len(e.args) == 1:
            return [text("the next active player clockwise after ")] + self.player(e.args[0])
        return [self.code(e)]

    def cards(self, e: A.Expr) -> Runs:
        """Cards being moved, in words for a zone, the pack, or the top or bottom cards of a zone."""
        if isinstance(e, A.Name) and isinstance(e.ref, R.Builtin) and e.id == "pack":
            return [text("every card of the pack")]
        if self._zone(e):
            return [text("the cards of "), code(unparse.expr(e))]
        if isinstance(e, A.Call) and isinstance(e.ref, R.Library) and e.args and self._zone(e.args[0]):
            z = code(unparse.expr(e.args[0]))
            if e.func in ("last", "first") and len(e.args) == 1:
                return [text(f"the {'top' if e.func == 'last' else 'bottom'} card of "), z]
            if e.func in ("top", "bottom") and len(e.args) == 2:
                n = e.args[1]
                many = [text(f"{n.value} cards")] if isinstance(n, A.Const) and type(n.value) is int else [
                    self.code(n), text(" cards")]
                return [text(f"the {e.func} ")] + many + [text(" of "), z]
        return [self.code(e)]

    def cond(self, e: A.Expr) -> Runs:
        """A condition: `xs` is empty / not empty, `x` has (no) value, else the expression as code."""
        if isinstance(e, A.Compare) and len(e.rest) == 1:
            op, right = e.rest[0]
            left = e.first
            if isinstance(left, A.Call) and left.func == "len" and isinstance(left.ref, R.Library) and \
                    isinstance(right, A.Const) and type(right.value) is int:
                xs = self.code(left.args[0])
                if (op, right.value) == ("==", 0):
                    return [xs, text(" is empty")]
                if (op, right.value) in ((">", 0), ("!=", 0), (">=", 1)):
                    return [xs, text(" is not empty")]
            if isinstance(right, A.Const) and right.value is None and op in ("==", "!="):
                return [self.code(left), text(" has no value" if op == "==" else " has a value")]
        return [self.code(e)]

    def conjuncts(self, e: A.Expr) -> list[A.Expr]:
        return list(e.values) if isinstance(e, A.BoolOp) and e.op == "and" else [e]

    def phase_link(self, name: str) -> Runs:
        ph = self.phases.get(name)
        shown = shown_name(name, ph.label if ph else "")
        return [link(shown, anchor("phase", name))] + ([text(" ("), code(name), text(")")] if shown != name else [])

    # ------------------------------------------------------------ statements
    def steps(self, stmts: list[A.Stmt]) -> Bullets:
        return Bullets([self.step(s) for s in stmts])

    def step(self, s: A.Stmt) -> list[Block]:
        notes = self.source.comments(s.span)
        blocks: list[Block] = [Paragraph(self.sentence(s))]
        if isinstance(s, A.If):
            blocks.append(self.steps(s.then))
            other = s.other
            while len(other) == 1 and isinstance(other[0], A.If):
                inner = other[0]
                blocks.append(Paragraph([text("Otherwise, if ")] + self.cond(inner.cond) + [text(":")]))
                inner_notes = self.source.comments(inner.span)
                if inner_notes:
                    blocks.append(Note(note_text(" ".join(inner_notes))))
                blocks.append(self.steps(inner.then))
                other = inner.other
            if other:
                blocks.append(Paragraph([text("Otherwise:")]))
                blocks.append(self.steps(other))
        elif isinstance(s, A.For):
            blocks.append(self.steps(s.body))
        if notes:
            blocks.insert(1, Note(note_text(" ".join(notes))))
        return blocks

    def sentence(self, s: A.Stmt) -> Runs:
        return cast(Runs, self.visit(s))

    def generic_visit(self, node: A.Node) -> Runs:
        if isinstance(node, A.Stmt) and node.WORDS:
            return self._said(node)
        return cast(Runs, super().generic_visit(node))

    def _said(self, s: A.Stmt) -> Runs:
        """A statement said by its `WORDS` (dsl/ast.py): `{field}` as code, `{field:player}` a player in words,
        `{field:phase}` a link to the phase."""
        runs: Runs = []
        for literal, name, form, _ in string.Formatter().parse(s.WORDS):
            if literal:
                runs.append(text(literal))
            if name is None:
                continue
            v = getattr(s, name)
            if form == "player":
                runs += self.player(v)
            elif form == "phase":
                runs += self.phase_link(v)
            elif isinstance(v, A.ZoneRef):
                runs.append(code(unparse.zone(v)))
            elif isinstance(v, A.Expr):
                runs.append(self.code(v))
            else:
                runs.append(code(str(v)))
        return _capital(runs) if s.WORDS.startswith("{") else runs

    def visit_If(self, s: A.If) -> Runs:
        return [text("If ")] + self.cond(s.cond) + [text(":")]

    def visit_For(self, s: A.For) -> Runs:
        return [text("For each "), code(s.var), text(" in "), self.code(s.iter), text(":")]

    def visit_Move(self, s: A.Move) -> Runs:
        where = " to the bottom of " if s.bottom else " to "
        return [text("Move ")] + self.cards(s.cards) + [text(where), code(unparse.zone(s.dest)), text(".")]

    def visit_Do(self, s: A.Do) -> Runs:
        call = unparse.stmt(s)[3:]
        run = codelink(call, anchor("procedure", s.proc)) if s.proc in self.procs else code(call)
        return [text("Do "), run, text(" (a procedure).")]

    def visit_Assign(self, s: A.Assign) -> Runs:
        value = s.value
        if s.index is None and isinstance(s.ref, R.Builtin) and s.op == "=":
            if s.name == "dealer":
                return [text("Make ")] + self.player(value) + [text(" the dealer.")]
            if s.name == "current":
                return [text("The turn goes to ")] + self.player(value) + [text(".")]
        if s.name == "team" and isinstance(s.ref, R.Builtin) and s.index is not None:
            return _capital(self.player(s.index)) + [text(" plays on team "), self.code(value),
                                                     text(" until the deal ends.")]
        target = code(s.name if s.index is None else f"{s.name}[{unparse.expr(s.index)}]")
        listy = isinstance(s.ref, R.Variable) and T.is_list(s.ref.spec.ty)
        if s.op == "=":
            player = isinstance(s.ref, R.Variable) and s.ref.spec.ty == T.PLAYER
            return [text("Set "), target, text(" to ")] + (self.player(value) if player else [self.code(value)]) + [
                text(".")]
        if listy:
            one = isinstance(value, A.ListLit) and len(value.items) == 1
            what = [self.code(value.items[0])] if one and isinstance(value, A.ListLit) else [
                text("the items of "), self.code(value)]
            if s.op == "+=":
                return [text("Add ")] + what + [text(" to the end of "), target, text(".")]
            return [text("Remove ")] + what + [text(" from "), target, text(" (every time it is there).")]
        if s.op == "+=":
            return [text("Add "), self.code(value), text(" to "), target, text(".")]
        return [text("Subtract "), self.code(value), text(" from "), target, text(".")]

    def visit_Deal(self, s: A.Deal) -> Runs:
        n = s.count
        many = [text(count_words(n.value, "card"))] if isinstance(n, A.Const) and type(n.value) is int else [
            self.code(n), text(" cards")]
        src = code(unparse.zone(s.src))
        z = self.zones.get(s.dest.name)
        if s.dest.index is None and z is not None and z.per_player:
            return [text("Deal ")] + many + [text(" from the top of "), src, text(" to each active player's "),
                                             code(s.dest.name), text(", one card at a time, starting at the "
                                                                     "dealer's left and ending with the dealer.")]
        return [text("Deal ")] + many + [text(" from the top of "), src, text(" to "), code(unparse.zone(s.dest)),
                                         text(".")]

    def visit_Log(self, s: A.Log) -> Runs:
        parts = s.text.split("{}")
        runs: Runs = [text("Announce to everyone: “")]
        for i, part in enumerate(parts):
            if part:
                runs.append(text(part))
            if i < len(s.values):
                runs.append(self.code(s.values[i]))
        return runs + [text("”.")]


def note_text(s: str) -> Runs:
    """A comment or doc as text, its `backquoted` parts as code (as designers write them)."""
    out: Runs = []
    for i, piece in enumerate(re.split(r"`([^`]+)`", " ".join(s.split()))):
        if piece:
            out.append(code(piece) if i % 2 else text(piece))
    return out


def _capital(runs: Runs) -> Runs:
    if runs and runs[0].kind == "text" and runs[0].text:
        return [text(runs[0].text[0].upper() + runs[0].text[1:])] + runs[1:]
    return runs
