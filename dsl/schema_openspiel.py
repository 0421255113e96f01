"""The `openspiel:` section: how a game's action ids and tensors map to an existing OpenSpiel game's.

Read into an `OpenSpielSpec` (dsl/spec.py); the checker types its expressions (dsl/openspiel_checks.py), the
compiler writes each as a function of the module, and `interpreter/engine/layout.py` works the ids and
tensors out. Only the shape is read here: which actions exist and what the expressions mean is the checker's.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from . import keys as K
from . import parser
from .diagnostics import Span
from .reader import Reader
from .spec import OpenSpielSpec, TensorBlock
from .yaml_loader import YNode, YScalar, plain

KINDS = ("one_hot", "cards", "numbers", "thermometer", "moves")
# Keys only a `moves` block has, and the one only the others have.
MOVES_ONLY = ("width", "at", "bit", "when")
TIES = ("error", "first")
_FOR = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s+in\s+")


class OpenSpielSection(Reader):
    def openspiel(self, node: YNode | None) -> OpenSpielSpec | None:
        if isinstance(node, YScalar) and node.value is None:
            return None  # `openspiel:` left empty (a variant's `openspiel: null` drops its base's)
        m = self.want_map(node, "'openspiel'")
        if m is None:
            return None
        self.keys(m, K.OPENSPIEL, "'openspiel'")
        game = self.want_scalar(m.get("game"), "'game' of 'openspiel'", (str,)) or ""
        params = plain(m.get("parameters")) if m.get("parameters") is not None else {}
        if not isinstance(params, dict):
            pn = m.get("parameters")
            assert pn is not None
            self.err("S003", pn.span, "'parameters' of 'openspiel' must be a mapping (key: value lines)")
            params = {}
        actions = {}
        am = self.want_map(m.get("actions"), "'actions' of 'openspiel'")
        for name, (ks, vn) in (am.items.items() if am is not None else []):
            e = self.expr(vn, f"the OpenSpiel id of '{name}'")
            if e is not None:
                actions[name] = (e, ks.span)
        ties = self.want_scalar(m.get("ties"), "'ties'", (str,)) or "error"
        if ties not in TIES:
            tn = m.get("ties")
            self.err("S036", tn.span if tn is not None else m.span, f"'ties' cannot be '{ties}'",
                     "error: two legal actions with one OpenSpiel id are a rule error; first: the lowest id plays")
            ties = "error"
        return OpenSpielSpec(m.span, game, params, actions, self.expr(m.get("num_actions"), "'num_actions'"),
                             self.expr(m.get("card"), "'card' of 'openspiel'"),
                             self.blocks(m.get("observation"), "observation"),
                             self.blocks(m.get("information_state"), "information_state"),
                             am.span if am is not None else None, ties)

    def blocks(self, node: YNode | None, tensor: str) -> list[TensorBlock]:
        lst = self.want_list(node, f"'{tensor}' of 'openspiel'")
        out: list[TensorBlock] = []
        for k, item in enumerate(lst.items if lst is not None else []):
            where = f"block {k} of the {tensor.replace('_', ' ')} tensor"
            bm = self.want_map(item, where)
            if bm is None:
                continue
            self.keys(bm, K.TENSOR_BLOCK, where)
            kinds = [x for x in KINDS if x in bm.items]
            if len(kinds) != 1:
                self.err("S036", bm.span, f"{where} needs exactly one of {', '.join(KINDS)}",
                         "one_hot: EXPR, cards: EXPR, numbers: EXPR, thermometer: EXPR or moves: [ACTION, ...]")
                continue
            kind = kinds[0]
            wrong = [x for x in MOVES_ONLY if x in bm.items] if kind != "moves" else \
                ["for"] if "for" in bm.items else []
            if wrong:
                self.err("S036", bm.items[wrong[0]][0].span, f"'{wrong[0]}' is not a key of a '{kind}' block",
                         "width, at, bit and when are for a moves block; 'for' is for the other kinds")
                continue
            size = self.expr(bm.get("size"), "'size'")
            if size is None:
                continue
            name = self.want_scalar(bm.get("name"), "'name'", (str,)) or f"{kind}_{k}"
            block = TensorBlock(bm.span, kind, None, size, name)
            if kind == "moves":
                an = bm.get("moves")
                block.actions = []
                lst2 = self.want_list(an, "'moves'")
                for a in lst2.items if lst2 is not None else []:
                    if isinstance(a, YScalar) and isinstance(a.value, str):
                        block.actions.append((a.value, a.span))
                    else:
                        self.err("S010", a.span, "'moves' must be a list of action names")
                block.width = self.expr(bm.get("width"), "'width'")
                block.at = self.expr(bm.get("at"), "'at'")
                block.bit = self.expr(bm.get("bit"), "'bit'")
                block.when = self.expr(bm.get("when"), "'when'")
            else:
                block.value = self.expr(bm.get(kind), f"'{kind}'")
                if block.value is None:
                    continue
                fnode = bm.get("for")
                if fnode is not None:
                    text = self.want_scalar(fnode, "'for'", (str,))
                    fm = _FOR.match(text) if text is not None else None
                    if text is not None and not fm:
                        self.err("S008", fnode.span, "'for' must read 'NAME in EXPRESSION'")
                    if fm is None or not isinstance(fnode, YScalar):
                        continue
                    it = parser.parse(text[fm.end():], "expression",  # type: ignore[index]
                                      _shifted(fnode, fm.end()), self.diags, self.limits)
                    if it is None:
                        continue
                    block.each = (fm.group(1), it, fnode.span_at(1, fm.start(1) + 1))
            out.append(block)
        return out


def _shifted(node: YScalar, off: int) -> Callable[[int, int], Span]:
    """Positions in the text after `off` characters of the scalar's first line, as positions in the file."""
    return lambda ln, c: node.span_at(ln, c + off if ln == 1 else c)
