"""The YAML examples in docs/*.md are valid rule files, excerpts and scenarios.

The docs promise that their examples work (language.md: "The examples on this page are valid
excerpts"), but nothing kept that promise when the language changed. Each YAML block of the docs is
marked on the line before its fence with what it is, and this file checks it accordingly:

    <!-- check: full -->                     a whole rule file: it validates on its own, without
                                             warnings (validate --strict)
    <!-- check: mini -->                     an excerpt, merged into the small complete game of
                                             language.md section 1 ("A whole game on one page")
    <!-- check: schwimmen -->                an excerpt of a game (see GAMES), merged into its rule file
    <!-- check: scenario -->                 a scenario file: it loads, and every scenario in it passes
    <!-- check: skip (why it is not) -->     not checked; the reason in brackets is optional

An excerpt is merged into the game's data the way a reader pastes it in: mappings are merged key by
key (the excerpt's keys replace or add), lists and single values are replaced. The result is
validated as `cardsmith validate` does: it compiles, and the game can be set up for every allowed
player count. The excerpt on its own must also be YAML that rule files accept (no repeated keys, no
tags), since the merge works on plain data and would not see those.

Relative paths are read as from docs/examples/, where the tutorial's files are: a `full` block is
compiled under a name in that folder (so a relative `extends:` path resolves), and a
scenario's `game:` is looked up there if it is not a bundled game. A merged excerpt is named beside
the rule file it was merged into.

An unknown marker, or a marker without a fenced block right after it, fails; so does a YAML block
without a marker in a doc that uses them (errors.md shows broken files on purpose and is checked by
tests/test_diagnostics.py instead).

The one-line examples in the `example` column of scenarios.md's tables (`winners: [P2]`) are pasted into
scenario files too: each that holds `: ` must be YAML a scenario file accepts, one key and its value
(`eval: {hand_value(hand[0]): 31}` is not: brackets in a flow map's key need quotes).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from cardsmith.dsl import yaml_loader
from cardsmith.dsl.diagnostics import Diagnostic, RuleFileError, render_all
from cardsmith.dsl.limits import DEFAULT_LIMITS
from cardsmith.dsl.pipeline import Loaded, compile_file, compile_text
from cardsmith.engine.errors import GameError
from cardsmith.engine.game import Game
from cardsmith.scenario.runner import read, run_one
from conftest import GAMES_DIR, ROOT

DOCS = ROOT / "docs"
EXAMPLES = DOCS / "examples"
# The rule file each game marker merges its excerpt into.
GAMES: dict[str, Path] = {
    "kuhn": GAMES_DIR / "kuhn-poker.yaml",
    "schwimmen": GAMES_DIR / "schwimmen.yaml",
    "stichln": GAMES_DIR / "stichln.yaml",
    "siebenbatten": GAMES_DIR / "siebenbatten.yaml",
    "chwech": GAMES_DIR / "chwech.yaml",
    "euchre": GAMES_DIR / "euchre.yaml",
    "hearts": GAMES_DIR / "hearts.yaml",
    "spades": GAMES_DIR / "spades.yaml",
    "ohhell": GAMES_DIR / "oh-hell.yaml",
    "cribbage": GAMES_DIR / "cribbage.yaml",
    "thirtyone": GAMES_DIR / "thirty-one.yaml",
    "twolives": EXAMPLES / "schwimmen-two-lives.yaml",  # the file docs/tutorial.md builds
}
KINDS = {"full", "mini", "scenario", "skip", *GAMES}
# Docs whose YAML blocks need no marker: errors.md shows broken files on purpose.
UNMARKED_DOCS = {"errors.md"}
# The game `mini` excerpts go into: the `full` block under this heading of language.md.
MINI_DOC, MINI_HEADING = "language.md", "## 1. A whole game on one page"

MARKER = re.compile(r"<!-- check: ([a-z]+)(?: \(([^()]+)\))? -->")


@dataclass(frozen=True)
class Block:
    doc: str  # file name in docs/
    line: int  # line of the marker (or of the fence, for an unmarked block), from 1
    kind: str | None  # the marker's word; None for an unmarked block; the whole line if malformed
    reason: str | None  # the text in brackets after the word
    fence: str | None  # the opening fence line, None if the marker is not followed by one
    text: str  # the code between the fences
    heading: str  # the last "## " heading above the block

    @property
    def where(self) -> str:
        return f"{self.doc}:{self.line}"


def _blocks(path: Path) -> list[Block]:
    """Every marker and every fenced block of a doc, in order (a marked block once, with its marker)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out: list[Block] = []
    heading = ""
    i = 0

    def fence_at(j: int) -> tuple[str | None, str, int]:
        """(opening fence, code, index after the closing fence) for a fence opening at j."""
        if j >= len(lines) or not lines[j].startswith("```"):
            return None, "", j
        end = next((k for k in range(j + 1, len(lines)) if lines[k].strip() == "```"), None)
        if end is None:  # never closed: not a usable block
            return None, "", len(lines)
        return lines[j], "\n".join(lines[j + 1:end]) + "\n", end + 1

    while i < len(lines):
        line = lines[i]
        if line.startswith("## "):
            heading = line
        if line.lstrip().startswith("<!-- check"):
            m = MARKER.fullmatch(line.strip())
            kind, reason = (m.group(1), m.group(2)) if m else (line.strip(), None)
            fence, text, after = fence_at(i + 1)
            out.append(Block(path.name, i + 1, kind, reason, fence, text, heading))
            i = max(after, i + 1)
        elif line.startswith("```"):
            fence, text, after = fence_at(i)
            out.append(Block(path.name, i + 1, None, None, fence, text, heading))
            i = after
        else:
            i += 1
    return out


