"""Variants: a rule file that `extends:` another states only what it changes.

The child's sections are merged into the base's, name by name: an entry in
`options`, `constants`, `zones`, `variables`, `define`, `procedures`,
`actions` or `phases` must exist in the base (a misspelt override is an
error at its line), and its keys replace the base entry's keys one by one.
New entries go under `new:`, and `remove:` drops entries. Other sections
(`game`, `summary`, `players`, `deck`, `match`) are replaced key by key.

Merging works on located YAML nodes, so every later diagnostic points into
the file that wrote the offending line.
"""

from __future__ import annotations

import re
from pathlib import Path

from .diagnostics import Diagnostic
from .keys import NAMED_SECTIONS
from .suggest import did_you_mean
from .yaml_loader import YList, YMap, YNode, YScalar

KEYED_SECTIONS = ["players", "deck", "match"]
MAX_DEPTH = 8

_SIG = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)")


def _name(key: str) -> str:
    m = _SIG.match(key)
    return m.group(1) if m else key


def _index(section: YMap) -> dict[str, list[str]]:
    """The keys in a named section that declare each name (functions are keyed `f(x)`), in order.

    Built once per section, so that a variant with many entries is merged in linear time."""
    out: dict[str, list[str]] = {}
    for k in section.items:
        out.setdefault(_name(k), []).append(k)
    return out


def merge(base: YMap, child: YMap, diags: list[Diagnostic]) -> YMap:
    out = YMap(base.span, dict(base.items))
    for key, (ks, node) in child.items.items():
        if key in ("extends", "new", "remove"):
            continue
        if key in NAMED_SECTIONS:
            out.items[key] = (ks, _merge_named(key, out.get(key), node, diags))
        elif key in KEYED_SECTIONS and isinstance(node, YMap) and isinstance(out.get(key), YMap):
            bm = out.get(key)
            assert isinstance(bm, YMap)
            merged = YMap(bm.span, dict(bm.items))
            merged.items.update(node.items)
            out.items[key] = (ks, merged)
        else:
            out.items[key] = (ks, node)
    new = child.get("new")
    if new is not None:
        if not isinstance(new, YMap):
            diags.append(Diagnostic("X003", new.span, "'new' must map sections to the entries they add"))
        else:
            for key, (ks, node) in new.items.items():
                if key not in NAMED_SECTIONS:
                    diags.append(Diagnostic("X004", ks.span, f"'new' adds to named sections only, not '{key}'",
                                            f"sections: {', '.join(NAMED_SECTIONS)}"))
                    continue
                if not isinstance(node, YMap):
                    diags.append(Diagnostic("X003", node.span, f"'new: {key}' must be a mapping"))
                    continue
                section = out.get(key)
                merged = YMap(section.span if section else node.span,
                              dict(section.items) if isinstance(section, YMap) else {})
                existing = _index(section) if isinstance(section, YMap) else {}
                for k, (kk, v) in node.items.items():
                    if _name(k) in existing:
                        diags.append(Diagnostic("X005", kk.span, f"'{_name(k)}' already exists in the base's "
                                                f"'{key}'", "to change it, write it in the section itself"))
                        continue
                    merged.items[k] = (kk, v)
                out.items[key] = (ks if key not in out.items else out.items[key][0], merged)
    remove = child.get("remove")
    if remove is not None:
        _remove(out, remove, diags)
    return out


def _merge_named(section: str, base: YNode | None, child: YNode, diags: list[Diagnostic]) -> YNode:
    if not isinstance(child, YMap):
        diags.append(Diagnostic("X003", child.span, f"'{section}' in a variant must be a mapping of entries to "
                                "change"))
        return base if base is not None else child
    if not isinstance(base, YMap):
        for k, (ks, _) in child.items.items():
            diags.append(Diagnostic("X001", ks.span, f"the base has no '{section}' to change ('{_name(k)}')",
                                    f"to add it, put it under 'new: {section}:'"))
        return base if base is not None else YMap(child.span)
    # The section as a list of [key, (key span, node)] slots: an override replaces its slot, so the entry
    # keeps the base's place (zone order places the pack, action order numbers ids).
    slots: list[tuple[str, tuple[YScalar, YNode]]] = list(base.items.items())
    where: dict[str, int] = {}
    for n, (key, _) in enumerate(slots):
        where.setdefault(_name(key), n)
    for k, (ks, node) in child.items.items():
        i = where.get(_name(k))
        if i is None:
            hint = did_you_mean(_name(k), where) or f"to add it, put it under 'new: {section}:'"
            diags.append(Diagnostic("X001", ks.span, f"'{_name(k)}' is not in the base's '{section}'", hint))
            continue
        bnode = slots[i][1][1]
        if isinstance(node, YMap) and isinstance(bnode, YMap) and section not in ("constants", "define"):
            merged = YMap(bnode.span, dict(bnode.items))
            merged.items.update(node.items)
            new_value: YNode = merged
        else:
            new_value = node
        slots[i] = (k, (ks, new_value))
    out = YMap(base.span)
    for key, val in slots:
        out.items.setdefault(key, val)
    return out


def _remove(out: YMap, node: YNode, diags: list[Diagnostic]) -> None:
    if not isinstance(node, YMap):
        diags.append(Diagnostic("X003", node.span, "'remove' maps sections to lists of entry names"))
        return
    for key, (ks, names) in node.items.items():
        section = out.get(key)
        if key not in NAMED_SECTIONS or not isinstance(section, YMap):
            diags.append(Diagnostic("X004", ks.span, f"nothing to remove from '{key}'"))
            continue
        section = YMap(section.span, dict(section.items))
        index = _index(section)
        items = names.items if isinstance(names, YList) else [names]
        for item in items:
            name = str(item.value) if isinstance(item, YScalar) else ""
            found = index.get(name)
            if not found:
                diags.append(Diagnostic("X001", item.span, f"'{name}' is not in the base's '{key}'"))
                continue
            del section.items[found.pop(0)]
        out.items[key] = (out.items[key][0], section)


def base_path(child_file: str, text: str) -> Path:
    """Where `extends: text` points: relative to the child file's folder."""
    return Path(child_file).parent / text


__all__ = ["MAX_DEPTH", "base_path", "merge"]
