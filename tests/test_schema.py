"""The JSON Schema editors use (`cardsmith schema`, docs/editors.md) against the files and the readers.

- Every bundled rule file, docs/examples/*.yaml, every scenario file of tests/scenarios/ and every
  whole-file example of the docs validates against it (Python's `jsonschema`, draft-07).
- The schema and the readers agree on which keys exist, both ways: at every place of a rule file (and
  of a scenario file) a file is made with every key any place has, plus a misspelt one, and the keys
  the reader calls unknown are exactly the keys the schema refuses there.
- Every file of tests/invalid/ that `cardsmith validate` refuses for an unknown key (S001, or X004 under
  `new:`) is refused by the schema too, at the same line and column.
- The schema files shipped in the package and in docs/schema/ are what `cardsmith schema` prints, and
  every key has a description (the editors' hover text).

What the real yaml-language-server makes of the schema is tests/test_schema_editor.py.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema  # the `test` extra installs it
import pytest
import yaml
from cardsmith.cli.schema import shipped, text
from cardsmith.dsl import keys as K
from cardsmith.dsl import yaml_loader
from cardsmith.dsl.json_schema import FILES, rules_schema, scenario_schema
from cardsmith.dsl.limits import DEFAULT_LIMITS
from cardsmith.dsl.pipeline import compile_text
from cardsmith.dsl.yaml_loader import YList, YMap, YNode, YScalar
from cardsmith.scenario.runner import Scenario, ScenarioFile, read, run_one
from conftest import ROOT, cli, compiled

RULES = jsonschema.Draft7Validator(rules_schema())
SCENARIOS = jsonschema.Draft7Validator(scenario_schema())


def tree(name: str, source: str) -> YNode:
    diags: list[Any] = []
    node = yaml_loader.load(name, source, diags, DEFAULT_LIMITS)
    assert node is not None and not diags, f"{name} does not load: {diags}"
    return node


def data(node: YNode | None) -> Any:
    """A located tree as the JSON an editor validates: keys as the reader keys them (text), values as read."""
    if isinstance(node, YMap):
        return {k: data(v) for k, (_, v) in node.items.items()}
    if isinstance(node, YList):
        return [data(n) for n in node.items]
    return node.value if isinstance(node, YScalar) else None


def problems(validator: Any, instance: Any) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message[:300]}"
            for e in validator.iter_errors(instance)]


def is_scenario_file(path: Path) -> bool:
    return path.name.endswith(".scenarios.yaml") or path.parent == ROOT / "tests" / "scenarios"


# ---------------------------------------------------------------- every file we ship validates
SHIPPED_FILES = sorted(p for pattern in ("games/*.yaml", "docs/examples/*.yaml", "tests/scenarios/*.yaml",
                                         "tests/scenarios/rules/*.yaml", "tests/games/*.yaml")
                       for p in ROOT.glob(pattern))


def test_the_files_are_found() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in SHIPPED_FILES}
    assert {"games/hearts.yaml", "games/chwech-revision.yaml", "docs/examples/schwimmen-two-lives-extends.yaml",
            "tests/scenarios/stichln.yaml"} <= names
    assert sum(is_scenario_file(p) for p in SHIPPED_FILES) >= 10


@pytest.mark.parametrize("path", SHIPPED_FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_file_validates(path: Path) -> None:
    validator = SCENARIOS if is_scenario_file(path) else RULES
    found = problems(validator, data(tree(str(path), path.read_text(encoding="utf-8"))))
    assert not found, f"{path} against the {'scenario' if validator is SCENARIOS else 'rule'} schema:\n" + \
        "\n".join(found)


def _doc_blocks() -> list[Any]:
    from test_docs import MARKED  # the docs' YAML blocks, as tests/test_docs.py reads them

    return [b for b in MARKED if b.kind in ("full", "scenario")]


@pytest.mark.parametrize("block", _doc_blocks(), ids=lambda b: b.where)
def test_doc_example_validates(block: Any) -> None:
    validator = SCENARIOS if block.kind == "scenario" else RULES
    found = problems(validator, data(tree(block.where, block.text)))
    assert not found, f"{block.where}:\n" + "\n".join(found)


# ---------------------------------------------------------------- the schema and the readers agree on the keys
# A rule file with every place of a rule file, and where each place is in it.
BASE = """\
game: High card
summary: Play one card each; the highest card scores.
players: {min: 2, max: 4, teams: p % 2}
options:
  deals: {type: int, default: 3, min: 1, max: 9, doc: deals in the match}
