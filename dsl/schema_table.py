"""Sections that set the table: players, options, constants, the deck and its pack, zones, variables."""

from __future__ import annotations

from typing import Any

from . import ast as A
from . import keys as K
from .diagnostics import Span
from .reader import Reader
from .spec import MAX_PLAYERS, VAR_TYPES, ConstraintSpec, OptionSpec, PackEntry, PropertySpec, VarSpec, ZoneSpec
from .yaml_loader import YList, YMap, YNode, YScalar


class TableSections(Reader):
    def players(self, node: YNode | None) -> tuple[int, int]:
        if node is None:
            return (2, 2)
        if isinstance(node, YScalar):
            n = self.want_scalar(node, "'players'", (int,))
            if n is not None and not 1 <= n <= MAX_PLAYERS:
                self.err("S012", node.span, f"{n} players is not possible", f"1 <= players <= {MAX_PLAYERS}")
                return (2, 2)
            return (n, n) if n is not None else (2, 2)
        m = self.want_map(node, "'players'")
        if m is None:
            return (2, 2)
        self.keys(m, K.PLAYERS, "'players'")
        lo = self.want_scalar(m.get("min"), "'players: min'", (int,))
        lo = 2 if lo is None else lo  # 0 is a value to refuse, not a missing one
        hi = self.want_scalar(m.get("max"), "'players: max'", (int,))
        hi = lo if hi is None else hi
        if lo < 1 or hi < lo or hi > MAX_PLAYERS:
            self.err("S012", m.span, f"player range {lo} to {hi} is not possible",
                     f"1 <= min <= max <= {MAX_PLAYERS}")
            return (2, 2)
        return (lo, hi)

    def teams(self, node: YNode | None) -> A.Expr | None:
        """`players: teams:`, an expression of the seat `p` giving its team number (read with `players`)."""
        if not isinstance(node, YMap) or node.get("teams") is None:
            return None
        return self.expr(node.get("teams"), "'teams'")

    def options(self, node: YNode | None) -> list[OptionSpec]:
        m = self.want_map(node, "'options'")
        out: list[OptionSpec] = []
        if m is None:
            return out
        for name, (ks, vnode) in m.items.items():
            if not self.ident(name, ks.span, "option"):
                continue
            om = self.want_map(vnode, f"option '{name}'")
            if om is None:
                continue
            self.keys(om, K.OPTION, f"option '{name}'")
            kind = self.want_scalar(om.get("type"), "'type'", (str,)) or "int"
            if kind not in ("int", "bool", "choice"):
                tnode = om.get("type")
                self.err("S013", tnode.span if tnode else om.span,
                         f"option type '{kind}' is unknown", "use int, bool or choice")
                continue
            dnode = om.get("default")
            default: Any = None
            if isinstance(dnode, YScalar) and isinstance(dnode.value, str) and dnode.value.startswith("="):
                shifted = YScalar(dnode.span, dnode.value[1:], dnode.style)
                shifted.span = Span(dnode.span.file, dnode.span.line,
                                    dnode.span.col + 1 + (1 if dnode.style in ("'", '"') else 0))
                shifted.style = None
                default = self.expr(shifted, f"default of option '{name}'")
            elif isinstance(dnode, YScalar):
                default = dnode.value
            opt = OptionSpec(name, ks.span, kind, default, doc=str(self.want_scalar(om.get("doc"), "'doc'",
                                                                                    (str,)) or ""))
            opt.default_text = str(dnode.value) if isinstance(dnode, YScalar) else ""
            if kind == "int":
                mnode, xnode = om.get("min"), om.get("max")
                opt.min_expr, opt.min_text = self._bound(mnode, f"'min' of option '{name}'")
                opt.max_expr, opt.max_text = self._bound(xnode, f"'max' of option '{name}'")
                if opt.min_text and opt.min_expr is None or opt.max_text and opt.max_expr is None:
                    continue  # the bound's expression could not be read (reported)
                if not opt.min_text:
                    opt.min = self.want_scalar(mnode, "'min'", (int,))
                if not opt.max_text:
                    opt.max = self.want_scalar(xnode, "'max'", (int,))
                if (opt.min is None and opt.min_expr is None) or (opt.max is None and opt.max_expr is None):
                    self.err("S014", om.span, f"int option '{name}' needs 'min' and 'max'")
                    continue
                if opt.min is not None and opt.max is not None and opt.min > opt.max:
                    self.err("S014", mnode.span if mnode else om.span,
                             f"int option '{name}' has 'min' {opt.min} above 'max' {opt.max}")
                    continue
                if not isinstance(default, (int, A.Expr)) or isinstance(default, bool):
                    self.err("S015", dnode.span if dnode else om.span,
                             f"default of option '{name}' must be a whole number or '=expression'")
                    continue
                low = opt.min is not None and isinstance(default, int) and default < opt.min
                high = opt.max is not None and isinstance(default, int) and default > opt.max
                if (low or high) and opt.min is not None and opt.max is not None:
                    self.err("S015", dnode.span if dnode else om.span,
                             f"default {default} of option '{name}' is not between 'min' {opt.min} and 'max' "
                             f"{opt.max}")
                    continue
                if low or high:  # one bound is worked out when the game is set up; the other is written
                    self.err("S015", dnode.span if dnode else om.span,
                             f"default {default} of option '{name}' is "
                             + (f"below 'min' {opt.min}" if low else f"above 'max' {opt.max}"))
                    continue
            elif kind == "bool":
                if not isinstance(default, (bool, A.Expr)):
                    self.err("S015", dnode.span if dnode else om.span,
                             f"default of option '{name}' must be true, false or '=expression'")
                    continue
            else:
                opt.values = self.names_list(om.get("values"), f"values of option '{name}'")
                if not opt.values:
                    self.err("S016", om.span, f"choice option '{name}' needs a list of 'values'")
                    continue
                if dnode is not None and self.misread(dnode, f"the default of option '{name}'"):
                    continue
                if not isinstance(default, A.Expr) and str(default) not in opt.values:
                    self.err("S015", dnode.span if dnode else om.span,
                             f"default '{default}' of option '{name}' is not one of its values",
                             f"values: {', '.join(opt.values)}")
                    continue
                if not isinstance(default, A.Expr):
                    opt.default = str(default)
            out.append(opt)
        return out

    def _bound(self, node: YNode | None, where: str) -> tuple[A.Expr | None, str]:
        """An int option's `min`/`max` written as an expression (`=52 // num_players`, or the text without
        `=`), worked out when the game is set up; (None, "") for a number or a missing bound."""
        if not isinstance(node, YScalar) or not isinstance(node.value, str):
            return None, ""
        text = node.value
        if not text.startswith("="):
            return self.expr(node, where), text.strip()
        shifted = YScalar(node.span, text[1:], None)
        shifted.span = Span(node.span.file, node.span.line,
                            node.span.col + 1 + (1 if node.style in ("'", '"') else 0))
        return self.expr(shifted, where), text[1:].strip()

    def constraints(self, node: YNode | None) -> list[ConstraintSpec]:
        """Settings of the table the rules refuse, each with the designer's message."""
        items = self.want_list(node, "'constraints'")
        out: list[ConstraintSpec] = []
        if items is None:
            return out
        for item in items.items:
            m = self.want_map(item, "a constraint")
            if m is None:
                continue
            self.keys(m, K.CONSTRAINT, "a constraint")
            if ("refuse" in m.items) == ("require" in m.items):
                self.err("S031", m.span, "a constraint needs exactly one of 'refuse' and 'require'",
                         "refuse: CONDITION refuses the table when it holds; require: CONDITION when it does not")
                continue
            key = "refuse" if "refuse" in m.items else "require"
            cnode = m.get(key)
            cond = self.expr(cnode, f"'{key}'")
            message = self.want_scalar(m.get("message"), "'message'", (str,))
            if message is not None and (not message.strip() or not message.isprintable()):
                mnode = m.get("message")
                self.err("S010", mnode.span if mnode else m.span,
                         "a constraint's message must be one printable line of text")
                continue
            if cond is not None and message is not None:
                text = str(cnode.value) if isinstance(cnode, YScalar) else ""
                out.append(ConstraintSpec(m.span, cond, key == "refuse", message.strip(), text))
        return out

    def constants(self, node: YNode | None) -> dict[str, tuple[Any, Span]]:
        m = self.want_map(node, "'constants'")
        out: dict[str, tuple[Any, Span]] = {}
        if m is None:
            return out
        from .yaml_loader import plain
        for name, (ks, vnode) in m.items.items():
            if self.ident(name, ks.span, "constant") and not self._misread_in(vnode, f"constant '{name}'"):
                out[name] = (plain(vnode), vnode.span)
        return out

    def _misread_in(self, node: YNode, where: str) -> bool:
        """Whether a value of the constant, a key of its tables or an item of its lists is one YAML misread
        (each reported): `null` or `no` in a list of texts would silently become a choice nobody can make."""
        if isinstance(node, YList):
            return any([self._misread_in(n, where) for n in node.items])
        if isinstance(node, YMap):
            return any([self.misread(k, where, names=False) | self._misread_in(v, where)
                        for k, v in node.items.values()])
        return self.misread(node, where, names=False)

    def deck(self, node: YNode | None, suit_spans: dict[str, Span], rank_spans: dict[str, Span]
             ) -> tuple[list[str], list[str], list[PropertySpec], list[PackEntry]]:
        """The deck's suits, ranks, properties and pack; `suit_spans` and `rank_spans` get where each suit and
        rank is written (a property table missing one is reported there when a variant added it)."""
        m = self.want_map(node, "'deck'")
        if m is None:
            return ([], [], [], [])
        self.keys(m, K.DECK, "'deck'")
        suits = self.names_list(m.get("suits"), "'suits'", suit_spans)
        ranks = self.names_list(m.get("ranks"), "'ranks'", rank_spans)
        props: list[PropertySpec] = []
        pm = self.want_map(m.get("properties"), "'properties'")
        if pm is not None:
            for pname, (ks, vnode) in pm.items.items():
                if not self.ident(pname, ks.span, "property"):
                    continue
                p = self.prop(pname, ks.span, vnode)
                if p is not None:
                    props.append(p)
        pack: list[PackEntry] = []
        pl = self.want_list(m.get("pack"), "'pack'")
        if pl is None:
            pack.append(PackEntry(m.span, None, None, 1, None, None))
        else:
            for item in pl.items:
                e = self.pack_entry(item)
                if e is not None:
                    pack.append(e)
        return suits, ranks, props, pack

    def prop(self, name: str, span: Span, node: YNode) -> PropertySpec | None:
        if isinstance(node, YScalar):
            if isinstance(node.value, str):
                e = self.expr(node, f"property '{name}'")
                return PropertySpec(name, span, "expr", expr=e) if e is not None else None
            if isinstance(node.value, (int, float)):
                return PropertySpec(name, span, "const", default=node.value)
        m = self.want_map(node, f"property '{name}'")
        if m is None:
            return None
        self.keys(m, K.PROPERTY, f"property '{name}'")
        by = "rank" if "by_rank" in m.items else "suit" if "by_suit" in m.items else None
        if by is None or ("by_rank" in m.items and "by_suit" in m.items):
            self.err("S017", m.span, f"property '{name}' needs exactly one of 'by_rank' or 'by_suit'")
            return None
        tm = self.want_map(m.get(f"by_{by}"), f"'by_{by}'")
        if tm is None:
            return None
        table_span = m.items[f"by_{by}"][0].span
        table: dict[str, Any] = {}
        spans: dict[str, Span] = {}
        spans_of_values: dict[str, Span] = {}
        for k, (kn, vn) in tm.items.items():
            key = k.lower() if k in ("True", "False") else k
            spans[key] = kn.span  # a key with a bad value is still written: not also reported as missing (C038)
            if not isinstance(vn, YScalar) or isinstance(vn.value, (list, dict)) or vn.value is None:
                self.err("S018", vn.span, "a property value must be a number, text or true/false")
                continue
            table[key] = vn.value
            spans_of_values[key] = vn.span
        dnode = m.get("default")
        default = dnode.value if isinstance(dnode, YScalar) else None
        if dnode is not None and (default is None or isinstance(default, (list, dict))):
            # Not "no default": the table must then cover the pack (C038), and `null` would say it does not.
            self.err("S018", dnode.span, "a property's default must be a number, text or true/false")
            return None
        return PropertySpec(name, span, by, table, default, table_spans=spans, table_span=table_span,
                            value_spans=spans_of_values, default_span=dnode.span if dnode is not None else None)

    def pack_entry(self, node: YNode) -> PackEntry | None:
        m = self.want_map(node, "a 'pack' entry")
        if m is None:
            return None
        self.keys(m, K.PACK_ENTRY, "a 'pack' entry")
        copies = self.want_scalar(m.get("copies"), "'copies'", (int,)) if "copies" in m.items else 1
        if copies is None or copies < 0 or copies > 64:
            cn = m.get("copies")
            self.err("S019", cn.span if cn else m.span, "'copies' must be between 0 and 64")
            copies = 1
        suits = self.names_list(m.get("suits"), "'suits'") if "suits" in m.items else None
        ranks = self.names_list(m.get("ranks"), "'ranks'") if "ranks" in m.items else None
        card = self.want_scalar(m.get("card"), "'card'", (str,)) if "card" in m.items else None
        if card is not None and (not card or not card.isprintable() or card.strip() != card):
            cn = m.get("card")
            self.err("S010", cn.span if cn else m.span, "a card's name must be on one line, without spaces at "
                     "its ends or control characters", f"got {card!r}")
            card = None
        cnode = m.get("card")
        return PackEntry(m.span, suits, ranks, copies, self.expr(m.get("when"), "'when'"),
                         self.expr(m.get("where"), "'where'"), card, cnode.span if cnode is not None else None)

    def zones(self, node: YNode | None) -> list[ZoneSpec]:
        m = self.want_map(node, "'zones'")
        out: list[ZoneSpec] = []
        if m is None:
            return out
        for name, (ks, vnode) in m.items.items():
            if not self.ident(name, ks.span, "zone"):
                continue
            zm = self.want_map(vnode, f"zone '{name}'") if not (
                isinstance(vnode, YScalar) and vnode.value is None) else YMap(vnode.span)
            if zm is None:
                continue
            self.keys(zm, K.ZONE, f"zone '{name}'")
            pp = bool(self.want_scalar(zm.get("per_player"), "'per_player'", (bool,)))
            vis = self.visibility(zm.get("visible"), "'visible'", "everyone")
            if vis == "owner" and not pp:
                vn = zm.get("visible")
                self.err("S020", vn.span if vn else zm.span,
                         f"zone '{name}' has no owner: 'owner' needs 'per_player: true'")
            out.append(ZoneSpec(name, ks.span, pp, vis, *self.presentation(zm, f"zone '{name}'")))
        self.distinct_labels(out, "zones")
        return out

    def variables(self, node: YNode | None) -> list[VarSpec]:
        m = self.want_map(node, "'variables'")
        out: list[VarSpec] = []
        if m is None:
            return out
        for name, (ks, vnode) in m.items.items():
            if not self.ident(name, ks.span, "variable"):
                continue
            vm = self.want_map(vnode, f"variable '{name}'")
            if vm is None:
                continue
            self.keys(vm, K.VARIABLE, f"variable '{name}'")
            tname = self.want_scalar(vm.get("type"), "'type'", (str,)) or "int"
            if tname not in VAR_TYPES:
                tn = vm.get("type")
                self.err("S021", tn.span if tn else vm.span, f"unknown variable type '{tname}'",
                         f"types: {', '.join(VAR_TYPES)}")
                continue
            scope = self.want_scalar(vm.get("scope"), "'scope'", (str,)) or "match"
            if scope not in ("match", "deal"):
                sn = vm.get("scope")
                self.err("S022", sn.span if sn else vm.span, "'scope' must be 'match' or 'deal'")
            inode = vm.get("initial")
            init: A.Expr | None = None
            if inode is not None:
                if isinstance(inode, YList) and not inode.items:
                    init = A.ListLit(inode.span, [])
                elif isinstance(inode, YScalar) and inode.value is None:
                    init = A.Const(inode.span, None)
                else:
                    init = self.expr(inode, f"initial value of '{name}'")
            per_player = bool(self.want_scalar(vm.get("per_player"), "'per_player'", (bool,)))
            per_team = bool(self.want_scalar(vm.get("per_team"), "'per_team'", (bool,)))
            if per_player and per_team:
                tn = vm.get("per_team")
                self.err("S030", tn.span if tn else vm.span, f"variable '{name}' is kept per player or per team, "
                         "not both", "per_team: one value per team, read as "
                         f"{name}[team[p]]; per_player: one value per seat, {name}[p]")
                per_player = False
            vis = self.visibility(vm.get("visible"), "'visible'", "everyone")
            if vis == "owner" and not per_player and not per_team:
                vn = vm.get("visible")
                self.err("S020", vn.span if vn else vm.span,
                         f"variable '{name}' has no owner: 'owner' needs 'per_player: true' (or 'per_team: true')")
            out.append(VarSpec(name, ks.span, VAR_TYPES[tname], per_player, scope, init, vis, per_team,
                               *self.presentation(vm, f"variable '{name}'")))
        self.distinct_labels(out, "variables")
        return out

    def distinct_labels(self, items: list[ZoneSpec] | list[VarSpec], what: str) -> None:
        """Two zones (or variables) shown under one label would be one row at the table."""
        seen: dict[str, str] = {}
        for x in items:
            if x.show is False:
                continue
            shown = (x.label or x.name.replace("_", " ")).casefold()
            if shown in seen:
                self.err("S033", x.span, f"the tables would show {what} '{seen[shown]}' and '{x.name}' both as "
                         f"'{x.label or x.name.replace('_', ' ')}'", "give each its own 'label', or 'show: false' "
                         "to one the players need not see")
            else:
                seen[shown] = x.name
