"""docs/architecture.md is a map that stays true: short, complete, and naming only what exists.

- it is at most 300 lines (the reasoning goes to docs/design/, the figures to docs/performance.md);
- every module under dsl/ and interpreter/ is named, by its path or in the module index (a row whose first
  cell is its folder, `interpreter/web/`, listing its file name);
- every path it names in backticks exists (from the repository's root, from docs/, or as the tail of a
  path of the repository: `engine/masked.py`, `scenario/`), and every file of a module index row is in
  that row's folder;
- every link of the map and of the design notes reaches a file, and a heading of it when it names one;
  so do the links of the other docs into the map and the notes.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
MAP = DOCS / "architecture.md"
DESIGN = sorted((DOCS / "design").glob("*.md"))
MAX_LINES = 300

PATH_TOKEN = re.compile(r"^\.?[A-Za-z0-9_][\w.\-/]*$")
PATH_ENDINGS = (".py", ".md", ".yaml", ".yml", ".lark", ".json", ".toml")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _modules() -> list[str]:
    return sorted(p.relative_to(ROOT).as_posix() for d in ("dsl", "interpreter") for p in (ROOT / d).rglob("*.py"))


def _repo_paths() -> set[str]:
    """Every file and folder of the repository, relative to its root (caches and hidden folders left out)."""
    out: set[str] = set()
    for p in ROOT.rglob("*"):
        rel = p.relative_to(ROOT).as_posix()
        if any(part.startswith(".") or part == "__pycache__" or part.endswith(".egg-info") for part in rel.split("/")):
            continue
        out.add(rel + "/" if p.is_dir() else rel)
    return out


def _backticked(text: str) -> list[str]:
    return re.findall(r"`([^`\n]+)`", text)


def _is_path(tok: str) -> bool:
    return bool(PATH_TOKEN.match(tok)) and ("/" in tok or tok.endswith(PATH_ENDINGS))


def _index_rows(text: str) -> list[tuple[str, list[str]]]:
    """The module index: (folder, file names) for each table row whose first cell starts with a folder."""
    rows = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else []
        if len(cells) != 2:
            continue
        first = _backticked(cells[0])
        if first and first[0].endswith("/") and (ROOT / first[0]).is_dir():
            rows.append((first[0], _backticked(cells[1])))
    return rows


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, each space a hyphen."""
    text = heading.strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    fenced = False
    out = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            out.add(_slug(line.lstrip("#")))
    return out


def _bad_links(doc: Path, only_into: tuple[Path, ...] | None = None) -> list[str]:
    bad = []
    for target in LINK.findall(doc.read_text(encoding="utf-8")):
        if re.match(r"^[a-z]+:", target):
            continue
        file, _, anchor = target.partition("#")
        dest = (doc.parent / file).resolve() if file else doc
        if only_into is not None and dest not in only_into:
            continue
        if not dest.exists():
            bad.append(f"{doc.relative_to(ROOT)}: {target} (no such file)")
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            bad.append(f"{doc.relative_to(ROOT)}: {target} (no such heading)")
    return bad


def test_the_map_is_at_most_300_lines() -> None:
    n = len(MAP.read_text(encoding="utf-8").splitlines())
    assert n <= MAX_LINES, f"docs/architecture.md has {n} lines; move reasoning to docs/design/"


def test_every_module_is_named() -> None:
    text = MAP.read_text(encoding="utf-8")
    named = {tok for tok in _backticked(text) if _is_path(tok)}
    for folder, names in _index_rows(text):
        named |= {folder + n for n in names}
    missing = [m for m in _modules() if m not in named]
    assert not missing, "modules docs/architecture.md does not name (add them to its module index): " + ", ".join(
        missing
    )


def test_every_path_named_exists() -> None:
    text = MAP.read_text(encoding="utf-8")
    paths = _repo_paths()
    tails = {"/" + p for p in paths}
    gone = []
    for tok in _backticked(text):
        if not _is_path(tok):
            continue
        if tok in paths or (DOCS / tok).exists() or (ROOT / tok).exists():
            continue
        if any(t.endswith("/" + tok) for t in tails):
            continue
        gone.append(tok)
    for folder, names in _index_rows(text):
        gone += [folder + n for n in names if not (ROOT / folder / n).exists()]
    assert not gone, "paths docs/architecture.md names that do not exist: " + ", ".join(gone)


def test_the_links_of_the_map_and_the_design_notes_resolve() -> None:
    bad = [b for doc in [MAP, *DESIGN] for b in _bad_links(doc)]
    assert not bad, "\n".join(bad)
    links = LINK.findall(MAP.read_text(encoding="utf-8"))
    linked = {(DOCS / m.partition("#")[0]).resolve() for m in links if m.startswith("design/")}
    unlinked = [p.name for p in DESIGN if p.resolve() not in linked]
    assert not unlinked, "design notes the map does not link: " + ", ".join(unlinked)


def test_links_into_the_map_and_the_notes_resolve() -> None:
    targets = (MAP.resolve(), *(p.resolve() for p in DESIGN))
    docs = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
    bad = [b for doc in docs if doc.resolve() != MAP.resolve() for b in _bad_links(doc, only_into=targets)]
    assert not bad, "\n".join(bad)


def test_the_slug_is_githubs() -> None:
    # The anchors the docs link to are GitHub's: backticks, slashes, dots and dashes of a heading dropped.
    assert _slug(" compile — `dsl/codegen/`") == "compile--dslcodegen"
    assert _slug(" The state, and why clone is cheap") == "the-state-and-why-clone-is-cheap"
    assert _slug(" 9. Types and what the checker reports") == "9-types-and-what-the-checker-reports"