constraints:
  - refuse: deals > 8 and num_players > 3
    message: too long for four
constants:
  bonus: 1
deck:
  suits: [clubs, hearts]
  ranks: ['7', '8', '9', '10']
  properties:
    value: {by_rank: {'7': 7, '8': 8, '9': 9, '10': 10}}
  pack:
    - copies: 1
zones:
  stock: {visible: nobody}
  hand: {per_player: true, visible: owner}
  table: {}
variables:
  points: {type: int, per_player: true}
define:
  strength(c): c.value
procedures:
  score(p):
    - points[p] += bonus
actions:
  play:
    params: {card: "hand[player]"}
    effect:
      - move card to table
      - if: len(table) > 100
        then: [end deal]
      - for: p in players
        do: ["points[p] += 0"]
  lay:
    params:
      pair: {from: "combinations(sort(hand[player]), 2)", ids: "combinations(pack, 2)"}
    effect:
      - move pair to table
phases:
  playing:
    first: left(dealer)
    round: true
    actions: [play, lay]
    end:
      - do score(played_by(max_by(table, c => strength(c))))
      - end deal
match:
  deal:
    - move pack to stock
    - shuffle stock
    - deal 2 from stock to hand
    - goto playing
  over_when: deal_number >= deals
  winners: all_max_by(players, p => points[p])
  returns:
    value: points[p]
    min: 0
    max: 100
  bounds:
    actions: 2 * num_players * deals
strategies:
  greedy:
    doc: plays its best card
    prefer:
      - action: play
        max: strength(card)
openspiel:
  game: example
  actions: {play: card, lay: 0}
  num_actions: 1000
  information_state:
    - {one_hot: p, size: num_players}
