"""Scenario files from strangers, and every path a file names (see tests/attacks_scenarios/README.md).

Each tests/attacks_scenarios/*.yaml is copied, with rules/, into a temporary folder where the test also
makes the files the attacks name (a FIFO, a folder, links to system files, a credentials file, YAML
that does not parse, a huge file, ...). `cardsmith test` then runs in another, empty folder, in a
process of its own under the limits of tests/test_attacks.py. The same files are then named through `extends:`
in generated rule files (`validate`), and the device-like ones on the command line.
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import ROOT
from test_attacks import PASSWD_LINE, SECRET, Result, cardsmith

pytestmark = [pytest.mark.slow]

FOLDER = ROOT / "tests" / "attacks_scenarios"
FILES = sorted(FOLDER.glob("*.yaml"))
MARKER = "fixture-text-91c2e7"  # in every file the test makes: none of it may be printed
CREDENTIAL_KEYS = ["aws_access_key_id", "aws_secret_access_key", "db_password"]
NEVER = [SECRET, PASSWD_LINE, MARKER, *CREDENTIAL_KEYS]


def make_targets(folder: Path) -> None:
    """The files the attacks name, beside the copied scenario files."""
    os.mkfifo(folder / "fifo.yaml", 0o600)
    (folder / "folder.yaml").mkdir()
    for name, target in (("passwd", "/etc/passwd"), ("environ", "/proc/self/environ"), ("stdin", "/dev/stdin"),
                         ("zero", "/dev/zero")):
        (folder / f"{name}.yaml").symlink_to(target)
    (folder / "credentials.yaml").write_text(
        f"# {MARKER}\n{CREDENTIAL_KEYS[0]}: AKIA{MARKER}\n{CREDENTIAL_KEYS[1]}: {SECRET}\n"
        f"{CREDENTIAL_KEYS[2]}: {SECRET}\n", encoding="utf-8")
    (folder / "broken.yaml").write_text(f"game: {MARKER}\ntoken: \"{SECRET}\n", encoding="utf-8")
    (folder / "nul.yaml").write_bytes(f"PATH=/bin\0SECRET={SECRET}\0{MARKER}\0".encode())
    (folder / "sections.yaml").write_text(f"summary: {SECRET} {MARKER}\nplayers: {{min: 2, max: 2}}\n",
                                          encoding="utf-8")
    # A settings file whose keys happen to be section names: not a rule file (no zones, actions, ...).
    (folder / "settings.yaml").write_text(f"game: {SECRET}\nplayers: {MARKER}\ndeck: {{{MARKER}: 1}}\n",
                                          encoding="utf-8")
    (folder / "huge.yaml").write_text(f"game: Huge\n# {MARKER} {'x' * 1_000_100}\n", encoding="utf-8")
    (folder / "latin1.yaml").write_bytes(f"game: caf\xe9 {MARKER}\n".encode("latin-1"))


@pytest.fixture(scope="module")
def copied(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("attacks_scenarios")
    for f in FILES:
        shutil.copy(f, folder / f.name)
    shutil.copytree(FOLDER / "rules", folder / "rules")
    make_targets(folder)
    return folder


@pytest.fixture
def cwd(tmp_path: Path) -> Path:
    """An empty working directory: nothing may be created in it."""
    work = tmp_path / "cwd"
    work.mkdir()
    return work


@dataclass
class Attack:
    path: Path
    expect: str
    line: int


def read_attack(path: Path) -> Attack:
    text = path.read_text(encoding="utf-8")
    heads = dict(re.findall(r"^# (ATTACK|EXPECT): (.*)$", text, re.M))
    assert heads.get("ATTACK") and heads.get("EXPECT") in ("refused", "fails"), f"{path.name}: header"
    assert re.search(r"^# WHY: ", text, re.M), f"{path.name}: header needs WHY"
    lines = [i for i, ln in enumerate(text.splitlines(), 1) if ln.rstrip().endswith("# <- ATTACK")]
    assert len(lines) == 1, f"{path.name}: mark the attack's line with '# <- ATTACK'"
    return Attack(path, heads["EXPECT"], lines[0])


def check_clean(r: Result, cwd: Path, what: str) -> None:
    assert "Traceback" not in r.text, f"{what} crashed with a traceback:\n{r.text[-3000:]}"
    for text in NEVER:
        assert text not in r.text, f"{what} printed {text!r}:\n{r.text[-2000:]}"
    made = sorted(p.name for p in cwd.iterdir())
    assert not made, f"{what} created files in the working directory: {made}"


def test_there_are_enough_attacks() -> None:
    kinds = [read_attack(p).expect for p in FILES]
    assert len(kinds) >= 25 and set(kinds) == {"refused", "fails"}


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario_attack(path: Path, copied: Path, cwd: Path) -> None:
    a = read_attack(path)
    target = copied / path.name
    r = cardsmith(["test", str(target)], cwd)
    check_clean(r, cwd, f"test {path.name}")
    assert r.code == 1, f"{path.name}: status {r.code}:\n{r.text[-3000:]}"
    if a.expect == "refused":
        located = re.findall(re.escape(str(target)) + r":(\d+):\d+: error: .* \[(E|T)\d{3}\]$", r.out, re.M)
        assert [int(ln) for ln, _ in located] == [a.line], \
            f"{path.name}: expected one located error at line {a.line}:\n{r.text[-3000:]}"
        # One diagnostic, its source line (of the scenario file) and caret, maybe a hint: nothing else.
        assert len(r.out.splitlines()) <= 5, f"{path.name}: more than one diagnostic:\n{r.out}"
    else:
        fails = re.findall(re.escape(str(target)) + r":(\d+):\d+: ", "\n".join(
            ln for ln in r.out.splitlines() if ln.startswith("FAIL  ")))
        assert [int(x) for x in fails] == [a.line], f"{path.name}: expected a failure at line {a.line}:\n{r.out}"


# ---------------------------------------------------------------- the same files through extends:
TARGETS = ["fifo.yaml", "folder.yaml", "passwd.yaml", "environ.yaml", "stdin.yaml", "zero.yaml",
           "credentials.yaml", "broken.yaml", "nul.yaml", "sections.yaml", "settings.yaml", "huge.yaml", "latin1.yaml",
           "/proc/self/environ", "/etc/passwd", "/dev/stdin", "/dev/zero", "/proc/self/environ.yaml",
           "../../../../../../../../../../../../etc/passwd", "../../../../../../../../../../etc/passwd.yaml",
           "game_credentials.yaml",
           # Bare names are bundled games' names (X010), never files: not credentials.yaml nor ../
           "credentials", "passwd", "..", "environ"]


@pytest.mark.parametrize("target", TARGETS)
def test_extends_attack(target: str, copied: Path, cwd: Path) -> None:
    """`extends:` naming the same files: one located error at the extends line, and nothing of the file."""
    variant = copied / f"variant-{re.sub(r'[^A-Za-z0-9]', '_', target)}.yaml"
    variant.write_text(f"game: Attack\nextends: {target!r}\n", encoding="utf-8")
    r = cardsmith(["validate", str(variant)], cwd)
    check_clean(r, cwd, f"validate (extends: {target})")
    assert r.code == 1, r.text
    errors = [ln for ln in r.out.splitlines() if ": error: " in ln]
    assert len(errors) == 1 and errors[0].startswith(f"{variant}:2:10: error: "), r.out
    assert re.search(r"\[(E00[789]|X00[89]|X010)\]$", errors[0]), r.out


# ---------------------------------------------------------------- named on the command line
@pytest.mark.parametrize("command", ["validate", "test", "list"])
@pytest.mark.parametrize("target", ["fifo.yaml", "stdin.yaml", "zero.yaml", "environ.yaml", "folder.yaml",
                                    "/dev/stdin", "/proc/self/environ", "/dev/zero"])
def test_command_line_refuses_what_is_not_a_file(command: str, target: str, copied: Path, cwd: Path) -> None:
    """The user's own file is read as it is, but it must be a regular file: one line, no hang, no content."""
    name = target if target.startswith("/") else str(copied / target)
    r = cardsmith([command, name], cwd)
    check_clean(r, cwd, f"{command} {target}")
    assert r.code == 1, r.text
    errors = [ln for ln in r.text.splitlines() if "error:" in ln]
    assert len(errors) == 1 and "cannot read file" in errors[0], r.text
    assert not any(ln.startswith("    ") for ln in r.text.splitlines()), f"a source line was quoted:\n{r.text}"
