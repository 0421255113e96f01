"""The JSON Schema of rule files and scenario files, built from the table of keys (dsl/keys.py).

Editors read it through yaml-language-server (docs/editors.md): completion of the keys of each place,
hover text from their descriptions, and inline errors for an unknown key, a missing required key or a
value of the wrong shape. It is draft-07, the draft yaml-language-server has supported longest, and
uses nothing its validator and Python's `jsonschema` read differently: no `$ref` beside other keywords
(a key's description sits beside an `allOf` that holds the reference), and patterns that need no
anchors at the end of a string.

The schema says what the structural reader says (dsl/schema.py and the readers it builds on): the keys
of every place, the required ones, the kinds of value. It does not know the file's own names (an action
a phase lists, a zone an expression reads) or types: `cardsmith validate` checks those.

A variant (a file with `extends:`) writes only what it changes: its sections and entries need none of
their required keys, which the base gives. Entries it adds under `new:`, and whatever it replaces
whole (a step list, a `pack`, the `constraints`), are checked as in any rule file.
"""

from __future__ import annotations

import json
from typing import Any

from . import keys as K
from .parser import KEYWORDS

DRAFT = "http://json-schema.org/draft-07/schema#"
NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]*$"
SIGNATURE_PATTERN = r"^ *[A-Za-z_][A-Za-z0-9_]* *(\( *[A-Za-z0-9_, ]*\))? *$"
CONTROL = r"[\u0000-\u001f\u007f]"  # a control character: a line of text holds none
SCALAR = ["string", "number", "boolean"]

Schema = dict[str, Any]


def _player_pattern(numbers: bool) -> str:
    return r"^P?[0-9]+$" if numbers else K.PLAYER_PATTERN


def _kind(kind: K.Kind) -> Schema:
    """The schema of a kind of value (keys.Kind) by its name."""
    n = kind.name
    if n == "text":
        return {"type": "string"}
    if n == "line":
        return {"type": "string", "pattern": r"\S", "not": {"pattern": CONTROL}}
    if n == "label":
        return {"type": "string", "minLength": 1, "maxLength": 40, "pattern": r"\S", "not": {"pattern": CONTROL}}
    if n == "name":
        return {"type": "string", "pattern": NAME_PATTERN}
    if n in ("expr", "scalar"):
        return {"type": SCALAR}
    if n == "steps":
        return {"$ref": "#/definitions/steps"}
    if n == "bool":
        return {"type": "boolean"}
    if n == "null":
        return {"type": "null"}
    if n == "whole":
        out: Schema = {"type": "integer"}
        if kind.low is not None:
            out["minimum"] = kind.low
        if kind.high is not None:
            out["maximum"] = kind.high
        return out
    if n == "words":
        return {"enum": list(kind.words)}
    if n == "names":
        return {"type": ["array", "null"], "items": {"type": SCALAR}, "uniqueItems": True}
    if n == "names_or_one":
        return {"type": ["array", "string", "number"], "items": {"type": ["string", "number"]}}
    if n == "visibility":
        # The words, for completion; any other text is an expression giving a list of players.
        return {"anyOf": [{"enum": list(kind.words)}, {"type": "string"}]}
    if n == "show":
        return {"type": ["boolean", "string"]}
    if n == "any":
        return {}
    if n == "bound":
        return {"type": ["integer", "string"]}
    if n == "initial":
        return {"type": [*SCALAR, "null", "array"], "maxItems": 0}
    if n == "action_names":
        return {"type": ["array", "null"], "items": {"type": "string"}}
    if n == "action_or_list":
        return {"type": ["string", "array"], "items": {"type": "string"}}
    if n == "scalar_table":
        return {"type": "object", "additionalProperties": {"type": SCALAR}}
    if n == "for_head":
        return {"type": "string", "pattern": r"^\s*[A-Za-z_][A-Za-z0-9_]*\s+in\s"}
    # A scenario file's values.
    if n == "player":
        return {"type": ["string", "integer"], "pattern": K.PLAYER_PATTERN, "minimum": 0}
    if n == "player_name":
        return {"type": "string", "pattern": K.PLAYER_PATTERN}
    if n == "current":
        return {"type": "string", "pattern": r"^(P[0-9]+|nobody)$"}
    if n == "players":
        return {"type": ["string", "array", "null"], "pattern": K.PLAYER_PATTERN,
                "items": {"type": "string", "pattern": K.PLAYER_PATTERN}}
    if n == "returns_expected":
        return {"type": ["object", "array"], "items": {"type": "number"},
                "propertyNames": {"pattern": _player_pattern(True)}, "additionalProperties": {"type": "number"}}
    if n == "texts":
        return {"type": [*SCALAR, "array"], "items": {"type": SCALAR}}
    if n == "random":
        return {"anyOf": [{"type": "integer", "minimum": 0}, {"enum": ["end"]}]}
    if n == "scenario_name":
        return {"type": ["string", "number"]}
    if n == "option_values":
        return {"type": "object", "additionalProperties": {"type": [*SCALAR, "null"]}}
    if n == "action_text":
        return {"type": ["string", "integer"]}
    raise ValueError(f"no schema for the kind of value '{n}'")


