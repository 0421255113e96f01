"""YAML loading that keeps a position for every key and value.

PyYAML's composer gives nodes with marks; we turn them into small `Y*` nodes
so later stages can point at `file:line:col` of any value, including a
column inside an expression string. Only the plain YAML types are accepted:
a tag that would build a Python object is a located error, never obeyed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

from .diagnostics import Diagnostic, Refused, Span
from .limits import Limits

_STANDARD_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
}
# A plain `2024-05-01` resolves to a timestamp; a rule file has no dates, so it stays the text it reads as.
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_MERGE = "tag:yaml.org,2002:merge"



@dataclass(eq=False)
class YNode:
    span: Span


@dataclass(eq=False)
class YScalar(YNode):
    value: Any
    style: str | None = None
    # A value refused by the loader (a forbidden tag): later stages skip it silently.
    poison: bool = False
    # For block scalars: the file line and column where each text line starts.
    line_starts: list[tuple[int, int]] = field(default_factory=list)
    # A plain (unquoted) scalar YAML read as something other than text: its text as written, so a name
    # list can refuse `no` read as false or `07` read as 7 instead of silently renaming it.
    raw: str | None = None

    def span_at(self, line: int, col: int) -> Span:
        """File span of position (line, col), 1-based, inside the scalar's text."""
        if self.style == ">" and self.line_starts and isinstance(self.value, str):
            return self._folded_span(line, col)
        if self.line_starts and 1 <= line <= len(self.line_starts):
            fl, fc = self.line_starts[line - 1]
            return Span(self.span.file, fl, fc + col - 1)
        if line == 1:
            shift = 1 if self.style in ("'", '"') else 0
            return Span(self.span.file, self.span.line, self.span.col + shift + col - 1)
        return self.span


    def _folded_span(self, line: int, col: int) -> Span:
        # A folded block joins its lines with one separator each (a space, or a
        # newline for a blank line), so walk the original lines by offset.
        text_lines = self.value.split("\n")
        offset = sum(len(x) + 1 for x in text_lines[: line - 1]) + col - 1
        for fl, fc, length in self.fold_map:
            if offset <= length:
                return Span(self.span.file, fl, fc + offset)
            offset -= length + 1
        return self.span

    fold_map: list[tuple[int, int, int]] = field(default_factory=list)


@dataclass(eq=False)
class YMap(YNode):
    items: dict[str, tuple[YScalar, YNode]] = field(default_factory=dict)

    def get(self, key: str) -> YNode | None:
        kv = self.items.get(key)
        return kv[1] if kv else None


@dataclass(eq=False)
class YList(YNode):
    items: list[YNode] = field(default_factory=list)


class _Converter:
    def __init__(self, file: str, source: str, diags: list[Diagnostic], limits: Limits):
        self.file = file
        self.limits = limits
        self.lines = source.splitlines()
        self.diags = diags
        self.count = 0
        self.ctor = yaml.SafeLoader("")

    def span(self, mark: Any) -> Span:
        return Span(self.file, mark.line + 1, mark.column + 1)

    def error(self, code: str, node: Any, msg: str, hint: str | None = None) -> None:
        self.diags.append(Diagnostic(code, self.span(node.start_mark), msg, hint))

    def convert(self, node: Any, depth: int = 0) -> YNode:
        self.count += 1
        limits = self.limits
        if self.count > limits.yaml_nodes:
            raise Refused(Diagnostic("E005", self.span(node.start_mark), f"the file has more than "
                                     f"{limits.yaml_nodes:,} YAML values once its aliases are expanded",
                                     "aliases that expand into huge trees are refused; " + limits.hint("yaml_nodes")))
        if depth > limits.yaml_depth:
            raise Refused(Diagnostic("E006", self.span(node.start_mark),
                                     f"YAML nesting deeper than {limits.yaml_depth} levels", limits.hint("yaml_depth")))
        if node.tag == _TIMESTAMP and isinstance(node, yaml.ScalarNode):
            return YScalar(self.span(node.start_mark), node.value, node.style)
        if node.tag not in _STANDARD_TAGS:
            self.error("E001", node, f"YAML tag {node.tag!r} is not allowed in a rule file",
                       "use plain YAML values: strings, numbers, booleans, lists and mappings")
            return YScalar(self.span(node.start_mark), None, poison=True)
        if isinstance(node, yaml.ScalarNode):
            try:
                value = self.ctor.construct_object(node)
            except ValueError:  # e.g. an integer with thousands of digits
                self.error("E010", node, "this number is too large", "numbers in rule files stay below 10**18")
                return YScalar(self.span(node.start_mark), None, poison=True)
            if isinstance(value, (int, float)) and not isinstance(value, bool) and (
                    value != value or abs(value) > 10**18):
                self.error("E010", node, "this number is too large or not a number",
                           "numbers in rule files are finite and below 10**18")
                return YScalar(self.span(node.start_mark), None, poison=True)
            sc = YScalar(self.span(node.start_mark), value, node.style)
            if node.style is None and not isinstance(value, str):
                sc.raw = node.value
            if node.style in ("|", ">"):
                sc.line_starts = self._block_lines(node, str(value))
                if node.style == ">":
                    sc.fold_map = [(fl, fc, len(self.lines[fl - 1]) - (fc - 1)) for fl, fc in sc.line_starts
                                   if fl - 1 < len(self.lines) and self.lines[fl - 1].strip()]
            return sc
        if isinstance(node, yaml.SequenceNode):
            return YList(self.span(node.start_mark), [self.convert(n, depth + 1) for n in node.value])
        assert isinstance(node, yaml.MappingNode)
        m = YMap(self.span(node.start_mark))
        for knode, vnode in node.value:
            if knode.tag == _MERGE:
                # Refused with its own message, and the pair is skipped so no follow-on "unknown key" appears.
                self.error("E001", knode, "YAML merge keys ('<<') are not supported in a rule file",
                           "write the keys out, or start a variant with `extends:`")
                continue
            key = self.convert(knode, depth + 1)
            if not isinstance(key, YScalar) or isinstance(key.value, (list, dict)):
                self.error("E002", knode, "a mapping key must be a plain value")
                continue
            kstr = str(key.value) if key.value is not None else "null"
            if kstr in m.items:
                self.error("E003", knode, f"duplicate key {kstr!r}",
                           f"first given at line {m.items[kstr][0].span.line}")
                continue
            m.items[kstr] = (key, self.convert(vnode, depth + 1))
        return m

    def _block_lines(self, node: Any, text: str) -> list[tuple[int, int]]:
        first = node.start_mark.line + 1  # content starts on the line after the indicator
        # The end mark sits at the start of the next key's line unless the file ends inside the block.
        last = node.end_mark.line + (1 if node.end_mark.column > 0 else 0)
        starts: list[tuple[int, int]] = []
        indent = None
        for i in range(first, min(last, len(self.lines))):
            raw = self.lines[i]
            if raw.strip():
                ind = len(raw) - len(raw.lstrip(" "))
                indent = ind if indent is None else min(indent, ind)
        indent = indent or 0
        for i in range(first, min(last, len(self.lines))):
            starts.append((i + 1, indent + 1))
        return starts


