"""Reading rule and scenario files: one policy for every path.

Every rule or scenario file is read here, whether the user named it on the command line or another
file names it (`extends:` in a rule file, `game:` in a scenario file):

- only a regular file is read. A folder, device, named pipe or socket is refused before it is opened
  (`stat`), and the file is opened with O_NONBLOCK | O_NOCTTY and checked again (`fstat`), so a
  FIFO or a terminal can never block a command. Files under /proc, /sys and /dev, and files whose
  content is not the size the system reports for them (pseudo files), are refused too;
- at most `limits.file_bytes` are read, as UTF-8.

A path *named inside a file* is the file's author's choice, not the user's, so it must also be a
printable `.yaml`/`.yml` name (also once links are followed), relative to the naming file's folder,
and the file must be recognisably a rule file of ours before any of its text is shown: YAML that
parses into a mapping whose top-level keys are all rule-file sections, with an `extends` (a variant)
or a `game` name and every other section a rule file needs. Otherwise the naming line gets one
diagnostic that says why in general terms, and nothing of the file's text (no line, no key, no YAML
reader message) is printed.

A bundled game (a rule file of the `games` package, `cardsmith list`) can also be named by its name,
`extends: NAME`: a bare name, with no folder and no suffix, is looked up among the bundled games
(a name, never a path, so it reaches no other file), and the file found is read like any named path.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from .diagnostics import Diagnostic, Span
from .keys import REQUIRED_SECTIONS, SECTIONS
from .limits import Limits
from .yaml_loader import YMap, YNode, YScalar, load

RULE_SUFFIXES = (".yaml", ".yml")
SYSTEM_FOLDERS = ("/proc", "/sys", "/dev")
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)

def shown(name: str) -> str:
    """A file name as printed in a message: itself, or its repr if it holds control characters."""
    return name if name.isprintable() else repr(name)


def quoted(text: str) -> str:
    """A name from a file, in quotes, on one line: 'name', or its repr if it holds control characters."""
    return f"'{text}'" if text.isprintable() else repr(text)


def _kind(st: os.stat_result) -> str | None:
    """Why a file of this mode is not read, or None for a regular file."""
    mode = st.st_mode
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "it is a folder"
    if stat.S_ISFIFO(mode):
        return "it is a named pipe, not a file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "it is a device, not a file"
    if stat.S_ISSOCK(mode):
        return "it is a socket, not a file"
    return "it is not a regular file"


def _system(real: str) -> str | None:
    """The system folder (/proc, /sys, /dev) that holds this resolved path, if any."""
    return next((d for d in SYSTEM_FOLDERS if real == d or real.startswith(d + "/")), None)


def read_text(path: Path | str, diags: list[Diagnostic], at: Span, limits: Limits) -> str | None:
    """The text of a rule or scenario file, at most `limits.file_bytes` of UTF-8; None (and a diagnostic) if not.

    `at` is where a problem is reported: 1:1 of the file itself, or the line of the file that named it."""
    name = str(path)
    limit = limits.file_bytes

    def refuse(why: str) -> None:
        diags.append(Diagnostic("E008", at, f"cannot read file {shown(name)}: {why}"))

    try:
        real = os.path.realpath(name)
        before = os.stat(name)  # no open yet: a device is never touched
    except ValueError:  # a NUL byte in the name
        diags.append(Diagnostic("E008", at, f"cannot read file {name!r}: not a valid file name"))
        return None
    except OSError as e:
        refuse(e.strerror or "it cannot be read")
        return None
    why = _kind(before)
    folder = _system(real)
    if why is None and folder is not None:
        why = f"it is in {folder}, a system folder: only files on disk are read"
    if why is not None:
        refuse(why)
        return None
    if before.st_size > limit:
        diags.append(Diagnostic("E007", at, f"the file {shown(name)} is larger than {limit:,} bytes",
                                limits.hint("file_bytes")))
        return None
    try:
        fd = os.open(name, _OPEN_FLAGS)
    except OSError as e:
        refuse(e.strerror or "it cannot be read")
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or (st.st_dev, st.st_ino) != (before.st_dev, before.st_ino):
            refuse("it changed while it was opened")
            return None
        chunks: list[bytes] = []
        got = 0
        while got <= limit:
            chunk = os.read(fd, min(1 << 16, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
    except OSError as e:
        refuse(e.strerror or "it cannot be read")
        return None
    finally:
        os.close(fd)
    raw = b"".join(chunks)
    if len(raw) > limit:
        diags.append(Diagnostic("E007", at, f"the file {shown(name)} is larger than {limit:,} bytes",
                                limits.hint("file_bytes")))
        return None
    if len(raw) != st.st_size:
        # A file of /proc or another pseudo file system: its size says 0 (or 4096), its content differs.
        refuse("it is not an ordinary file on disk (its size and its content differ)")
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        diags.append(Diagnostic("E009", at, f"the file {shown(name)} is not UTF-8 text (byte {e.start})"))
        return None
    return text


# ---------------------------------------------------------------- which kind of file
# The sections that only a rule file has at its top level: `game` is in both kinds of file, and `players` and
# `options` are keys of a scenario too, easily written one level too high in a scenario file.
RULE_ONLY_SECTIONS = [s for s in SECTIONS if s not in ("game", "players", "options")]
SCENARIO_KEY = "scenarios"


def file_kind(root: YNode | None) -> tuple[str, YScalar] | None:
    """('scenarios', key) for a file that clearly is a scenario file (a top-level `scenarios` and no section
    that only rule files have), ('rules', key) for one that clearly is a rule file (such a section and no
    `scenarios`), with the top-level key that tells; None when it is neither clearly. A command given the
    other kind of file says so in one diagnostic at that key, instead of reporting every key as a mistake;
    a file with both kinds of key is left to the command's own diagnostics."""
    if not isinstance(root, YMap):
        return None
    scenarios = root.items.get(SCENARIO_KEY)
    rule_key = next((ks for key, (ks, _) in root.items.items() if key in RULE_ONLY_SECTIONS), None)
    if scenarios is not None and rule_key is None:
        return "scenarios", scenarios[0]
    if scenarios is None and rule_key is not None:
        return "rules", rule_key
    return None


