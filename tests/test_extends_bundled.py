"""`extends:` a bundled game by its name (`extends: stichln`).

After `pip install .` the bundled games live in the installed `games` package, not beside a
designer's variant, so a variant must be able to name one without a path. A bare name (no folder, no
suffix) is looked up among the bundled games; a path ends in .yaml and keeps meaning a file relative
to the variant. The golden tests/invalid/extends_unknown_game pins the text of X010.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cardsmith.cli.main import main
from cardsmith.dsl import files
from cardsmith.dsl.pipeline import compile_file
from conftest import BUNDLED_DIR, GAMES_DIR, ROOT

VARIANT = """\
extends: {base}
game: Stichln (short)
options:
  deals: {{default: 1}}
"""


def test_bundled_games_are_the_games_package() -> None:
    import cardsmith.games as games

    found = files.bundled_games()
    assert set(found) == {p.stem for p in GAMES_DIR.glob("*.yaml")}
    assert all(p.parent == Path(games.__file__).parent for p in found.values())
    assert files.bundled_game("Thirty One") == found["thirty-one"]


@pytest.mark.parametrize("base", ["stichln", "Stichln", "STICHLN"])
def test_a_variant_elsewhere_extends_a_bundled_game_by_name(base: str, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    variant = tmp_path / "short.yaml"
    variant.write_text(VARIANT.format(base=base), encoding="utf-8")
    r = compile_file(variant)
    assert r.ok and r.game is not None, r.diagnostics
    assert r.game.spec.name == "Stichln (short)"
    assert str(BUNDLED_DIR / "stichln.yaml") in r.sources  # the bundled file was read, and is shown in errors
    assert main(["validate", str(variant)]) == 0
    assert main(["run", str(variant), "--players", "3", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{variant}: ok: Stichln (short), 3-8 players")
    assert "== Deal 1" in out and "== Deal 2" not in out  # the variant's option: one deal


def test_a_misspelt_name_gets_the_nearest_bundled_game(tmp_path: Path) -> None:
    variant = tmp_path / "v.yaml"
    variant.write_text("game: V\nextends: Stichl\n", encoding="utf-8")
    [d] = compile_file(variant).diagnostics
    assert (d.code, d.span.file, d.span.line, d.span.col) == ("X010", str(variant), 2, 10)
    assert d.message == "no bundled game named 'Stichl'"
    assert d.hint == "did you mean 'stichln'?"
    # Far from every bundled name (a local file's name without .yaml): the list, and how to name a file.
    variant.write_text("game: V\nextends: base\n", encoding="utf-8")
    [d] = compile_file(variant).diagnostics
    assert d.code == "X010" and d.message == "no bundled game named 'base'"
    assert d.hint == (f"bundled games: {', '.join(files.bundled_games())}; a rule file is named by its path, "
                      "ending in .yaml")


@pytest.mark.parametrize("name", ["..", ".", "~", "passwd", "environ", "credentials", "high card"])
def test_a_bare_name_reads_no_file(name: str, tmp_path: Path) -> None:
    """A bare name is a key among the bundled games, never a path: a file beside the variant with that
    name (with or without .yaml) is not read."""
    if name not in (".", "..", "~"):
        (tmp_path / name).write_text("game: secret-7d1f\n", encoding="utf-8")
        (tmp_path / f"{name}.yaml").write_text("game: secret-7d1f\n", encoding="utf-8")
    variant = tmp_path / "v.yaml"
    variant.write_text(f"game: V\nextends: '{name}'\n", encoding="utf-8")
    r = compile_file(variant)
    assert [d.code for d in r.diagnostics] == ["X010"]
    assert set(r.sources) == {str(variant)}


def test_a_path_still_names_a_file_even_beside_a_bundled_name(tmp_path: Path) -> None:
    """`extends: stichln.yaml` is the file beside the variant; `extends: stichln` the bundled game."""
    local = (GAMES_DIR / "stichln.yaml").read_text(encoding="utf-8").replace("game: Stichln", "game: Local Stichln")
    (tmp_path / "stichln.yaml").write_text(local, encoding="utf-8")
    variant = tmp_path / "v.yaml"
    for base, read in (("stichln.yaml", tmp_path / "stichln.yaml"), ("stichln", BUNDLED_DIR / "stichln.yaml")):
        variant.write_text(f"extends: {base}\nsummary: which base\n", encoding="utf-8")
        r = compile_file(variant)
        assert r.ok and r.game is not None, r.diagnostics
        assert str(read) in r.sources
        assert r.game.spec.name == ("Local Stichln" if base.endswith(".yaml") else "Stichln")


def test_a_bundled_game_extending_itself_is_a_cycle(tmp_path: Path) -> None:
    # The games package copied, with one game naming itself by name: X007 at its extends line.
    site = _site(tmp_path)
    own = site / "cardsmith" / "games" / "schwimmen.yaml"
    own.write_text("extends: Schwimmen\n" + own.read_text(encoding="utf-8"), encoding="utf-8")
    r = _installed(site, ["validate", "schwimmen"], tmp_path)
    assert r.returncode == 1
    assert r.stdout.splitlines()[0] == (f"{own}:1:10: error: 'Schwimmen' extends this file again (a cycle) "
                                        "[X007]")


def _site(tmp_path: Path) -> Path:
    """A copy of the package laid out as `pip install .` lays it out: interpreter/ as cardsmith/, dsl/ as
    cardsmith/dsl/, games/ as cardsmith/games/."""
    site = tmp_path / "site"
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "interpreter", site / "cardsmith", ignore=ignore)
    shutil.copytree(ROOT / "dsl", site / "cardsmith" / "dsl", ignore=ignore)
    shutil.copytree(GAMES_DIR, site / "cardsmith" / "games", ignore=ignore)
    return site


def _installed(site: Path, argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """`cardsmith ARGV` run from the copy in `site`, as an installed copy would run."""
    env = {**os.environ, "PYTHONPATH": str(site)}
    return subprocess.run([sys.executable, "-m", "cardsmith", *argv], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.slow
def test_an_installed_copy_is_found_wherever_it_is(tmp_path: Path) -> None:
    """As after `pip install .`: the bundled games are wherever the `games` package is, not beside the
    variant nor in the working directory; `cardsmith list` says where."""
    site = _site(tmp_path)
    installed = site / "cardsmith" / "games" / "stichln.yaml"
    installed.write_text(installed.read_text(encoding="utf-8").replace("game: Stichln", "game: Installed Stichln"),
                         encoding="utf-8")
    work = tmp_path / "designer"
    work.mkdir()
    (work / "short.yaml").write_text(VARIANT.format(base="stichln"), encoding="utf-8")
    listed = _installed(site, ["list"], work)
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    i = lines.index("stichln: Installed Stichln, 3-8 players")
    assert lines[i + 1] == f"    file: {installed}"
    # The variant's own name wins; what it leaves alone comes from the installed copy.
    ran = _installed(site, ["run", "short.yaml", "--players", "3", "--seed", "1"], work)
    assert ran.returncode == 0, ran.stderr
    broken = _installed(site, ["validate", "short.yaml"], work)
    assert broken.stdout.startswith("short.yaml: ok: Stichln (short), 3-8 players"), broken.stdout
    installed.write_text(installed.read_text(encoding="utf-8") + "\nbogus_section: 1\n", encoding="utf-8")
    broken = _installed(site, ["validate", "short.yaml"], work)
    assert broken.returncode == 1
    assert broken.stdout.splitlines()[0] == ("short.yaml:1:10: error: 'stichln' is not a rule file (the key at "
                                             f"line {len(installed.read_text().splitlines())} is not a section of "
                                             "a rule file) [X009]")


def test_the_reported_variant_adding_sixes_to_a_bundled_game(tmp_path: Path) -> None:
    """Issue 10 as new users met it: `extends: schwimmen` with a '6' rank validated, then every match failed
    with R001 in schwimmen.yaml. Now it is C038 at the rank the variant added."""
    variant = tmp_path / "sixes.yaml"
    variant.write_text("extends: schwimmen\ngame: Schwimmen with sixes\n"
                       "deck:\n  ranks: ['6', '7', '8', '9', '10', J, Q, K, A]\n", encoding="utf-8")
    [d] = compile_file(variant).diagnostics
    assert (d.code, d.span.file, d.span.line, d.span.col) == ("C038", str(variant), 4, 11)
    assert d.message.endswith(f"its 'by_rank' table is at {BUNDLED_DIR / 'schwimmen.yaml'}:16:7")