class _Builder:
    """Builds one schema: each place a definition, referred to wherever it is met."""

    def __init__(self) -> None:
        self.defs: dict[str, Schema] = {}
        steps = {"type": ["array", "string", "null"], "items": {"$ref": "#/definitions/step"},
                 "description": "statements: one, or a list of statements, 'if' steps and 'for' steps"}
        step = {"anyOf": [{"type": "string", "description": "a statement: move, deal, let, x = ..., goto, log ..."},
                          self.place(K.IF_STEP), self.place(K.FOR_STEP)]}
        self.defs.update(steps=steps, step=step)

    def place(self, p: K.Place, partial: bool = False) -> Schema:
        """A reference to the place's definition; `partial`: as a variant writes it, with no required keys."""
        # A place with nothing a variant may leave out is the same either way: one definition.
        partial = partial and (bool(p.required) or p.flag_needs is not None or bool(p.word_needs))
        name = f"{p.name}_change" if partial else p.name
        if name not in self.defs:
            self.defs[name] = {}  # taken first: a place inside itself (steps) refers to it
            self.defs[name] = self._object(p, partial)
        return {"$ref": f"#/definitions/{name}"}

    def _object(self, p: K.Place, partial: bool) -> Schema:
        out: Schema = {"type": "object", "description": p.doc,
                       "properties": {k.name: self.keyed(k) for k in p.keys}}
        if p.key_pattern is not None:
            pattern, doc = p.key_pattern
            out["patternProperties"] = {pattern: {"description": doc, **_kind(K.ACTION_TEXT)}}
        out["additionalProperties"] = bool(p.other_keys)
        if p.one_key:
            out["minProperties"] = out["maxProperties"] = 1
        if p.required and not partial:
            out["required"] = list(p.required)
        if p.exactly_one:
            out["oneOf"] = [{"required": [k]} for k in p.exactly_one]
        if p.not_both:
            if all(p.key(k).value == K.BOOL for k in p.not_both):  # two flags: not both true
                out["not"] = {"properties": {k: {"const": True} for k in p.not_both}, "required": list(p.not_both)}
            else:  # two keys: not both written
                out["not"] = {"required": list(p.not_both)}
        cases = [] if partial else [{"if": {"properties": {key: {"const": word}}, "required": [key]},
                                      "then": {"required": list(needed)}} for key, word, needed in p.word_needs]
        if p.flag_needs is not None and not partial:
            flag, key = p.flag_needs
            out["if"] = {"properties": {flag: {"const": True}}, "required": [flag]}
            out["then"] = {"required": [key]}
            out["else"] = {"properties": {key: False}}
        if cases:
            out["allOf"] = cases
        return out

    def value(self, v: K.Value, partial: bool = False) -> Schema:
        if isinstance(v, K.Kind):
            return _kind(v)
        if isinstance(v, K.Place):
            return self.place(v, partial)
        if isinstance(v, K.ListOf):
            return {"type": ["array", "null"], "items": self.value(v.of)}
        if isinstance(v, K.Either):
            return {"anyOf": [self.value(o, partial) for o in v.options]}
        out: Schema = {"type": "object", "additionalProperties": self.value(v.of, partial)}
        if v.names == "name":
            out["propertyNames"] = {"pattern": NAME_PATTERN, "not": {"enum": sorted(KEYWORDS)}}
        elif v.names == "signature":
            out["propertyNames"] = {"pattern": SIGNATURE_PATTERN}
        return out

    def keyed(self, k: K.Key, partial: bool = False) -> Schema:
        """A key's value with its description: beside an `allOf`, since draft-07 ignores what sits beside `$ref`."""
        s = self.value(k.value, partial)
        return {"description": k.doc, "allOf": [s]} if "$ref" in s else {"description": k.doc, **s}


def rules_schema() -> Schema:
    """The schema of a rule file, a variant (`extends:`) included."""
    b = _Builder()
    top = K.RULE_FILE
    # A file that is no variant has every section and every required key; a variant leaves them to its base.
    # Each branch lists every section, so an editor offers each once and a mistake is reported once.
    schema: Schema = {
        "$schema": DRAFT,
        "title": "cardsmith rule file",
        "description": top.doc,
        "type": "object",
        "if": {"required": ["extends"]},
        "then": {"properties": {k.name: b.keyed(k, partial=True) for k in top.keys}, "additionalProperties": False},
        "else": {"properties": {k.name: b.keyed(k) for k in top.keys}, "additionalProperties": False,
                 "required": list(top.required)},
    }
    schema["definitions"] = b.defs
    return schema


def scenario_schema() -> Schema:
    """The schema of a scenario file."""
    b = _Builder()
    top = K.SCENARIO_FILE
    schema: Schema = {
        "$schema": DRAFT,
        "title": "cardsmith scenario file",
        "description": top.doc,
        "type": "object",
        "properties": {k.name: b.keyed(k) for k in top.keys},
        "additionalProperties": False,
        "required": list(top.required),
    }
    # The step definitions come with every builder; a scenario file has no statements.
    schema["definitions"] = {name: s for name, s in b.defs.items() if name in _used(schema, b.defs)}
    return schema


def _used(schema: Schema, defs: dict[str, Schema]) -> set[str]:
    """The definitions a schema refers to, directly or through others."""
    seen: set[str] = set()
    todo = [schema]
    while todo:
        node = todo.pop()
        for ref in _refs(node):
            name = ref.rsplit("/", 1)[-1]
            if name not in seen:
                seen.add(name)
                todo.append(defs[name])
    return seen


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        return [node["$ref"]] if "$ref" in node else [r for v in node.values() for r in _refs(v)]
    if isinstance(node, list):
        return [r for v in node for r in _refs(v)]
    return []


def dumps(schema: Schema) -> str:
    """The schema as the files hold it: two-space indents, a newline at the end."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


# The names of the shipped files (package data and docs/schema/).
FILES = {"rules": "rules.schema.json", "scenarios": "scenarios.schema.json"}

__all__ = ["DRAFT", "FILES", "dumps", "rules_schema", "scenario_schema"]
