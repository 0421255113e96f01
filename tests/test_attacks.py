"""Rule files from strangers: every attack in tests/attacks/ is refused, or is harmless text.

Each file in tests/attacks/ is one small rule file with one attack. Its header says what is expected:

    # ATTACK: what the file tries
    # EXPECT: refused | valid | no-crash | rule-error
    # WHY: why that is the right outcome
    # PRINTS: text that `cardsmith run` must print literally (valid files only; may repeat)

and the line (or lines) of the attack carry a trailing `# <- ATTACK` comment. `# <- ATTACK?` marks a
line an error *may* point at (a bomb spread over several lines, a cascade on a neighbouring line).

* refused: `cardsmith validate` exits with status 1 and prints a located error
  `FILE:LINE:COL: error:` (or `... rule error:` for a failure while setting the game up) at every
  `# <- ATTACK` line, and at no line that is not marked.
* valid: the attack is only text (a log message, a label, a suit name holding Python code...).
  `validate` accepts the file, and `cardsmith run --seed 1` prints each PRINTS text literally, exits
  with status 0 and creates no file.
* no-crash: resource bombs whose right outcome is either a located refusal or a located rule error
  while the game is set up or runs. `validate` (and, if it accepts the file, `run`) must finish within
  the limits below, with status 0 or with a located error at a marked line.
* rule-error: rules that do something impossible only when they run (a seat or a card that does not
  exist). Either `validate` refuses the file with located errors at marked lines only, or it accepts it
  and `cardsmith run --seed 1` exits with status 1 and a located rule error at a marked line: a silent
  success is a failure here.

Every command runs in a process of its own (forked from the tests' zygote, tests/forkserver.py: the same
isolation as a fresh `python -m cardsmith`, without its start-up), in an empty temporary directory, with a
5 s timeout and a 1 GiB address-space limit, stdin closed, and a secret in the environment. For every file: no Python
traceback, no file created in the working directory (the payloads try `touch PWNED`), and neither the
secret nor the content of /etc/passwd in the output.
"""

from __future__ import annotations

import os
import re
import resource
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import ROOT
from forkserver import run_cli

pytestmark = [pytest.mark.slow]

ATTACKS = ROOT / "tests" / "attacks"
FILES = sorted(ATTACKS.glob("*.yaml"))
TIMEOUT = 5.0
MEMORY = 1 << 30  # 1 GiB of address space
SECRET = "cardsmith-attack-secret-5f1e2d"
PASSWD_LINE = "root:x:0:0"


def _limit() -> None:  # the memory limit in a child before it runs Python (test_output_safety.py's subprocess)
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


@dataclass
class Result:
    code: int
    out: str
    err: str

    @property
    def text(self) -> str:
        return self.out + self.err


