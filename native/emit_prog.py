"""Design (b): the lowered rule file as one flat program of int64 words, which the engine built once
(engine_b.cc) checks and runs. Typed opcodes: the engine evaluates an int node, a float node or a list node
by a function of its own, so no value carries a run-time tag.

Layout: a header (sizes, variable initial values, phases, hooks, per-card tables, rank tables, functions,
actions) and then the code, each node `opcode, operands...` with its children as offsets into the code."""

from __future__ import annotations

import struct
from typing import Any

from lower_b import Program, rank_tables

OPS = """CI LOC ACTOR CUR DEALER VAR VARX TAB IF ADD SUB MUL FDIV MOD DIV I2F NOT AND OR CMP IN LET CALL LEN_ZONE LEN
FIRST LAST_ZONE LAST BY MIN2 MAX2 FOLD CF CLIST PACK ZONE COMP SORT RANGE
SETCUR SETDEALER SETVAR SETLOC PICK MOVEPACK MOVEZONE MOVELIST MOVE1 DEALEACH DEAL SHUFFLE RET DO IFS FOR""".split()
OP = {o: i for i, o in enumerate(OPS)}
KIND = {"i": 0, "f": 1, "l": 2, "": 3}
CMPS = {"==": 0, "!=": 1, "<": 2, "<=": 3, ">": 4, ">=": 5}
FOLDS = {"any": 0, "all": 1, "sum": 2, "count": 3, "max": 4, "min": 5, "max_by": 6, "min_by": 7, "all_max_by": 8}
MAGIC = 0x43534231  # "CSB1"


def fbits(v: float) -> int:
    return int(struct.unpack("<q", struct.pack("<d", v))[0])


class ProgWriter:
    def __init__(self) -> None:
        self.code: list[int] = []

    def node(self, op: str, ty: str, *words: int) -> int:
        pc = len(self.code)
        self.code += [OP[op], KIND[ty], *words]
        return pc

    def e(self, x: Any) -> int:
        op, ty = x[0], x[1]
        if op == "ci":
            return self.node("CI", ty, x[2])
        if op == "cf":
            return self.node("CF", ty, fbits(x[2]))
        if op == "clist":
            return self.node("CLIST", ty, len(x[2]), *x[2])
        if op == "pack":
            return self.node("PACK", ty)
        if op == "loc":
            return self.node("LOC", ty, x[2])
        if op in ("actor", "cur", "dealer"):
            return self.node(op.upper(), ty)
        if op == "var":
            return self.node("VAR", ty, x[2])
        if op == "varx":
            return self.node("VARX", ty, x[2], self.e(x[3]))
        if op == "zone":
            return self.node("ZONE", ty, self.e(x[2]))
        if op == "tab":
            return self.node("TAB", ty, x[2], self.e(x[3]))
        if op == "if":
            return self.node("IF", ty, self.e(x[2]), self.e(x[3]), self.e(x[4]))
        if op in ("add", "sub", "mul", "fdiv", "mod", "div", "min2", "max2"):
            return self.node(op.upper(), ty, self.e(x[2]), self.e(x[3]))
        if op in ("i2f", "not", "first", "last", "sort", "by", "len"):
            a = x[2]
            if op in ("len", "last") and a[0] == "zone":
                return self.node(op.upper() + "_ZONE", ty, self.e(a[2]))
            return self.node(op.upper(), ty, self.e(a))
        if op in ("and", "or"):
            kids = [self.e(v) for v in x[2]]
            return self.node(op.upper(), ty, len(kids), *kids)
        if op == "cmp":
            return self.node("CMP", x[3][1], CMPS[x[2]], self.e(x[3]), self.e(x[4]))
        if op == "in":
            return self.node("IN", ty, self.e(x[2]), self.e(x[3]))
        if op == "let":
            words: list[int] = []
            for k, slot, v in x[2]:
                words += [KIND[k], slot, self.e(v)]
            return self.node("LET", ty, len(x[2]), *words, self.e(x[3]))
        if op == "call":
            args = [self.e(a) for a in x[3]]
            return self.node("CALL", ty, x[2], len(args), *args)
        if op == "range":
            return self.node("RANGE", ty, self.e(x[2]), self.e(x[3]))
        if op == "comp":
            _, _, slot, it, cond, elem = x
            return self.node("COMP", ty, slot, self.e(it), self.e(cond) if cond is not None else -1, self.e(elem))
        if op == "fold":
            _, _, how, slot, it, cond, elem = x
            return self.node("FOLD", ty, FOLDS[how], slot, self.e(it), self.e(cond) if cond is not None else -1,
                             self.e(elem), KIND[elem[1]])
        raise NotImplementedError(op)

    def block(self, stmts: list[Any]) -> int:
        pcs = [self.s(st) for st in stmts]
        pc = len(self.code)
        self.code += [len(pcs), *pcs]
        return pc

    def s(self, st: Any) -> int:
        op = st[0]
        if op in ("set_current", "set_dealer"):
            return self.node("SETCUR" if op == "set_current" else "SETDEALER", "", self.e(st[1]))
        if op == "setvar":
            return self.node("SETVAR", "", self.e(st[1]), self.e(st[2]))
        if op == "setloc":
            return self.node("SETLOC", st[1], st[2], self.e(st[3]))
        if op == "pick":
            o = st[2]
            if o[0] == "zone":
                return self.node("PICK", "", st[1], 1, self.e(o[2]))
            return self.node("PICK", "", st[1], 0, self.e(o))
        if op == "movepack":
            return self.node("MOVEPACK", "", self.e(st[1]))
        if op in ("movezone", "movelist", "move1"):
            return self.node(op.upper(), "", self.e(st[1]), self.e(st[2]))
        if op in ("deal_each", "deal"):
            return self.node("DEALEACH" if op == "deal_each" else "DEAL", "", self.e(st[1]), self.e(st[2]),
                             self.e(st[3]))
        if op == "shuffle":
            return self.node("SHUFFLE", "", self.e(st[1]))
        if op == "ret":
            return self.node("RET", "", st[1])
        if op == "do":
            args = [self.e(a) for a in st[2]]
            return self.node("DO", "", st[1], len(args), *args)
        if op == "if":
            return self.node("IFS", "", self.e(st[1]), self.block(st[2]), self.block(st[3]))
        if op == "for":
            return self.node("FOR", "", st[1], self.e(st[2]), self.block(st[3]))
        raise NotImplementedError(op)


