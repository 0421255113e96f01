"""What each generated function may reach: the names it uses, directly or through the functions it calls.

The engine asks two questions of a rule file that the generated code answers best, since the inliner has
put function bodies in place and every runtime helper, zone, phase and the end of a deal appear in it by
their `abi` names:
- which zones' order may a query read (legal actions, `visible` rules, strategies): in a state without a
  seed such a zone is decided at the end of every step (interpreter/engine/chance.py `fix_seen`);
- which steps may meet chance (a shuffle, a pick, a card of an undecided zone): only those need a copy of
  the state to go back to (interpreter/engine/state.py).

A name counts wherever it appears in a function's text, so the answers are conservative: a name in a
string or a branch never taken only costs speed.
"""

from __future__ import annotations

import re

from .. import abi

_DEF = re.compile(r"^def (\w+)\(", re.M)
_WORD = re.compile(r"\w+")
# A read of a zone's cards in order (codegen/expressions.py `_zone_code`): `_fz(s, Z_stock)`,
# `_fz_top(s, Z_hand + l_p, 1)`. Recorded as ORDERED + the zone's name constant.
_ORDERED_READ = re.compile(r"_fz(?:_top)?\(s, (Z_\w+)")
ORDERED = "@"


def _blocks(source: str) -> dict[str, str]:
    """The text of each top-level function of a generated module, by name."""
    out: dict[str, str] = {}
    starts = [(m.start(), m.group(1)) for m in _DEF.finditer(source)]
    for i, (at, name) in enumerate(starts):
        end = starts[i + 1][0] if i + 1 < len(starts) else len(source)
        out[name] = source[at:end]
    return out


# The names worth following: zones, phases, the end of a deal and the helpers that meet chance.
_KEPT = re.compile(rf"(@?Z_\w+|PHASE_\w+|END_DEAL|{'|'.join(abi.CHANCE_HELPERS)})$")


def reach(source: str) -> dict[str, frozenset[str]]:
    """For each top-level function of a generated module, the names it uses that are worth following (zones,
    phases, END_DEAL, the helpers that draw or move cards) and `ORDERED + Z_name` for each zone whose order
    it reads, directly or through the module's functions it calls.

    The checker refuses recursion, so the calls form a graph without cycles, and one pass with callees
    first settles it; a pass more is made until nothing changes, so a cycle would cost time, not truth.
    Each set holds at most the rule file's zones and phases and a few helpers: linear in the module."""
    blocks = _blocks(source)
    own: dict[str, frozenset[str]] = {}
    calls: dict[str, list[str]] = {}
    for name, text in blocks.items():
        words = set(_WORD.findall(text))
        words.update(ORDERED + z for z in _ORDERED_READ.findall(text))
        calls[name] = [w for w in words if w in blocks and w != name]
        own[name] = frozenset(w for w in words if _KEPT.match(w))
    out = dict(own)
    order = list(_postorder(blocks, calls))
    changed = True
    while changed:
        changed = False
        for f in order:
            merged = out[f].union(*(out[g] for g in calls[f]))
            if len(merged) != len(out[f]):
                out[f] = merged
                changed = True
    return out


def _postorder(blocks: dict[str, str], calls: dict[str, list[str]]) -> list[str]:
    """Every function, each after the functions it calls (iteratively: call chains may be long)."""
    seen: set[str] = set()
    out: list[str] = []
    for root in blocks:
        if root in seen:
            continue
        seen.add(root)
        path = [(root, 0)]
        while path:
            f, i = path[-1]
            if i < len(calls[f]):
                path[-1] = (f, i + 1)
                g = calls[f][i]
                if g not in seen:
                    seen.add(g)
                    path.append((g, 0))
                continue
            path.pop()
            out.append(f)
    return out