def cardsmith(args: list[str], cwd: Path) -> Result:
    """Run `cardsmith ARGS` in a process of its own under the time and memory limits."""
    env = dict(os.environ, CARDSMITH_ATTACK_SECRET=SECRET, PYTHONDONTWRITEBYTECODE="1")
    try:
        p = run_cli(args, cwd=cwd, env=env, timeout=TIMEOUT, rlimit_as=MEMORY)
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode("utf-8", "replace")[-2000:]
        pytest.fail(f"'cardsmith {' '.join(args)}' did not finish within {TIMEOUT} s (a hang); output so far:\n{out}")
    return Result(p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"))


@dataclass
class Attack:
    path: Path
    attack: str
    expect: str
    prints: list[str] = field(default_factory=list)
    must: set[int] = field(default_factory=set)  # lines that must be reported
    may: set[int] = field(default_factory=set)  # lines that may be reported


def read_attack(path: Path) -> Attack:
    text = path.read_text(encoding="utf-8")
    heads: dict[str, list[str]] = {}
    for line in text.splitlines():
        m = re.match(r"# (ATTACK|EXPECT|WHY|PRINTS): (.*)$", line)
        if m:
            heads.setdefault(m.group(1), []).append(m.group(2).rstrip())
    assert heads.get("ATTACK") and heads.get("EXPECT"), f"{path.name}: header needs ATTACK and EXPECT"
    assert heads.get("WHY"), f"{path.name}: header needs WHY"
    a = Attack(path, heads["ATTACK"][0], heads["EXPECT"][0], heads.get("PRINTS", []))
    assert a.expect in ("refused", "valid", "no-crash", "rule-error"), f"{path.name}: unknown EXPECT {a.expect!r}"
    for i, line in enumerate(text.splitlines(), 1):
        if line.rstrip().endswith("# <- ATTACK"):
            a.must.add(i)
        elif line.rstrip().endswith("# <- ATTACK?"):
            a.may.add(i)
    if a.expect == "valid":
        assert a.prints, f"{path.name}: a valid attack says what 'run' prints (PRINTS)"
    else:
        assert a.must or a.may, f"{path.name}: mark the attack's line with '# <- ATTACK'"
    return a


def located_lines(path: Path, text: str) -> list[int]:
    """The line numbers of every `PATH:LINE:COL: error:` (or `rule error:`) in the output."""
    pat = re.compile(re.escape(str(path)) + r":(\d+):(\d+): (?:rule )?error:")
    return [int(m.group(1)) for m in pat.finditer(text)]


def check_common(a: Attack, r: Result, cwd: Path, what: str) -> None:
    name = a.path.name
    assert "Traceback" not in r.text, f"{name}: {what} crashed with a traceback:\n{r.text[-3000:]}"
    assert SECRET not in r.text, f"{name}: {what} printed the environment (a secret leaked):\n{r.text[-1500:]}"
    assert PASSWD_LINE not in r.text, f"{name}: {what} printed /etc/passwd:\n{r.text[-1500:]}"
    made = sorted(p.name for p in cwd.iterdir())
    assert not made, f"{name}: {what} created files in the working directory: {made}"


def check_located(a: Attack, r: Result, what: str) -> None:
    name = a.path.name
    lines = located_lines(a.path, r.text)
    assert lines, f"{name}: {what} gave no located error 'FILE:LINE:COL: error:':\n{r.text[-3000:]}"
    stray = sorted(set(lines) - a.must - a.may)
    assert not stray, (f"{name}: {what} reported lines {stray}, not the attack's lines "
                       f"{sorted(a.must | a.may)}:\n{r.text[-3000:]}")


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_attack(path: Path, tmp_path: Path) -> None:
    a = read_attack(path)
    r = cardsmith(["validate", str(path)], tmp_path)
    check_common(a, r, tmp_path, "validate")
    if a.expect == "refused":
        assert r.code == 1, f"{path.name}: the attack was not refused (status {r.code}):\n{r.text[-3000:]}"
        check_located(a, r, "validate")
        missing = sorted(a.must - set(located_lines(path, r.text)))
        assert not missing, f"{path.name}: no error at attack line(s) {missing}:\n{r.text[-3000:]}"
        return
    if a.expect == "valid":
        assert r.code == 0 and ": ok: " in r.out, f"{path.name}: this harmless file should validate:\n{r.text}"
        run = cardsmith(["run", str(path), "--seed", "1"], tmp_path)
        check_common(a, run, tmp_path, "run")
        assert run.code == 0, f"{path.name}: run failed (status {run.code}):\n{run.text[-3000:]}"
        assert run.err == "", f"{path.name}: run wrote to stderr:\n{run.err}"
        for text in a.prints:
            assert text in run.out, f"{path.name}: run did not print {text!r} literally:\n{run.out}"
        return
    # no-crash: a located refusal, or a game that validates and runs (or stops with a located rule error)
    # rule-error: the same, except that the run must stop with a located rule error
    assert r.code in (0, 1), f"{path.name}: validate ended with status {r.code}:\n{r.text[-3000:]}"
    if r.code == 1:
        check_located(a, r, "validate")
        return
    run = cardsmith(["run", str(path), "--seed", "1"], tmp_path)
    check_common(a, run, tmp_path, "run")
    assert run.code in (0, 1), f"{path.name}: run ended with status {run.code}:\n{run.text[-3000:]}"
    if a.expect == "rule-error":
        assert run.code == 1, f"{path.name}: run succeeded; the attack must stop it:\n{run.text[-3000:]}"
    if run.code == 1:
        check_located(a, run, "run")


def test_there_are_enough_attacks() -> None:
    assert len(FILES) >= 15
    kinds = {read_attack(p).expect for p in FILES}
    assert kinds == {"refused", "valid", "no-crash", "rule-error"}


# ---------------------------------------------------------------- a file name holding Python code
# The attack is not in the file but in its name: a stranger's archive may hold a file called
# "x<newline>PYTHON<newline>#.yaml". The name is only a name; validating and running the file must
# not run the line in the middle (here a classic escape from restricted builtins that runs
# `touch PWNED` in the working directory).
HARMLESS = """\
game: Named
players: 2
deck:
  suits: [clubs]
  ranks: ['2', '3']
zones:
  stock: {}
  hand: {per_player: true}
actions:
  pass: {}
phases:
  main:
    actions: [pass]
    after: [end deal]
match:
  deal:
    - deal 1 from stock to hand
    - goto main
  over_when: true
  winners: players
"""
PAYLOAD = ("[c for c in ().__class__.__base__.__subclasses__() if c.__name__ == '_wrap_close'][0]"
           ".__init__.__globals__['system']('touch PWNED')")


@pytest.mark.parametrize("command", ["validate", "run"])
def test_file_name_with_python_code(command: str, tmp_path: Path) -> None:
    name = f"named\n{PAYLOAD}\n#.yaml"
    (tmp_path / name).write_text(HARMLESS, encoding="utf-8")
    r = cardsmith([command, name] + (["--seed", "1"] if command == "run" else []), tmp_path)
    made = sorted(p.name for p in tmp_path.iterdir() if p.name != name)
    assert not made, f"{command} ran Python code from the file's name: it created {made}\n{r.text[-2000:]}"
    assert "Traceback" not in r.text, r.text[-3000:]
    assert r.code == 0, f"{command} of a harmless file failed:\n{r.text[-2000:]}"
