"""load -> schema -> parse -> check -> compile, as one call."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from . import checker, compiler, extends, schema, suggest, yaml_loader
from .compiler import CompiledGame
from .diagnostics import Diagnostic, RuleFileError, Span
from .limits import LIMITS, raise_hint


@dataclass
class Loaded:
    file: str
    source: str
    game: CompiledGame | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # Every file read (a variant and the files it extends), for rendering diagnostics.
    sources: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.game is not None and not any(d.severity == "error" for d in self.diagnostics)


def read_source(path: Path, diags: list[Diagnostic], at: Span) -> str | None:
    """The text of a rule or scenario file, at most LIMITS.file_bytes of UTF-8; None (and a diagnostic) if not."""
    name = str(path)
    try:
        if path.is_dir():
            diags.append(Diagnostic("E008", at, f"cannot read file {name}: it is a folder"))
            return None
        with path.open("rb") as f:  # never more than the limit: /dev/zero has no end
            raw = f.read(LIMITS.file_bytes + 1)
    except OSError as e:
        diags.append(Diagnostic("E008", at, f"cannot read file {name}: {e.strerror}"))
        return None
    except ValueError:  # a NUL byte in the name
        diags.append(Diagnostic("E008", at, f"cannot read file {name!r}: not a valid file name"))
        return None
    if len(raw) > LIMITS.file_bytes:
        diags.append(Diagnostic("E007", at, f"the file {name} is larger than {LIMITS.file_bytes:,} bytes",
                                raise_hint("file_bytes")))
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        diags.append(Diagnostic("E009", at, f"the file {name} is not UTF-8 text (byte {e.start})"))
        return None


def _resolve_extends(root: yaml_loader.YNode, file: str, sources: dict[str, str], diags: list[Diagnostic],
                     chain: list[str]) -> yaml_loader.YNode | None:
    """Merge a variant into the file it extends (recursively); None on errors."""
    if not isinstance(root, yaml_loader.YMap) or "extends" not in root.items:
        return root
    node = root.get("extends")
    assert node is not None
    if not isinstance(node, yaml_loader.YScalar) or not isinstance(node.value, str):
        diags.append(Diagnostic("X002", node.span, "'extends' must name one rule file, the one this file changes",
                                "e.g. extends: base.yaml (a path relative to this file)"))
        return None
    if len(chain) > extends.MAX_DEPTH:
        names = [Path(c).name for c in chain] + [node.value]
        diags.append(Diagnostic("X006", node.span, f"variants extend each other more than {extends.MAX_DEPTH} deep",
                                "the chain: " + " extends ".join(names)))
        return None
    path = extends.base_path(file, node.value)
    try:
        resolved = path.resolve() if node.value.isprintable() else None
    except (OSError, ValueError):  # a link loop, a name the system refuses
        resolved = None
    # Only rule files: a .yaml name (also after links are followed), never a device or /proc entry.
    if resolved is None or Path(node.value).suffix not in (".yaml", ".yml") \
            or resolved.suffix not in (".yaml", ".yml") or str(resolved).startswith(("/proc/", "/dev/", "/sys/")):
        diags.append(Diagnostic("X008", node.span, f"'extends' must name a .yaml rule file, not {node.value!r}",
                                "a path relative to this file, e.g. extends: base.yaml"))
        return None
    key = str(resolved)
    if key in chain:
        diags.append(Diagnostic("X007", node.span, f"'{node.value}' extends this file again (a cycle)"))
        return None
    text = read_source(path, diags, node.span)
    if text is None:
        return None
    base_name = str(path)
    sources[base_name] = text
    base_root = yaml_loader.load(base_name, text, diags)
    if base_root is None:
        return None
    base_root = _resolve_extends(base_root, base_name, sources, diags, chain + [key])
    if base_root is not None and not isinstance(base_root, yaml_loader.YMap):
        diags.append(Diagnostic("X009", node.span, f"'{node.value}' is not a rule file (it is not a YAML mapping)"))
        return None
    if not isinstance(base_root, yaml_loader.YMap):
        return None
    return extends.merge(base_root, root, diags)


def _resolved(file: str) -> str:
    try:
        return str(Path(file).resolve())
    except (OSError, ValueError):
        return file


def compile_text(source: str, file: str = "<rules>") -> Loaded:
    suggest.new_run()  # "did you mean" hints have a budget per file
    diags: list[Diagnostic] = []
    sources = {file: source}
    if len(source.encode("utf-8", "replace")) > LIMITS.file_bytes:
        diags.append(Diagnostic("E007", Span(file, 1, 1), f"the file is larger than {LIMITS.file_bytes:,} bytes",
                                raise_hint("file_bytes")))
        return Loaded(file, source, None, diags, sources)
    root = yaml_loader.load(file, source, diags)
    if root is not None:
        root = _resolve_extends(root, file, sources, diags, [_resolved(file)])
    if root is None:
        return Loaded(file, source, None, diags, sources)
    spec = schema.read_spec(file, root, diags)
    if spec is None:
        return Loaded(file, source, None, diags, sources)
    # Check even after structural errors, so one run reports every problem.
    ck = checker.check(spec, diags)
    if diags:
        return Loaded(file, source, None, diags, sources)
    game = compiler.compile_spec(spec, ck, diags)
    return Loaded(file, source, game if not diags else None, diags, sources)


def compile_file(path: str | Path) -> Loaded:
    name = str(path)
    diags: list[Diagnostic] = []
    source = read_source(Path(path), diags, Span(name, 1, 1))
    if source is None:
        return Loaded(name, "", None, diags, {})
    return compile_text(source, name)


def load_or_raise(path: str | Path) -> CompiledGame:
    r = compile_file(path)
    if not r.ok or r.game is None:
        raise RuleFileError(r.diagnostics, r.sources)
    return r.game
