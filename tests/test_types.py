"""The checker's types are `dsl/types.py` values (frozen dataclasses), never the strings and tuples they once
were: every type a checked game records is one, the words messages use are the ones designers read, and no
module of dsl/ or interpreter/ compares a type with a string."""

from __future__ import annotations

import ast
import dataclasses
import pickle
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cardsmith.dsl import ast as A
from cardsmith.dsl import types as T
from cardsmith.dsl.spec import VAR_TYPES
from conftest import FEATURE_FILES, GAME_FILES, ROOT, compiled

TYPE_CLASSES = (T.Prim, T.ListOf, T.MapOf, T.PerPlayer, T.PerTeam, T.Fn)


def _is_type(t: object) -> bool:
    """A type made of types all the way down."""
    if not isinstance(t, TYPE_CLASSES):
        return False
    if isinstance(t, T.Prim):
        return t.name in T.PRIMS and T.PRIMS[t.name] == t
    return all(_is_type(getattr(t, f.name)) for f in dataclasses.fields(t))


def _nodes(root: object) -> Iterator[A.Expr]:
    """Every expression reachable from a compiled game's spec (through dataclasses, lists, tuples, dicts)."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        x = stack.pop()
        if id(x) in seen or isinstance(x, str | int | float | bool | type(None)):
            continue
        seen.add(id(x))
        if isinstance(x, A.Expr):
            yield x
        if dataclasses.is_dataclass(x) and not isinstance(x, type):
            stack.extend(getattr(x, f.name) for f in dataclasses.fields(x))
        elif isinstance(x, list | tuple | set | frozenset):
            stack.extend(x)
        elif isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())


@pytest.mark.parametrize("path", GAME_FILES + FEATURE_FILES, ids=lambda p: p.stem)
def test_every_type_a_checked_game_records_is_a_type(path: Path) -> None:
    game = compiled(str(path))
    typed = [e for e in _nodes(game.spec) if e.ty is not None]
    assert typed  # the walk found the game's expressions
    assert [(type(e).__name__, e.ty) for e in typed if not _is_type(e.ty)] == []
    assert all(_is_type(v.ty) for v in game.spec.variables)
    sym = game.symbols
    assert sym is not None
    assert all(_is_type(t) for t in sym.props.values())
    assert all(_is_type(t) for args in sym.proc_args.values() for t in args)
    assert all(_is_type(t) and all(map(_is_type, args)) for (_, args), t in sym.func_cache.items())
    assert all(_is_type(t) for t in sym.results.values())


def test_types_are_values() -> None:
    assert T.ListOf(T.CARD) == T.list_of(T.Prim("card")) and T.ListOf(T.CARD) != T.ListOf(T.PLAYER)
    assert len({T.ListOf(T.CARD), T.list_of(T.CARD), T.MapOf(T.STR, T.INT), T.MapOf(T.STR, T.INT)}) == 2
    for t in (T.INT, T.ListOf(T.ListOf(T.CARD)), T.MapOf(T.STR, T.NUM), T.PerPlayer(T.INT), T.Fn(T.CARD, T.INT)):
        assert pickle.loads(pickle.dumps(t)) == t
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(t, dataclasses.fields(t)[0].name, T.ANY)
    assert T.join(T.INT, T.NUM) == T.NUM and T.join(T.SUIT, T.RANK) == T.STR
    assert T.join(T.ListOf(T.INT), T.ListOf(T.PLAYER)) == T.ListOf(T.INT)
    assert T.bounded(T.ListOf(T.ListOf(T.ListOf(T.INT))), 2) == T.ListOf(T.ListOf(T.ANY))
    assert T.of_value({"a": [1, 2.5]}) == T.MapOf(T.STR, T.ListOf(T.NUM))
    assert T.card_lists(VAR_TYPES["card_lists"]) and not T.card_lists(VAR_TYPES["cards"])


@pytest.mark.parametrize("t, words", [
    (T.INT, "int"), (T.NUM, "number"), (T.BOOL, "bool"), (T.STR, "text"), (T.CARD, "card"),
    (T.PLAYER, "player"), (T.SUIT, "suit"), (T.RANK, "rank"), (T.NONE, "none"), (T.ANY, "any value"),
    (T.ListOf(T.CARD), "cards"), (T.ListOf(T.PLAYER), "players"), (T.ListOf(T.SUIT), "suits"),
    (T.ListOf(T.RANK), "ranks"), (T.ListOf(T.ANY), "list"), (T.ListOf(T.ListOf(T.CARD)), "lists of cards"),
    (T.ListOf(T.INT), "list of int"), (T.ListOf(T.ListOf(T.INT)), "list of list of int"),
    (T.MapOf(T.STR, T.NUM), "table of number"),
])
def test_the_words_messages_use(t: T.Type, words: str) -> None:
    assert T.show(t) == words


def test_the_yaml_names_of_variable_types() -> None:
    assert {k: T.show(v) for k, v in VAR_TYPES.items()} == {
        "int": "int", "number": "number", "bool": "bool", "player": "player", "card": "card", "suit": "suit",
        "rank": "rank", "text": "text", "cards": "cards", "players": "players", "numbers": "list of number",
        "card_lists": "lists of cards"}


# The spellings types had when they were strings and tuples.
_OLD_SPELLINGS = {"int", "num", "bool", "str", "card", "player", "suit", "rank", "none", "any", "list", "map",
                  "perplayer", "perteam", "fn"}


def _typeish(node: ast.expr) -> bool:
    """`x.ty`, `ty`, `t`, `v.ty[1]`: an expression that (by the modules' naming) holds a type."""
    while isinstance(node, ast.Subscript):
        node = node.value
    return isinstance(node, ast.Attribute) and node.attr == "ty" or isinstance(node, ast.Name) and node.id in (
        "ty", "t", "vt", "et", "lt", "rt", "target")


def _strings(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return node.value in _OLD_SPELLINGS
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_strings(x) for x in node.elts)
    return False


def test_no_module_compares_a_type_with_a_string() -> None:
    found = []
    for path in sorted((ROOT / "dsl").rglob("*.py")) + sorted((ROOT / "interpreter").rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for n in ast.walk(tree):
            hit: Any = None
            if isinstance(n, ast.Compare):
                sides = [n.left, *n.comparators]
                if any(_typeish(s) for s in sides) and any(_strings(s) for s in sides):
                    hit = n
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "isinstance" \
                    and len(n.args) == 2 and _typeish(n.args[0]) and isinstance(n.args[1], ast.Name) \
                    and n.args[1].id == "tuple":
                hit = n
            elif isinstance(n, ast.Tuple) and n.elts and isinstance(n.elts[0], ast.Constant) \
                    and n.elts[0].value in ("list", "map", "perplayer", "perteam", "fn") and len(n.elts) in (2, 3) \
                    and not all(isinstance(x, ast.Constant) for x in n.elts):
                hit = n  # ("list", T.CARD): a type built as a tuple
            if hit is not None:
                found.append(f"{path.relative_to(ROOT)}:{hit.lineno}: {ast.unparse(hit)}")
    assert not found, "\n".join(found)
