"""load -> schema -> parse -> check -> compile, as one call."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from . import checker, compiler, extends, files, lint, schema, suggest, yaml_loader
from .compiler import CompiledGame
from .diagnostics import Diagnostic, RuleFileError, Span
from .limits import DEFAULT_LIMITS, Limits


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


def read_source(path: Path, diags: list[Diagnostic], at: Span, limits: Limits = DEFAULT_LIMITS) -> str | None:
    """The text of a rule or scenario file (see dsl/files.py: regular files only, size limit, UTF-8)."""
    return files.read_text(path, diags, at, limits)


def _resolve_extends(root: yaml_loader.YNode, file: str, sources: dict[str, str], diags: list[Diagnostic],
                     chain: list[str], limits: Limits) -> yaml_loader.YNode | None:
    """Merge a variant into the file it extends (recursively); None on errors."""
    if not isinstance(root, yaml_loader.YMap) or "extends" not in root.items:
        return root
    node = root.get("extends")
    assert node is not None
    if not isinstance(node, yaml_loader.YScalar) or not isinstance(node.value, str):
        diags.append(Diagnostic("X002", node.span, "'extends' must name one rule file, the one this file changes",
                                "e.g. extends: base.yaml (a path relative to this file), or a bundled game's name"))
        return None
    if len(chain) > extends.MAX_DEPTH:
        names = [Path(c).name for c in chain] + [node.value]
        diags.append(Diagnostic("X006", node.span, f"variants extend each other more than {extends.MAX_DEPTH} deep",
                                "the chain: " + " extends ".join(names)))
        return None
    # The base is named by the file's author: the policy for named paths (dsl/files.py) applies, to a
    # bundled game's file too.
    if files.is_game_name(node.value):
        found = files.bundled_target(node.value)
        if found is None:
            games = files.bundled_games()
            diags.append(Diagnostic("X010", node.span, f"no bundled game named {files.quoted(node.value)}",
                                    suggest.did_you_mean(files.game_key(node.value), games)
                                    or f"bundled games: {', '.join(games) or 'none'}; a rule file is named by its "
                                    "path, ending in .yaml"))
            return None
        target = found
    else:
        target = files.named_path(file, node.value)
    if isinstance(target, str):
        diags.append(Diagnostic("X008", node.span, f"'extends' must name a .yaml rule file, not {node.value!r}"
                                + (f" ({target})" if target else ""),
                                "a path relative to this file, e.g. extends: base.yaml, or a bundled game's name"))
        return None
    if target.real in chain:
        diags.append(Diagnostic("X007", node.span, f"'{node.value}' extends this file again (a cycle)"))
        return None
    base = files.read_rule_file(target, node.value, node.span, diags, "X009", limits)
    if base is None:
        return None
    sources[base.name] = base.text
    diags.extend(base.diagnostics)
    base_root = _resolve_extends(base.root, base.name, sources, diags, chain + [target.real], limits)
    if not isinstance(base_root, yaml_loader.YMap):
        return None
    return extends.merge(base_root, root, diags)


def _resolved(file: str) -> str:
    try:
        return str(Path(file).resolve())
    except (OSError, ValueError):
        return file


def compile_text(source: str, file: str = "<rules>", limits: Limits = DEFAULT_LIMITS, optimize: bool = True,
                 warnings: bool = False) -> Loaded:
    """Read, check and compile a rule file's text within `limits` (the compiled game keeps them);
    `optimize=False` compiles without the optimizations of dsl/optimize.py (to compare with them);
    `warnings=True` adds the warnings of dsl/lint.py to the diagnostics of a file without errors."""
    suggest.new_run()  # "did you mean" hints have a budget per file
    diags: list[Diagnostic] = []
    sources = {file: source}
    if len(source.encode("utf-8", "replace")) > limits.file_bytes:
        diags.append(Diagnostic("E007", Span(file, 1, 1), f"the file is larger than {limits.file_bytes:,} bytes",
                                limits.hint("file_bytes")))
        return Loaded(file, source, None, diags, sources)
    root = yaml_loader.load(file, source, diags, limits)
    kind = files.file_kind(root)
    if kind is not None and kind[0] == "scenarios":
        # Read as a rule file, a scenario file would be a dozen bogus problems (no deck, no phases, ...).
        diags = [Diagnostic("E011", kind[1].span, f"this is a scenario file (it has '{files.SCENARIO_KEY}'), "
                            "not a rule file", f"run its scenarios with 'cardsmith test {files.shown(file)}'; "
                            "'cardsmith validate' checks rule files, such as the one its 'game:' names")]
        return Loaded(file, source, None, diags, sources)
    return _compile_root(file, source, root, diags, limits, optimize, warnings)


def _errors(diags: list[Diagnostic]) -> bool:
    return any(d.severity == "error" for d in diags)


def _compile_root(file: str, source: str, root: yaml_loader.YNode | None, diags: list[Diagnostic],
                  limits: Limits, optimize: bool = True, warnings: bool = False) -> Loaded:
    sources = {file: source}
    if root is not None:
        root = _resolve_extends(root, file, sources, diags, [_resolved(file)], limits)
    if root is None:
        return Loaded(file, source, None, diags, sources)
    spec = schema.read_spec(file, root, diags, limits)
    if spec is None:
        return Loaded(file, source, None, diags, sources)
    spec.files = list(sources)  # the variant first, then the files it extends
    try:
        # Check even after structural errors, so one run reports every problem.
        ck = checker.check(spec, diags, limits)
        if diags:
            return Loaded(file, source, None, diags, sources)
        if warnings:  # only now: with errors, a misspelt name would make what it meant look unused
            diags.extend(lint.lint(spec))
        game = compiler.compile_spec(spec, ck, diags, optimize)
    except RecursionError:  # a last safety net: the checker bounds nesting (C036) so this should not happen
        diags.append(Diagnostic("C036", spec.root_span, "the rules are nested too deeply to check",
                                "split deep expressions with 'let' or into functions"))
        return Loaded(file, source, None, diags, sources)
    if game is not None:
        game.sources = sources
    return Loaded(file, source, game if not _errors(diags) else None, diags, sources)


def compile_named(naming_file: str, value: str, at: Span, name_code: str, not_rule_code: str,
                  limits: Limits = DEFAULT_LIMITS) -> Loaded:
    """Compile a rule file named inside another file (a scenario's `game:`) under the policy for named
    paths (dsl/files.py). A refusal is one diagnostic at `at`, in the naming file."""
    diags: list[Diagnostic] = []
    target = files.named_path(naming_file, value)
    if isinstance(target, str):
        diags.append(Diagnostic(name_code, at, f"{value!r} is not the name of a .yaml rule file"
                                + (f" ({target})" if target else ""),
                                "a path ending in .yaml, relative to this file"))
        return Loaded(str(Path(naming_file).parent / value), "", None, diags, {})
    found = files.read_rule_file(target, value, at, diags, not_rule_code, limits)
    if found is None:
        return Loaded(str(target.path), "", None, diags, {})
    diags.extend(found.diagnostics)
    return _compile_root(found.name, found.text, found.root, diags, limits)


def compile_file(path: str | Path, limits: Limits = DEFAULT_LIMITS, optimize: bool = True,
                 warnings: bool = False) -> Loaded:
    """Read, check and compile a rule file within `limits` (the compiled game keeps them); `warnings`: as
    for `compile_text`."""
    name = str(path)
    diags: list[Diagnostic] = []
    source = read_source(Path(path), diags, Span(name, 1, 1), limits)
    if source is None:
        return Loaded(name, "", None, diags, {})
    return compile_text(source, name, limits, optimize, warnings)


def load_or_raise(path: str | Path, limits: Limits = DEFAULT_LIMITS) -> CompiledGame:
    r = compile_file(path, limits)
    if not r.ok or r.game is None:
        raise RuleFileError(r.diagnostics, r.sources)
    return r.game