ALL_BLOCKS: list[Block] = [b for p in sorted(DOCS.glob("*.md")) for b in _blocks(p)]
MARKED: list[Block] = [b for b in ALL_BLOCKS if b.kind is not None]


def _yaml_data(name: str, text: str) -> Any:
    """YAML text as plain data, read as rule files are read; fails the test on any problem."""
    diags: list[Diagnostic] = []
    node = yaml_loader.load(name, text, diags, DEFAULT_LIMITS)
    if diags or node is None:
        pytest.fail(f"{name} is not YAML a rule file accepts:\n{render_all(diags, {name: text})}", pytrace=False)
    return yaml_loader.plain(node)


def merge(base: Any, excerpt: Any) -> Any:
    """The excerpt pasted into the base: mappings merged key by key, anything else replaced."""
    if isinstance(base, dict) and isinstance(excerpt, dict):
        out = dict(base)
        for key, value in excerpt.items():
            out[key] = merge(base[key], value) if key in base else value
        return out
    return excerpt


@cache
def _mini_base() -> str:
    found = [b for b in MARKED if b.doc == MINI_DOC and b.heading == MINI_HEADING and b.kind == "full"]
    assert len(found) == 1, f"expected one 'full' block under '{MINI_HEADING}' in {MINI_DOC}, found {len(found)}"
    return found[0].text


def _base(kind: str) -> tuple[str, Path]:
    """The text an excerpt of this kind is merged into, and the folder its merged file is named in."""
    if kind == "mini":
        return _mini_base(), EXAMPLES
    path = GAMES[kind]
    return path.read_text(encoding="utf-8"), path.parent