class _BoundedLoader(yaml.SafeLoader):
    """PyYAML's safe loader, stopped as soon as the document passes the node or depth limits: a megabyte of
    tiny values (`[a,a,a,...]`) costs PyYAML seconds per hundred thousand, and deep nesting recursion."""

    def __init__(self, stream: str, limits: Limits):
        super().__init__(stream)
        self.limits = limits
        self.nodes = 0
        self.depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        self.nodes += 1
        self.depth += 1
        try:
            limits = self.limits
            if self.nodes > limits.yaml_nodes or self.depth > limits.yaml_depth + 1:
                raise _Stop(self.peek_event().start_mark, self.nodes > limits.yaml_nodes)
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


class _Stop(Exception):
    def __init__(self, mark: Any, too_many: bool):
        self.mark = mark
        self.too_many = too_many


def _compose(file: str, source: str, diags: list[Diagnostic], limits: Limits) -> Any:
    loader = _BoundedLoader(source, limits)
    try:
        return loader.get_single_node()
    except _Stop as stop:
        span = Span(file, stop.mark.line + 1, stop.mark.column + 1)
        if stop.too_many:
            diags.append(Diagnostic("E005", span, f"the file has more than {limits.yaml_nodes:,} YAML values once "
                                    "its aliases are expanded", "aliases that expand into huge trees are refused; "
                                    + limits.hint("yaml_nodes")))
        else:
            diags.append(Diagnostic("E006", span, f"YAML nesting deeper than {limits.yaml_depth} levels",
                                    limits.hint("yaml_depth")))
        return _STOPPED
    finally:
        loader.dispose()


_STOPPED = object()


