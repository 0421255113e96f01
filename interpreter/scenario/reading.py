"""Reading a scenario file: its rule file (`game:`) and its scenarios, every structural problem reported at
once. What a scenario's keys say is read as it runs (runner.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..dsl.diagnostics import Diagnostic, RuleFileError, Span
from ..dsl.files import RULE_SUFFIXES, file_kind, quoted, read_text, shown
from ..dsl.keys import SCENARIO_FILE
from ..dsl.limits import DEFAULT_LIMITS, Limits
from ..dsl.yaml_loader import YList, YMap, YNode, YScalar, load
from ..engine.bundled import bundled_game, bundled_games
from ..engine.errors import GameError
from .deal import _closest

__all__ = ["FILE_KEYS", "Scenario", "ScenarioFile", "read"]

# The keys of a scenario file and of a scenario (dsl/keys.py, which the editors' schema is built from too).
FILE_KEYS = SCENARIO_FILE.names


@dataclass
class Scenario:
    name: str
    span: Span
    node: YMap
    file: str


@dataclass
class ScenarioFile:
    path: str
    source: str
    # The rule file: a bundled game's file, or the `game:` path as written (relative to `path`'s folder).
    rules: Path
    scenarios: list[Scenario] = field(default_factory=list)
    game: str = ""
    game_span: Span | None = None
    bundled: bool = True


def read(path: str, limits: Limits = DEFAULT_LIMITS) -> ScenarioFile:
    """Load a scenario file within `limits`; RuleFileError lists every structural problem."""
    diags: list[Diagnostic] = []
    source = read_text(Path(path), diags, Span(path, 1, 1), limits)
    if source is None:  # a file that cannot be read is a bad argument: one line, like a missing rule file
        d = diags[0]
        raise GameError(d.message + (f"; {d.hint}" if d.hint else ""))
    root = load(path, source, diags, limits)
    if root is None:
        raise RuleFileError(diags, {path: source})
    kind = file_kind(root)
    if kind is not None and kind[0] == "rules":
        # Read as a scenario file, a rule file would only be "needs 'game' and 'scenarios'": say what it is.
        raise RuleFileError([Diagnostic("T005", kind[1].span, f"this is a rule file (it has the section "
                                        f"'{kind[1].value}'), not a scenario file",
                                        f"check it with 'cardsmith validate {shown(path)}' or play it with "
                                        f"'cardsmith run {shown(path)}'; 'cardsmith test' runs scenario files, "
                                        "which hold 'game:' and 'scenarios:'")], {path: source})
    if not isinstance(root, YMap) or "game" not in root.items or "scenarios" not in root.items:
        raise RuleFileError([Diagnostic("T001", root.span, "a scenario file needs 'game' and 'scenarios'")],
                            {path: source})
    for key, (ks, _) in root.items.items():
        if key not in FILE_KEYS:
            close = _closest(key, FILE_KEYS)
            diags.append(Diagnostic("T001", ks.span, f"unknown key {quoted(key)} in a scenario file",
                                    f"did you mean '{close[0]}'?" if close else "a scenario file holds 'game' and "
                                    "'scenarios'"))
    game_node = root.get("game")
    assert game_node is not None
    sf = _game(path, source, game_node, diags)
    lst = root.get("scenarios")
    if not isinstance(lst, YList):
        raise RuleFileError([Diagnostic("T001", lst.span if lst is not None else root.span,
                                        "'scenarios' must be a list")], {path: source})
    for item in lst.items:
        name = item.get("name") if isinstance(item, YMap) else None
        if not isinstance(name, YScalar) or name.value is None or isinstance(name.value, bool):
            diags.append(Diagnostic("T003", (name or item).span, "each scenario needs a 'name' (its text)"))
            continue
        assert isinstance(item, YMap)
        sf.scenarios.append(Scenario(str(name.value), item.span, item, path))
    if diags:
        raise RuleFileError(diags, {path: source})
    return sf


def _game(path: str, source: str, node: YNode, diags: list[Diagnostic]) -> ScenarioFile:
    """What `game:` names. A text ending in .yaml/.yml is a rule file's path, relative to the scenario
    file's folder (read under the policy for named paths when the scenarios run); any other text is the
    name of a bundled game."""
    value = node.value if isinstance(node, YScalar) else None
    if not isinstance(value, str) or not value.strip():
        diags.append(Diagnostic("T002", node.span, "'game' names the rule file: a path ending in .yaml "
                                "(relative to this file) or the name of a bundled game"))
        return ScenarioFile(path, source, Path(), game_span=node.span)
    if Path(value).suffix in RULE_SUFFIXES:
        return ScenarioFile(path, source, Path(value), game=value, game_span=node.span, bundled=False)
    found = bundled_game(value)
    if found is None:
        diags.append(Diagnostic("T002", node.span, f"no bundled game named {quoted(value)}",
                                f"bundled: {', '.join(bundled_games()) or 'none'}; a rule file is named by its "
                                "path, ending in .yaml"))
        return ScenarioFile(path, source, Path(), game_span=node.span)
    return ScenarioFile(path, source, found, game=value, game_span=node.span)