"""
PATHS: dict[str, list[str | int]] = {
    "rule_file": [], "players": ["players"], "option": ["options", "deals"], "constraint": ["constraints", 0],
    "deck": ["deck"], "property": ["deck", "properties", "value"], "pack_entry": ["deck", "pack", 0],
    "zone": ["zones", "hand"], "variable": ["variables", "points"], "action": ["actions", "play"],
    "param": ["actions", "lay", "params", "pair"],
    "if_step": ["actions", "play", "effect", 1], "for_step": ["actions", "play", "effect", 2],
    "phase": ["phases", "playing"], "match": ["match"], "returns": ["match", "returns"],
    "bounds": ["match", "bounds"],
    "strategy": ["strategies", "greedy"], "strategy_rule": ["strategies", "greedy", "prefer", 0],
    "openspiel": ["openspiel"], "tensor_block": ["openspiel", "information_state", 0],
}
# `new:` and `remove:` are read by the merge of a variant (X004), not by `keys`: tested below.
MERGED = {"new", "remove"}
ALL_NAMES = sorted({k.name for root in (K.RULE_FILE, K.SCENARIO_FILE) for p in K.places(root) for k in p.keys})
MISSPELT = ["visibel", "zzz", "Game", "per-player"]
UNKNOWN_KEY = re.compile(r"unknown key '(.+?)' in ")


def at(node: Any, path: list[str | int]) -> Any:
    for step in path:
        node = node[step]
    return node


def candidates(place: K.Place) -> list[str]:
    """The keys tried at a place: every key of any place, and misspelt ones."""
    skip = set()
    if place is K.RULE_FILE:
        skip.add("extends")  # it would make the file a variant of no base: nothing else would be read
    if place is K.FOR_STEP:
        skip.add("if")  # a step with `if` is an `if` step, whatever else it holds
    return [n for n in ALL_NAMES + MISSPELT if n not in skip]


def unknown_to_schema(validator: Any, instance: Any, path: list[str | int], place: K.Place | None = None) -> set[str]:
    """The keys the schema refuses as unknown in the mapping at `path`. Where the schema offers several shapes
    there (anyOf: an `if` step or a `for` step), the keys the shape of `place` refuses; without `place`, the
    shape that refuses fewest, as an editor reports it."""
    refused: list[tuple[bool, set[str]]] = []
    for e in _all_errors(validator, instance):
        if e.validator == "additionalProperties" and list(e.absolute_path) == path and e.schema.get(
                "additionalProperties") is False:
            patterns = e.schema.get("patternProperties", {})
            names = {k for k in e.instance if k not in e.schema.get("properties", {})
                     and not any(re.search(p, k) for p in patterns)}
            refused.append((place is not None and set(e.schema.get("properties", {})) == set(place.names), names))
    if place is not None and any(mine for mine, _ in refused):
        return set().union(*(names for mine, names in refused if mine))
    return min((names for _, names in refused), key=len, default=set())


def unknown_to_reader(source: str) -> set[str]:
    loaded = compile_text(source, "probe.yaml")
    return {m.group(1) for d in loaded.diagnostics if d.code == "S001" and (m := UNKNOWN_KEY.search(d.message))}


def test_every_place_of_a_rule_file_is_probed() -> None:
    assert {p.name for p in K.places(K.RULE_FILE)} - MERGED == set(PATHS), "give each place a path in BASE"
    base = yaml.safe_load(BASE)
    assert not compile_text(BASE, "base.yaml").diagnostics
    assert not problems(RULES, base)
    for name, path in PATHS.items():
        assert isinstance(at(base, path), dict), name


def test_the_reader_takes_its_keys_from_the_table() -> None:
    """Every `self.keys(mapping, PLACE, where)` of the reader names a place of dsl/keys.py (no list of its own,
    which the probes below could miss), and every place of a rule file is checked by one."""
    used: set[str] = set()
    for path in sorted((ROOT / "dsl").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "keys" \
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "self":
                place = node.args[1]
                name = place.attr if isinstance(place, ast.Attribute) and isinstance(place.value, ast.Name) \
                    and place.value.id == "K" else place.id if isinstance(place, ast.Name) else None
                assert name is not None and isinstance(getattr(K, name, None), K.Place), \
                    f"{path.name}:{node.lineno}: keys() of a place that is not in dsl/keys.py"
                used.add(getattr(K, name).name)
    assert used == {p.name for p in K.places(K.RULE_FILE)} - MERGED


@pytest.mark.parametrize("name", sorted(PATHS))
def test_reader_and_schema_know_the_same_keys(name: str) -> None:
    place = next(p for p in K.places(K.RULE_FILE) if p.name == name)
    doc = yaml.safe_load(BASE)
    target = at(doc, PATHS[name])
    tried = [n for n in candidates(place) if n not in target]
    for n in tried:
        target[n] = None
    reader = unknown_to_reader(yaml.safe_dump(doc, sort_keys=False))
    schema = unknown_to_schema(RULES, doc, PATHS[name], place)
    assert reader == schema, f"at {name}: only the reader refuses {sorted(reader - schema)}, only the schema " \
                             f"{sorted(schema - reader)}"
    # ... and they are the keys the table does not give the place: the table is what both read.
    assert schema == set(tried) - set(place.names)
    assert set(MISSPELT) <= schema


@pytest.mark.parametrize("section", ["new", "remove"])
def test_a_variant_s_new_and_remove_name_the_same_sections(section: str, tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text(BASE, encoding="utf-8")
    tried = [n for n in ALL_NAMES + MISSPELT if n not in ("new", "remove")]
    doc: dict[str, Any] = {"extends": "base.yaml", section: {n: ({} if section == "new" else []) for n in tried}}
    loaded = compile_text(yaml.safe_dump(doc, sort_keys=False), str(tmp_path / "variant.yaml"))
    reader = {re.search(r"'new' adds to named sections only, not '(.+?)'|nothing to remove from '(.+?)'",
                        d.message).group(1 if section == "new" else 2)  # type: ignore[union-attr]
              for d in loaded.diagnostics if d.code == "X004"}
    schema = unknown_to_schema(RULES, doc, [section])
    assert reader == schema == set(tried) - set(K.NAMED_SECTIONS)


# ---------------------------------------------------------------- a scenario file
SCENARIO_BASE = """\
game: kuhn-poker
scenarios:
  - name: probe
    players: 2
    steps:
      - P0: check