def load(file: str, source: str, diags: list[Diagnostic], limits: Limits) -> YNode | None:
    """Parse YAML text into Y-nodes within `limits`; problems go to `diags`."""
    try:
        root = _compose(file, source, diags, limits)
        if root is _STOPPED:
            return None
    except RecursionError:
        diags.append(Diagnostic("E006", _deepest(file, source, limits.yaml_depth),
                                f"YAML nesting deeper than {limits.yaml_depth} levels", limits.hint("yaml_depth")))
        return None
    except yaml.MarkedYAMLError as e:
        ctx, pm = e.context_mark, e.problem_mark
        if ctx is not None and pm is not None and (e.context or "").startswith("while parsing a flow") \
                and ctx.line != pm.line:
            # An unclosed bracket: point at the bracket, not where the parser gave up.
            opener = source.splitlines()[ctx.line][ctx.column:ctx.column + 1] if ctx.line < len(
                source.splitlines()) else "{"
            diags.append(Diagnostic("E000", Span(file, ctx.line + 1, ctx.column + 1),
                                    f"YAML syntax: this '{opener}' is never closed ({e.problem} at line "
                                    f"{pm.line + 1}, column {pm.column + 1})"))
            return None
        if ctx is not None and (e.context or "").startswith("while scanning a quoted scalar"):
            diags.append(Diagnostic("E000", Span(file, ctx.line + 1, ctx.column + 1),
                                    "YAML syntax: this quote is never closed",
                                    "close it on the same line; a step holding ': ' or '#' must be quoted whole, "
                                    "e.g. - \"log 'best so far: {}', best\""))
            return None
        mark = pm or ctx
        span = Span(file, mark.line + 1, mark.column + 1) if mark else Span(file, 1, 1)
        hint = None
        line_text = source.splitlines()[mark.line] if mark and mark.line < len(source.splitlines()) else ""
        key = _flow_key(line_text, mark.column) if mark and (e.context or "").startswith("while parsing a flow") \
            else None
        if key is not None:
            # `{won[1]: 3}` in a scenario: the key, not a step, is what needs quotes.
            hint = (f"quote a key that holds brackets in a {{...}} map: {{\"{key[0]}\": {key[1]}}}; written one key "
                    "a line, it needs no quotes")
        elif line_text.lstrip().startswith("- ") and (": " in line_text or "'" in line_text or " #" in line_text):
            hint = "quote the whole step: - \"log 'best so far: {}', best\" (YAML reads ': ' and ' #' itself)"
        elif (e.context or "").startswith("while parsing a flow") or ": " in (e.problem or ""):
            hint = "quote a step or expression that holds [ ] { } ':' or '#', e.g. [\"xs += [x]\"]"
        diags.append(Diagnostic("E000", span, f"YAML syntax: {e.problem or e.context}", hint))
        return None
    except yaml.reader.ReaderError as e:
        # A control character: located at the character, named by its code (printing it would be the harm).
        before = source[: e.position]
        line, col = before.count("\n") + 1, e.position - (before.rfind("\n") + 1) + 1
        diags.append(Diagnostic("E000", Span(file, line, col), f"YAML syntax: the control character "
                                f"U+{e.character:04X} is not allowed in a rule file",
                                "write it as an escape in a double-quoted text (\\t, \\x1b), or remove it"))
        return None
    except yaml.YAMLError as e:
        diags.append(Diagnostic("E000", Span(file, 1, 1), f"YAML syntax: {e}"))
        return None
    if root is None:
        diags.append(Diagnostic("E004", Span(file, 1, 1), "the rule file is empty"))
        return None
    conv = _Converter(file, source, diags, limits)
    try:
        return conv.convert(root)
    except Refused as e:
        diags.append(e.diagnostic)
    return None


def _flow_key(line: str, col: int) -> tuple[str, str] | None:
    """The key and value around column `col` (0-based) of a `{...}` map on `line`, if the parser stopped inside
    a key (no ':' between the key's start and `col`); the value is `...` unless it is one plain word."""
    start = max(line.rfind("{", 0, col), line.rfind(",", 0, col))
    if start < 0 or any(ch in line[start + 1:col] for ch in ":'\""):
        return None
    colon = line.find(": ", col)
    if colon < 0:
        return None
    key = line[start + 1:colon].strip()
    end = min((i for i in (line.find(",", colon), line.find("}", colon)) if i >= 0), default=len(line))
    value = line[colon + 2:end].strip()
    if not key or any(ch in key for ch in "{}'\"#"):
        return None
    return key, value if value and not any(ch in value for ch in "[]{}:'\"#") else "..."


def _deepest(file: str, source: str, limit: int) -> Span:
    """Where bracket nesting first passes the limit (else the most indented line)."""
    depth = 0
    quote = ""
    for ln, line in enumerate(source.splitlines(), 1):
        for col, ch in enumerate(line, 1):
            if quote:
                quote = "" if ch == quote else quote
            elif ch in "'\"":
                quote = ch
            elif ch == "#" and (col == 1 or line[col - 2] == " "):
                break
            elif ch in "[{":
                depth += 1
                if depth > limit:
                    return Span(file, ln, col)
            elif ch in "]}":
                depth -= 1
    lines = source.splitlines() or [""]
    ln = max(range(len(lines)), key=lambda i: len(lines[i]) - len(lines[i].lstrip(" ")))
    return Span(file, ln + 1, len(lines[ln]) - len(lines[ln].lstrip(" ")) + 1)


def misread(node: YNode) -> str | None:
    """The text as written of a plain scalar that YAML read as something else than it reads to a person:
    `null`, `~` or nothing read as no value, `yes`/`no`/`on`/`off` (or `True`) read as true or false, `07`,
    `1_0` or `10.50` read as a number that prints differently. None for any other node."""
    if not isinstance(node, YScalar) or node.raw is None or node.poison:
        return None
    v = node.value
    if v is None:
        return node.raw
    text = str(v).lower() if isinstance(v, bool) else str(v)
    return None if text == node.raw else node.raw


def plain(node: YNode | None) -> Any:
    """The node as plain Python data (positions dropped)."""
    if node is None:
        return None
    if isinstance(node, YScalar):
        return node.value
    if isinstance(node, YList):
        return [plain(n) for n in node.items]
    assert isinstance(node, YMap)
    return {kn.value: plain(v) for kn, v in node.items.values()}
