"""load -> schema -> parse -> check -> compile, as one call."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from . import checker, compiler, schema, yaml_loader
from .compiler import CompiledGame
from .diagnostics import Diagnostic, RuleFileError, Span

MAX_FILE_BYTES = 1_000_000


@dataclass
class Loaded:
    file: str
    source: str
    game: CompiledGame | None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.game is not None and not any(d.severity == "error" for d in self.diagnostics)


def compile_text(source: str, file: str = "<rules>") -> Loaded:
    diags: list[Diagnostic] = []
    if len(source.encode("utf-8", "replace")) > MAX_FILE_BYTES:
        diags.append(Diagnostic("E007", Span(file, 1, 1), f"the file is larger than {MAX_FILE_BYTES} bytes"))
        return Loaded(file, source, None, diags)
    root = yaml_loader.load(file, source, diags)
    if root is None:
        return Loaded(file, source, None, diags)
    spec = schema.read_spec(file, root, diags)
    if spec is None:
        return Loaded(file, source, None, diags)
    # Check even after structural errors, so one run reports every problem.
    ck = checker.check(spec, diags)
    if diags:
        return Loaded(file, source, None, diags)
    game = compiler.compile_spec(spec, ck, diags)
    return Loaded(file, source, game if not diags else None, diags)


def compile_file(path: str | Path) -> Loaded:
    p = Path(path)
    name = str(path)
    try:
        raw = p.read_bytes()
    except OSError as e:
        return Loaded(name, "", None, [Diagnostic("E008", Span(name, 1, 1), f"cannot read file: {e.strerror}")])
    if len(raw) > MAX_FILE_BYTES:
        return Loaded(name, "", None, [Diagnostic("E007", Span(name, 1, 1),
                                                  f"the file is larger than {MAX_FILE_BYTES} bytes")])
    try:
        source = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        return Loaded(name, "", None, [Diagnostic("E009", Span(name, 1, 1),
                                                  f"the file is not UTF-8 text (byte {e.start})")])
    return compile_text(source, name)


def load_or_raise(path: str | Path) -> CompiledGame:
    r = compile_file(path)
    if not r.ok or r.game is None:
        raise RuleFileError(r.diagnostics, {r.file: r.source})
    return r.game
