"""The line writer of generated code: indentation, and the line map from generated lines to rule-file spans.

Kept apart from what is written so that every stage of code generation (expressions, steps, actions, the
module) appends through the one object that numbers lines; a line's span is recorded as it is written, so
the map can never drift from the text. The PUSH/END/POP markers are the only contract between an
expression's code and the writer: an inlined function body (optimize.py) gets physical lines of its own,
mapped to the function's span, without the expression code knowing about lines.
"""

from __future__ import annotations

import re

from ..diagnostics import Span

# In an expression's code, where an inlined body starts (PUSH, the index of its span, END) and where it ends
# (POP): the writer breaks the line there, so the body's code has lines, and spans, of its own.
PUSH, END, POP = "\x00", "\x01", "\x00-\x01"
# Around the code of one AST node (OPEN, the index of its span, MID, the code, CLOSE): the writer removes
# them and records where in the generated text each node's code stands, so that a rule error is reported
# at the sub-expression whose code failed (`positions`), not only at the line (`spans`).
OPEN, MID, CLOSE = "\x02", "\x03", "\x04"
_NODE_MARK = re.compile("(\x02\\d+\x03|\x04)")
_ANY_MARK = re.compile("\x00[^\x01]*\x01|\x02\\d+\x03|\x04")

# A node's place in the generated text: first line, first column, last line, end column (lines from 1,
# columns 0-based in UTF-8 bytes, the end exclusive: as Python's code positions count them), and its span.
Position = tuple[int, int, int, int, Span]


WIDTH = 120  # the longest generated line, markers not counted: the code is read by people (`compile`)
# Where a line may break, inside brackets: after a comma, or before a word operator or an arithmetic one.
_BREAKS = (", ", " and ", " or ", " if ", " else ", " for ", " + ", " - ", " * ", " // ", " % ")
_OPENING, _CLOSING = "([{", ")]}"


def fold(line: str, width: int = WIDTH, inside: bool = False) -> list[str]:
    """A generated line broken into physical lines of at most `width` characters where it can be: inside
    brackets (Python joins such lines; `inside`: the whole line is), at the shallowest break that fits, the
    latest of those. The writer's markers are kept, never split, and take no width."""
    if len(line) <= width or len(plain(line)) <= width:
        return [line]
    indent = line[:len(line) - len(line.lstrip())]
    pad = indent + " " * 8
    out: list[str] = []
    # A continuation starts inside the brackets its break was in; a line inside brackets counts its depths
    # from a base so deep that every place in it is inside.
    rest, depth = line, 1_000 if inside else 0
    while len(plain(rest)) > width:
        cut = _break(rest, width, len(indent) if not out else len(pad), depth)
        if cut is None:
            break
        at, skip, depth = cut
        out.append(rest[:at].rstrip())
        rest = pad + rest[at + skip:].lstrip()
    out.append(rest)
    return out


def _break(line: str, width: int, lead: int, depth: int) -> tuple[int, int, int] | None:
    """Where to break a line that starts `depth` brackets deep: (index, characters dropped there, the
    depth there), or None if it has no break inside brackets."""
    best: tuple[int, int, int] | None = None  # (depth, -index, skip)
    first_beyond: tuple[int, int, int] | None = None
    col = 0  # the width so far, markers not counted
    quote = ""
    i = 0
    while i < len(line):
        ch = line[i]
        if quote:
            if ch == "\\":
                i, col = i + 2, col + 2
                continue
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in _OPENING:
            depth += 1
        elif ch in _CLOSING:
            depth -= 1
        elif ch == OPEN:  # a node's marks take no width
            i = line.index(MID, i) + 1
            continue
        elif ch == CLOSE:
            i += 1
            continue
        elif ch == " " and depth > 0 and col > lead:
            for b in _BREAKS:
                if line.startswith(b, i):
                    # After a comma the break comes after it; before an operator, the operator starts the line.
                    at, skip = (i + 1, 1) if b == ", " else (i, 1)
                    cand = (depth, -at, skip)
                    if col + (1 if b == ", " else 0) <= width:
                        if best is None or cand[:2] < best[:2]:
                            best = cand
                    elif first_beyond is None:
                        first_beyond = cand
                    break
        i, col = i + 1, col + 1
    pick = best or first_beyond
    return None if pick is None else (-pick[1], pick[2], pick[0])