# ---------------------------------------------------------------- paths named inside a file
@dataclass
class Target:
    """A rule file named inside another file: where it is, and its resolved path (for cycles)."""
    path: Path
    real: str


def named_path(naming_file: str, value: str) -> Target | str:
    """Where a path written in `naming_file` points (relative to its folder), or why it is refused."""
    if not value.strip():
        return "the name is empty"
    if not value.isprintable():
        return "a file name must be printable text"
    if Path(value).suffix not in RULE_SUFFIXES:
        return ""  # the caller's own words: not a .yaml name
    return _target(Path(naming_file).parent / value)


def _target(path: Path) -> Target | str:
    """A named file once links are followed, or why it is refused."""
    try:
        real = os.path.realpath(path)
    except (OSError, ValueError):
        return "the name cannot be resolved"
    if _system(real) is not None:
        return "it is in a system folder"
    if Path(real).suffix not in RULE_SUFFIXES:
        return "it is a link to a file that is not a .yaml file"
    return Target(path, real)


# ---------------------------------------------------------------- bundled games
def bundled_games() -> dict[str, Path]:
    """The bundled games by name (the file name without .yaml), in order: the rule files of the `games`
    package, wherever it is installed."""
    root = resources.files(__package__.rpartition(".")[0] + ".games")
    out: dict[str, Path] = {}
    for entry in sorted(root.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".yaml"):
            out[entry.name[: -len(".yaml")]] = Path(str(entry))
    return out


def game_key(name: str) -> str:
    """A bundled game's name as typed (any case, spaces for dashes), as `bundled_games` keys it."""
    return name.lower().replace(" ", "-")


def bundled_game(name: str) -> Path | None:
    """The file of the bundled game with this name (any case; spaces for dashes), or None."""
    return bundled_games().get(game_key(name))