def emit(p: Program) -> list[int]:
    w = ProgWriter()
    funcs = []
    for f in p.funcs:
        body = w.e(f.body) if f.ret else w.block(f.body)
        funcs.append([KIND[f.ret], f.frame.count["i"], f.frame.count["f"], f.frame.count["l"], body,
                      len(f.params), *[x for k, i in f.params for x in (KIND[k], i)]])
    acts = []
    for a in p.actions:
        words = [a["off"], a["run"], w.e(a["when"]) if a["when"] is not None else -1, len(a["params"])]
        for kind, radix, stride, dom, slot in a["params"]:
            words += [1 if kind == "rank" else 0, radix, stride, w.e(dom), slot]
        acts.append(words)
    h: list[int] = [MAGIC, p.n, p.num_cards, len(p.zones), p.nvars, p.num_actions, len(p.strings)]
    h += [len(p.var_init)] + [x for slot, v, scope in p.var_init for x in (slot, v, scope == "deal")]
    h += [len(p.phases)]
    for ph in p.phases:
        h += [ph["first"], ph["start"], ph["after"], ph["end"], ph["then"], int(ph["round"]),
              {"same": 0, "clockwise": 1, "counterclockwise": 2}[ph["next"]], len(ph["actions"]), *ph["actions"]]
    hk = p.hooks
    h += [hk["match_start"], hk["match_deal"], hk["match_end_deal"], hk["over_when"], hk["returns"]]
    h += [len(p.tables)] + [x for t in p.tables for x in (len(t), *t)]
    pos, ids = rank_tables(p)
    h += [len(pos), *pos, len(ids), *ids]
    h += [len(funcs)] + [x for f in funcs for x in f]
    h += [len(acts)] + [x for a in acts for x in a]
    h += [len(w.code), *w.code]
    return h