def plain(code: str) -> str:
    """An expression's code without the writer's markers (to compile it alone, or to compare two codes)."""
    return _ANY_MARK.sub("", code)


class _Writer:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.spans: dict[int, Span] = {}
        self.indent = 0
        self.marks: list[Span] = []  # spans named by PUSH marks
        self.nodes: list[Span] = []  # spans named by OPEN marks
        self.positions: list[Position] = []

    def line(self, text: str, span: Span | None = None) -> None:
        if PUSH not in text and OPEN not in text:
            for piece in fold("    " * self.indent + text):
                self.lines.append(piece)
                if span is not None:
                    self.spans[len(self.lines)] = span
            return
        open_nodes: list[tuple[int, int, int]] = []  # (node, line, column) of the nodes begun, innermost last
        physical = self._physical(text, span)
        # An inlined body's lines lie inside the brackets it is written in: they may break anywhere.
        folded = [(piece, sp) for k, (whole, sp) in enumerate(physical) for piece in fold(whole, inside=k > 0)]
        for code, sp in folded:
            number = len(self.lines) + 1
            out: list[str] = []
            col = 0
            for tok in _NODE_MARK.split(code):
                if tok.startswith(OPEN):
                    open_nodes.append((int(tok[1:-1]), number, col))
                elif tok == CLOSE:
                    node, line0, col0 = open_nodes.pop()
                    self.positions.append((line0, col0, number, col, self.nodes[node]))
                elif tok:
                    out.append(tok)
                    col += len(tok.encode("utf-8"))
            self.lines.append("".join(out))
            if sp is not None:
                self.spans[number] = sp

    def insert(self, at: int, text: str) -> None:
        """Put a line (with no span) before line `at` + 1, when what it must say is known only after the
        lines below it were written; the spans and positions below move down with their lines."""
        self.lines.insert(at, "    " * self.indent + text)
        self.spans = {(n + 1 if n > at else n): sp for n, sp in self.spans.items()}
        self.positions = [(l0 + (l0 > at), c0, l1 + (l1 > at), c1, sp) for l0, c0, l1, c1, sp in self.positions]

    def splice(self, at: int, other: _Writer) -> None:
        """Put another writer's lines after line `at`, with their spans and positions; the lines below move
        down (a block written apart, placed once it is known to be needed)."""
        n = len(other.lines)
        self.lines[at:at] = other.lines
        self.spans = {(k + n if k > at else k): sp for k, sp in self.spans.items()}
        self.spans.update((k + at, sp) for k, sp in other.spans.items())
        self.positions = [(l0 + n * (l0 > at), c0, l1 + n * (l1 > at), c1, sp) for l0, c0, l1, c1, sp in self.positions]
        self.positions += [(l0 + at, c0, l1 + at, c1, sp) for l0, c0, l1, c1, sp in other.positions]

    def _physical(self, text: str, span: Span | None) -> list[tuple[str, Span | None]]:
        """The physical lines of one written line, each with its span: one per stretch of an inlined body,
        inside the brackets the body is written in (so Python reads them as one expression)."""
        first, *rest = text.split(PUSH)
        out = [("    " * self.indent + first, span)]
        stack = [span]
        pad = "    " * (self.indent + 2)
        for part in rest:
            mark, _, code = part.partition(END)
            if mark == "-":
                stack.pop()
            else:
                stack.append(self.marks[int(mark)])
            out.append((pad + code, stack[-1]))
        return out