def is_game_name(value: str) -> bool:
    """Whether `extends: value` names a bundled game: printable, no folder, no suffix. A file is named by a
    path ending in .yaml, so `extends: NAME` is the bundled game even beside a local NAME.yaml."""
    return bool(value.strip()) and value.isprintable() and "/" not in value and "\\" not in value \
        and not Path(value).suffix


def bundled_target(name: str) -> Target | str | None:
    """The bundled game `name` as a named file (None if there is none; a reason if it is refused)."""
    path = bundled_game(name)
    return None if path is None else _target(path)


@dataclass
class RuleText:
    """A file recognised as a rule file: its text, its YAML tree and the loader's diagnostics for it."""
    name: str
    text: str
    root: YMap
    diagnostics: list[Diagnostic]


def read_rule_file(target: Target, value: str, at: Span, diags: list[Diagnostic], code: str,
                   limits: Limits) -> RuleText | None:
    """Read a rule file named inside another file (as `value`, at `at`); None, with one diagnostic at `at`,
    if it cannot be read or is not recognisably a rule file."""
    name = str(target.path)
    text = read_text(target.path, diags, at, limits)
    if text is None:
        return None
    own: list[Diagnostic] = []
    root = load(name, text, own, limits)
    why = _not_a_rule_file(root, own)
    if why is not None or not isinstance(root, YMap):
        diags.append(Diagnostic(code, at, f"'{value}' is not a rule file ({why})",
                                None if why == "it is not a YAML mapping" else
                                f"if it is one, 'cardsmith validate {shown(name)}' shows its problems"))
        return None
    return RuleText(name, text, root, own)


# The loader's problems that mean the YAML could not be read as a mapping of sections at all.
_UNREADABLE = {
    "E000": "its YAML does not parse", "E002": "it has a key that is not a plain name",
    "E004": "it is empty", "E005": "its YAML has too many values", "E006": "its YAML is nested too deeply",
}


def _not_a_rule_file(root: YNode | None, own: list[Diagnostic]) -> str | None:
    """Why a loaded YAML file is not recognisably a rule file, in words that quote none of it."""
    for d in own:
        if d.code in _UNREADABLE:
            return f"{_UNREADABLE[d.code]}, line {d.span.line}"
    if root is None:
        return "its YAML does not load"
    if not isinstance(root, YMap):
        return "it is not a YAML mapping"
    for key, (ks, _) in root.items.items():
        if key not in SECTIONS:
            return f"the key at line {ks.span.line} is not a section of a rule file"
    game, base = root.get("game"), root.get("extends")
    if isinstance(base, YScalar) and isinstance(base.value, str):
        return None  # a variant: its base gives the sections it leaves out
    if not (isinstance(game, YScalar) and isinstance(game.value, str)):
        return "it has no 'game' name and no 'extends'"
    # A few keys that happen to be section names (a game server's `game:` and `players:`) do not make a
    # rule file: one that is not a variant has every section a rule file needs. Only our names are said.
    missing = [s for s in REQUIRED_SECTIONS if s not in root.items]
    if missing:
        return f"it has no {', '.join(repr(s) for s in missing)} section{'s' if len(missing) > 1 else ''}"
    return None


__all__ = ["RULE_ONLY_SECTIONS", "RULE_SUFFIXES", "RuleText", "SCENARIO_KEY", "Target", "bundled_game",
           "bundled_games", "bundled_target", "file_kind", "game_key", "is_game_name", "named_path", "quoted",
           "read_rule_file", "read_text", "shown", "sources_digest"]


def sources_digest(sources: dict[str, str]) -> str:
    """SHA-256 of a rule file's text and of every file it extends (`Loaded.sources`), each under its base name:
    the same rules give the same digest wherever the files lie. A record keeps it (table/record.py) to replay on
    the very same rules; the research adapters name their environments by it (cardsmith.rlspaces)."""
    h = hashlib.sha256()
    for name in sorted(sources):
        h.update(name.rsplit("/", 1)[-1].encode() + b"\0" + sources[name].encode() + b"\0")
    return h.hexdigest()