"""


def _kuhn() -> Any:
    return compiled(str(ROOT / "games" / "kuhn-poker.yaml"))


def _run(tmp_path: Path, doc: dict[str, Any]) -> str:
    """The first scenario of `doc`, run on Kuhn poker: its failure message, or '' if it passes."""
    path = tmp_path / "probe.scenarios.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    sf: ScenarioFile = read(str(path))
    sc: Scenario = sf.scenarios[0]
    result = run_one(sf, sc, _kuhn())
    return "" if result.ok else result.message


def test_scenario_file_keys(tmp_path: Path) -> None:
    from cardsmith.dsl.diagnostics import RuleFileError

    doc = yaml.safe_load(SCENARIO_BASE)
    tried = [n for n in ALL_NAMES + MISSPELT if n not in doc]
    for n in tried:
        doc[n] = None
    path = tmp_path / "probe.scenarios.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    with pytest.raises(RuleFileError) as e:
        read(str(path))
    reader = {m.group(1) for d in e.value.diagnostics if d.code == "T001"
              and (m := re.search(r"unknown key '(.+?)' in a scenario file", d.message))}
    assert reader == unknown_to_schema(SCENARIOS, doc, []) == set(tried) - set(K.SCENARIO_FILE.names)


@pytest.mark.parametrize("name", ALL_NAMES + MISSPELT)
def test_scenario_keys(name: str, tmp_path: Path) -> None:
    doc = yaml.safe_load(SCENARIO_BASE)
    scenario = doc["scenarios"][0]
    if name in scenario:
        return  # written in the base, which passes
    scenario[name] = None
    refused = _run(tmp_path, doc).startswith(f"unknown key '{name}'")
    assert refused == (name in unknown_to_schema(SCENARIOS, doc, ["scenarios", 0])) == (name not in K.SCENARIO.names)


@pytest.mark.parametrize("name", [*ALL_NAMES, *MISSPELT, "P0", "P1", "P", "p0"])
def test_step_keys(name: str, tmp_path: Path) -> None:
    doc = yaml.safe_load(SCENARIO_BASE)
    doc["scenarios"][0]["steps"] = [{name: None}]
    refused = _run(tmp_path, doc).startswith(f"unknown step '{name}'")
    known = name in K.STEP.names or re.fullmatch(K.PLAYER_PATTERN, name) is not None
    assert refused == (name in unknown_to_schema(SCENARIOS, doc, ["scenarios", 0, "steps", 0], K.STEP)) \
        == (not known)


@pytest.mark.parametrize("name", K.EXPECT.names)
def test_every_check_of_expect_is_a_check(name: str, tmp_path: Path) -> None:
    """`expect` also takes the game's zones and variables, so the schema lets any key by: its own keys
    are the checks the runner makes, which it never takes for a zone or a variable it lacks."""
    doc = yaml.safe_load(SCENARIO_BASE)
    doc["scenarios"][0]["steps"] = [{"expect": {name: None}}]
    assert "no such zone, variable or check" not in _run(tmp_path, doc)
    doc["scenarios"][0]["steps"] = [{"expect": {"zzz": None}}]
    assert "no such zone, variable or check" in _run(tmp_path, doc)


@pytest.mark.parametrize("name", K.DEAL.names)
def test_every_key_of_set_is_read(name: str, tmp_path: Path) -> None:
    doc = yaml.safe_load(SCENARIO_BASE)
    doc["scenarios"][0]["set"] = {name: "P1" if name != "rest" else "stock"}
    assert "is neither a zone nor a variable" not in _run(tmp_path, doc)
    doc["scenarios"][0]["set"] = {"zzz": 1}
    assert "is neither a zone nor a variable" in _run(tmp_path, doc)


# ---------------------------------------------------------------- broken files: refused at the same key
INVALID = ROOT / "tests" / "invalid"
LOCATED = re.compile(r"^tests/invalid/[^:]+:(\d+):(\d+): error: .*\[(S001|X004)\]$")
UNKNOWN_CASES = sorted(p for p in INVALID.glob("*.yaml") if any(
    LOCATED.match(line) for line in p.with_suffix(".expected").read_text(encoding="utf-8").splitlines()))


def test_the_unknown_key_cases_are_found() -> None:
    assert {"unknown_key", "returns_types", "escapes_in_names", "variant_new_keyed_section"} <= \
        {p.stem for p in UNKNOWN_CASES}


@pytest.mark.parametrize("path", UNKNOWN_CASES, ids=lambda p: p.stem)
def test_a_file_refused_for_an_unknown_key_is_refused_by_the_schema(path: Path) -> None:
    expected = {(int(m.group(1)), int(m.group(2))) for line in
                path.with_suffix(".expected").read_text(encoding="utf-8").splitlines() if (m := LOCATED.match(line))}
    root = tree(str(path), path.read_text(encoding="utf-8"))
    instance = data(root)
    found: set[tuple[int, int]] = set()
    for error_path in {tuple(e.absolute_path) for e in _all_errors(RULES, instance)}:
        node: YNode | None = root
        for step in error_path:
            node = node.items[step][1] if isinstance(node, YMap) else node.items[step]  # type: ignore[union-attr]
        for name in unknown_to_schema(RULES, instance, list(error_path)):
            assert isinstance(node, YMap)
            span = node.items[name][0].span
            found.add((span.line, span.col))
    assert found == expected, f"{path.name}: validate refuses unknown keys at {sorted(expected)}, the schema at " \
                              f"{sorted(found)}"


def _all_errors(validator: Any, instance: Any) -> Iterator[Any]:
    def walk(errors: Any) -> Iterator[Any]:
        for e in errors:
            yield e
            yield from walk(e.context or [])
    return walk(validator.iter_errors(instance))


# ---------------------------------------------------------------- the schema itself
def test_the_schemas_are_draft_07() -> None:
    for schema in (rules_schema(), scenario_schema()):
        assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
        jsonschema.Draft7Validator.check_schema(schema)


def _properties(node: Any, where: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(node, dict):
        for name, sub in node.get("properties", {}).items():
            yield f"{where}/{name}", sub
            yield from _properties(sub, f"{where}/{name}")
        for key, sub in node.items():
            if key != "properties":  # its keys are names of keys, not keywords
                yield from _properties(sub, f"{where}/{key}")
    elif isinstance(node, list):
        for i, sub in enumerate(node):
            yield from _properties(sub, f"{where}/{i}")


def test_every_key_has_a_description() -> None:
    """What an editor shows on hover."""
    for schema in (rules_schema(), scenario_schema()):
        # The keys of places; not the conditions on them (`if: {properties: {round: {const: true}}}`).
        bare = [where for where, sub in _properties(schema) if isinstance(sub, dict) and not sub.get("description")
                and not re.search(r"/(if|not|else)/", where)]
        assert not bare, bare
    for root in (K.RULE_FILE, K.SCENARIO_FILE):
        for place in K.places(root):
            assert place.doc and all(k.doc for k in place.keys), place.name


def test_the_fixed_words_are_enums() -> None:
    defs = rules_schema()["definitions"]
    assert defs["zone"]["properties"]["visible"]["anyOf"][0]["enum"] == ["everyone", "owner", "nobody"]
    assert defs["phase"]["properties"]["next"]["enum"] == ["clockwise", "counterclockwise", "same"]
    assert defs["variable"]["properties"]["type"]["enum"][:3] == ["int", "number", "bool"]
    assert defs["variable"]["properties"]["scope"]["enum"] == ["match", "deal"]
    assert defs["option"]["properties"]["type"]["enum"] == ["int", "bool", "choice"]


def test_a_variant_needs_no_required_key() -> None:
    """A variant writes what it changes: an option's default without its type, no deck, no match."""
    variant = {"extends": "schwimmen", "options": {"x": {"default": 3}}, "variables": {"lives": {"initial": 2}},
               "phases": {"turn": {"round": True}}, "match": {"max_deals": 10}}
    assert not problems(RULES, variant)
    whole = {k: v for k, v in variant.items() if k != "extends"}
    found = problems(RULES, whole)
    assert any("'game' is a required property" in p for p in found)
    assert any("options/x: 'type' is a required property" in p for p in found)
    assert any("phases/turn: 'end' is a required property" in p for p in found)
    # ... but what it adds under `new:` is whole.
    assert any("new/options/x: 'type' is a required property" in p for p in
               problems(RULES, {"extends": "schwimmen", "new": {"options": {"x": {"default": 3}}}}))