def _validate(block: Block, text: str, name: str, strict: bool = False) -> None:
    """What `cardsmith validate` checks: the text compiles and a game can be set up for each player count;
    `strict`: as `validate --strict`, without warnings either (an excerpt, merged into a game, may well
    declare something the game does not use)."""
    loaded: Loaded = compile_text(text, name, warnings=strict)
    if not loaded.ok or loaded.game is None or (strict and loaded.diagnostics):
        pytest.fail(f"{block.where} ({block.kind}) does not validate{' --strict' if strict else ''}:\n"
                    f"{render_all(loaded.diagnostics, loaded.sources)}\n--- checked as {name}:\n{text}",
                    pytrace=False)
    spec = loaded.game.spec
    for n in range(spec.min_players, spec.max_players + 1):
        try:
            Game(loaded.game, n)
        except GameError as e:
            pytest.fail(f"{block.where} ({block.kind}): {n} players: {e}", pytrace=False)


def _check_scenario(block: Block, tmp_path: Path) -> None:
    """As `cardsmith test` runs the block saved as a file, with a `game:` path read from docs/examples/."""
    path = tmp_path / f"{Path(block.doc).stem}-{block.line}.scenarios.yaml"
    path.write_text(block.text, encoding="utf-8")
    try:
        sf = read(str(path))
    except RuleFileError as e:
        pytest.fail(f"{block.where}: the scenario file does not load:\n{e.render()}", pytrace=False)
    if not sf.rules.exists() and (EXAMPLES / sf.rules).exists():
        sf.rules = EXAMPLES / sf.rules  # beside the doc's own scenario files
    loaded = compile_file(sf.rules)
    if not loaded.ok or loaded.game is None:
        pytest.fail(f"{block.where}: its rule file {sf.rules} does not validate:\n"
                    f"{render_all(loaded.diagnostics, loaded.sources)}", pytrace=False)
    assert sf.scenarios, f"{block.where}: the scenario file has no scenarios"
    results = [run_one(sf, sc, loaded.game) for sc in sf.scenarios]
    failed = [f"{r.span}: {r.name}: {r.message}" for r in results if not r.ok]
    assert not failed, f"{block.where}: scenarios fail:\n" + "\n".join(failed)


TABLE_EXAMPLE_DOCS = ["scenarios.md"]
CODE_SPAN = re.compile(r"`([^`]+)`")


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _table_examples(path: Path) -> list[tuple[str, str]]:
    """(doc:line, text) of every code span holding ': ' in the `example` column of the doc's tables."""
    out: list[tuple[str, str]] = []
    column: int | None = None
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.startswith("|"):
            column = None
            continue
        cells = _cells(line)
        if column is None:  # a table's header row
            column = cells.index("example") if "example" in cells else -1
        elif column >= 0 and column < len(cells) and not set(cells[column]) <= set("- "):
            out += [(f"{path.name}:{i}", m) for m in CODE_SPAN.findall(cells[column]) if ": " in m]
    return out


TABLE_EXAMPLES = [e for name in TABLE_EXAMPLE_DOCS for e in _table_examples(DOCS / name)]


def _one_key_map_problem(text: str) -> str | None:
    """Why `text` is not YAML of one key and its value, as a scenario file reads it; None if it is."""
    diags: list[Diagnostic] = []
    node = yaml_loader.load("example.yaml", text + "\n", diags, DEFAULT_LIMITS)
    if diags or node is None:
        return render_all(diags, {"example.yaml": text + "\n"}) or "it does not load"
    value = yaml_loader.plain(node)
    return None if isinstance(value, dict) and len(value) == 1 else f"it reads as {value!r}, not one key"


def test_table_examples_are_found() -> None:
    where = {w.split(":")[0] for w, _ in TABLE_EXAMPLES}
    assert len(TABLE_EXAMPLES) >= 15 and where == set(TABLE_EXAMPLE_DOCS), TABLE_EXAMPLES
    assert any(t.startswith("eval: ") for _, t in TABLE_EXAMPLES)
    # The check refuses what a reader's scenario file would refuse.
    assert _one_key_map_problem("eval: {hand_value(hand[0]): 31}") is not None
    assert _one_key_map_problem('eval: {"hand_value(hand[0])": 31}') is None


