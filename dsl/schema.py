"""The rule file's structure: which sections and keys exist, and their shapes.

`read_spec` walks the located YAML tree, reports every structural problem
(unknown or missing keys, wrong kinds of value) and parses each expression and
statement it meets. The result is a `GameSpec` of plain dataclasses holding
ASTs (`spec`); names and types are the checker's job. The values every section
is made of are read by `reader.Reader`; the sections by `schema_table` (the
table a game is played with) and `schema_rules` (how it is played).
"""

from __future__ import annotations

import re

from .diagnostics import Diagnostic, Span
from .keys import RULE_FILE
from .limits import Limits
from .schema_openspiel import OpenSpielSection
from .schema_rules import RuleSections
from .schema_table import TableSections
from .spec import GameSpec
from .yaml_loader import YMap, YNode, YScalar


class _Reader(TableSections, RuleSections, OpenSpielSection):
    def read(self, root: YNode) -> GameSpec | None:
        m = self.want_map(root, "the rule file")
        if m is None:
            return None
        self.keys(m, RULE_FILE, "the rule file")
        name = self.want_scalar(m.get("game"), "'game'", (str,)) or "?"
        summary = self.want_scalar(m.get("summary"), "'summary'", (str,)) or ""
        lo, hi = self.players(m.get("players"))
        options = self.options(m.get("options"))
        constants = self.constants(m.get("constants"))
        suit_spans: dict[str, Span] = {}
        rank_spans: dict[str, Span] = {}
        suits, ranks, props, pack = self.deck(m.get("deck"), suit_spans, rank_spans)
        zones = self.zones(m.get("zones"))
        variables = self.variables(m.get("variables"))
        functions = self.functions(m.get("define"))
        procedures = self.procedures(m.get("procedures"))
        actions = self.actions(m.get("actions"))
        phases = self.phases(m.get("phases"))
        match = self.match(m.get("match"), m.span)
        spec = GameSpec(self.file, name, summary, lo, hi, options, constants, suits, ranks, props, pack,
                        zones, variables, functions, procedures, actions, phases, match, m.span,
                        suit_spans=suit_spans, rank_spans=rank_spans)
        spec.teams = self.teams(m.get("players"))
        spec.constraints = self.constraints(m.get("constraints"))
        spec.strategies = self.strategies(m.get("strategies"))
        spec.openspiel = self.openspiel(m.get("openspiel"))
        declared: set[str] = set()
        for section in ("options", "constants", "zones", "variables", "define", "procedures", "actions",
                        "phases", "strategies"):
            sm = m.get(section)
            if isinstance(sm, YMap):
                for key in sm.items:
                    lead = re.match(r"\s*([A-Za-z_][A-Za-z0-9_]*)", key)
                    declared.add(lead.group(1) if lead else key)
        for prop in (m.get("deck"),):
            if isinstance(prop, YMap) and isinstance(prop.get("properties"), YMap):
                pm = prop.get("properties")
                assert isinstance(pm, YMap)
                declared.update(pm.items)
        read_names = {x.name for group in (options, zones, variables, functions, procedures, actions, phases,
                                           props, spec.strategies) for x in group} | set(constants)
        spec.broken = declared - read_names
        spec.missing_sections = {k for k in ("phases", "actions", "zones", "deck", "match") if k not in m.items}
        for key, (_ks, node) in m.items.items():
            spec.spans[key] = node.span
            if key in ("options", "constants", "zones", "variables", "define", "procedures", "actions", "phases") \
                    and not isinstance(node, YMap) and not (isinstance(node, YScalar) and node.value is None):
                spec.malformed.add(key)
        deck = m.get("deck")
        if isinstance(deck, YMap):
            for key, (_ks, node) in deck.items.items():
                spec.spans[f"deck.{key}"] = node.span
        return spec


def read_spec(file: str, root: YNode, diags: list[Diagnostic], limits: Limits) -> GameSpec | None:
    return _Reader(file, diags, limits).read(root)