# ---------------------------------------------------------------- the files and the command
@pytest.mark.parametrize("kind", sorted(FILES))
def test_the_schema_files_are_current(kind: str) -> None:
    """Written with `cardsmith schema [--scenario] -o FILE` (docs/editors.md): kept current here."""
    want = text(kind)
    for path in (ROOT / "docs" / "schema" / FILES[kind], ROOT / "interpreter" / "schemas" / FILES[kind],
                 shipped(kind)):
        assert path.read_text(encoding="utf-8") == want, f"{path} is out of date: see docs/editors.md"


def test_the_command(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = cli(["schema"], capsys)
    assert code == 0 and err == "" and json.loads(out) == rules_schema()
    code, out, _ = cli(["schema", "--scenario"], capsys)
    assert code == 0 and json.loads(out) == scenario_schema()
    code, out, _ = cli(["schema", "--scenario", "-o", str(tmp_path / "s.json")], capsys)
    assert code == 0 and out == "" and (tmp_path / "s.json").read_text(encoding="utf-8") == text("scenarios")
    code, out, _ = cli(["schema", "--path"], capsys)
    assert code == 0 and Path(out.strip()) == shipped("rules") and shipped("rules").is_file()
    code, out, err = cli(["schema", "-o", str(tmp_path / "no" / "such" / "folder.json")], capsys)
    assert code == 1 and out == "" and err.startswith("cardsmith: error: cannot write ") and len(err.splitlines()) == 1