def test_a_scenario_block_with_an_unquoted_flow_key_fails(tmp_path: Path) -> None:
    """The same mistake in a runnable block: the block's scenario file does not load, and the test says so."""
    text = ("game: schwimmen\nscenarios:\n  - name: n\n    players: 2\n    steps:\n"
            "      - expect: {eval: {hand_value(hand[0]): 31}}\n")
    block = Block("scenarios.md", 1, "scenario", None, "```yaml", text, "## expect")
    with pytest.raises(pytest.fail.Exception, match="does not load"):
        _check_scenario(block, tmp_path)


@pytest.mark.parametrize("where,text", TABLE_EXAMPLES, ids=[f"{w} {t}" for w, t in TABLE_EXAMPLES])
def test_table_example_is_yaml(where: str, text: str) -> None:
    problem = _one_key_map_problem(text)
    assert problem is None, f"{where}: the example `{text}` is not YAML a scenario file accepts:\n{problem}"


def test_docs_have_checked_examples() -> None:
    """The markers are found at all (a change to their syntax would otherwise check nothing)."""
    kinds = {b.kind for b in MARKED}
    assert {"full", "mini", "scenario"} <= kinds, f"markers found: {sorted(k or '' for k in kinds)}"


def test_every_yaml_block_has_a_marker() -> None:
    unmarked = [b.where for b in ALL_BLOCKS if b.kind is None and b.fence is not None
                and b.fence.strip() == "```yaml" and b.doc not in UNMARKED_DOCS]
    assert not unmarked, ("YAML blocks without '<!-- check: ... -->' on the line before them "
                          f"(use 'skip (reason)' if one cannot be checked): {', '.join(unmarked)}")


def test_markers_are_read(tmp_path: Path) -> None:
    """A reason after the word, a marker not followed by a fence, an unmarked block, a malformed marker."""
    doc = tmp_path / "doc.md"
    doc.write_text("## A\n<!-- check: skip (a fragment) -->\n```yaml\na: 1\n```\n<!-- check: full -->\ntext\n"
                   "```yaml\nb: 2\n```\n<!-- check: Full -->\n```yaml\n```\n", encoding="utf-8")
    got = [(b.line, b.kind, b.reason, b.fence, b.text, b.heading) for b in _blocks(doc)]
    assert got == [(2, "skip", "a fragment", "```yaml", "a: 1\n", "## A"),
                   (6, "full", None, None, "", "## A"),
                   (8, None, None, "```yaml", "b: 2\n", "## A"),
                   (11, "<!-- check: Full -->", None, "```yaml", "\n", "## A")]


@pytest.mark.parametrize("block", MARKED, ids=lambda b: b.where)
def test_doc_example(block: Block, tmp_path: Path) -> None:
    assert block.kind in KINDS, f"{block.where}: unknown marker '{block.kind}' (known: {', '.join(sorted(KINDS))})"
    assert block.fence is not None, f"{block.where}: the marker is not followed by a fenced code block"
    if block.kind == "skip":
        return
    assert block.fence.strip() == "```yaml", f"{block.where}: a checked block must be ```yaml, not {block.fence}"
    stem = f"{Path(block.doc).stem}-{block.line}"
    if block.kind == "scenario":
        _check_scenario(block, tmp_path)
    elif block.kind == "full":
        _validate(block, block.text, str(EXAMPLES / f"{stem}.yaml"), strict=True)
    else:
        excerpt = _yaml_data(block.where, block.text)
        assert isinstance(excerpt, dict), f"{block.where}: an excerpt must be a YAML mapping of sections"
        base_text, folder = _base(block.kind)
        merged = merge(_yaml_data(block.kind, base_text), excerpt)
        text = yaml.safe_dump(merged, sort_keys=False, allow_unicode=True, width=1000)
        # Named beside the base, so a relative `extends:` in it resolves as it does there.
        _validate(block, text, str(folder / f"{stem}.yaml"))
