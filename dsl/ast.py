"""Typed AST for expressions and statements.

Nodes keep the span of their first token in the rule file. The checker fills
`ty` on expressions; the compiler reads only checked nodes.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast, overload

from . import types as T
from .diagnostics import Span

if TYPE_CHECKING:
    from .refs import Builtin, CallRef, NameRef, Variable
    from .spec import ZoneSpec

N = TypeVar("N", bound="Node")
# Where a node, or a name it declares, is written: its place, not what it says (two trees alike but for
# these say the same, interpreter/rulebook/source.py).
PLACE_FIELDS = ("span", "names", "name_span", "var_span")
# Fields that are not children: a node's places, its checked type, what a name refers to (a function
# and its body, which belong to the function, not to this node).
_NOT_CHILDREN = (*PLACE_FIELDS, "ty", "ref")
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}


@dataclass(eq=False)
class Node:
    span: Span

    def iter_child_nodes(self) -> Iterator[Node]:
        """The nodes directly below this one, in field order: a field's node, a list's nodes, and the
        nodes in a list's tuples (a `let`'s bindings, a comparison's operands)."""
        for name in _child_fields(self):
            v = getattr(self, name)
            if isinstance(v, Node):
                yield v
            elif isinstance(v, list):
                for x in v:
                    if isinstance(x, Node):
                        yield x
                    elif isinstance(x, tuple):
                        yield from (y for y in x if isinstance(y, Node))

    def map_children(self: N, fn: Callable[[Node], Node]) -> N:
        """A shallow copy of this node with each child replaced by fn(child); its type and references
        are kept (a rewriting pass that changes neither, such as inlining)."""
        new = copy.copy(self)
        for name in _child_fields(self):
            v = getattr(self, name)
            if isinstance(v, Node):
                setattr(new, name, fn(v))
            elif isinstance(v, list):
                setattr(new, name, [fn(x) if isinstance(x, Node) else
                                    tuple(fn(y) if isinstance(y, Node) else y for y in x) if isinstance(x, tuple)
                                    else x for x in v])
        return new


def _child_fields(n: Node) -> tuple[str, ...]:
    names = _CHILD_FIELDS.get(type(n))
    if names is None:
        names = _CHILD_FIELDS[type(n)] = tuple(f.name for f in dataclasses.fields(n) if f.name not in _NOT_CHILDREN)
    return names


class NodeVisitor:
    """A pass over the AST, one method per kind of node (Jinja's `visitor.NodeVisitor`): `visit(node)` calls
    `visit_<ClassName>(node)`, or `generic_visit(node)` for a class the pass has no method for. The method
    is looked up once per pair of visitor class and node class."""

    _methods: dict[type, Callable[..., Any]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._methods = {}

    def visit(self, node: Node) -> Any:
        return (self._methods.get(type(node)) or self.method(type(node)))(self, node)

    def method(self, kind: type) -> Callable[..., Any]:
        """The method for a kind of node. A pass that recurses deeply calls it itself, as
        `(self._methods.get(type(n)) or self.method(type(n)))(self, n)`, to spend no frame on `visit`."""
        found: Callable[..., Any] = getattr(type(self), f"visit_{kind.__name__}", type(self).generic_visit)
        self._methods[kind] = found
        return found

    def generic_visit(self, node: Node) -> Any:
        """Visits the children; a pass that must know every kind of node raises here instead."""
        for child in node.iter_child_nodes():
            self.visit(child)


class StrictVisitor(NodeVisitor):
    """A pass that must know every kind of node in `covers`: the rulebook's text and words, and the analyses
    whose answer for a node they know nothing of would be wrong (a node that binds a name, or runs a part only
    sometimes). Each kind has its `visit_` method (several kinds may share one: `visit_Not = visit_Neg = ...`);
    any other raises, so a new kind of node fails the tests of every such pass until it is told of it
    (tests/test_statement_places.py lists the passes and what each lacks)."""

    covers: ClassVar[tuple[type[Node], ...]] = ()

    @classmethod
    def knows(cls, kind: type[Node]) -> bool:
        return hasattr(cls, f"visit_{kind.__name__}")

    def generic_visit(self, node: Node, *args: Any) -> Any:
        """(A pass may give its methods more arguments than the node, calling `method` itself.)"""
        raise NotImplementedError(f"{type(self).__name__} does not know {type(node).__name__} nodes: give it a "
                                  f"visit_{type(node).__name__} method")


def kinds(base: type[N]) -> list[type[N]]:
    """Every kind of node derived from `base` that the parser, checker or optimizer makes (`Expr`: the
    expressions; `Stmt`: the statements), in the order they are defined."""
    out: list[type[N]] = []
    stack: list[type[N]] = [base]
    while stack:
        cls = stack.pop()
        if cls not in (Node, Expr, Stmt):
            out.append(cls)
        stack.extend(reversed(cls.__subclasses__()))
    return out


def statements(stmts: list[Stmt]) -> Iterator[Stmt]:
    """Every statement of a block, and those inside its `if` and `for` steps (or any step that holds steps),
    in file order (iteratively: blocks may nest deeply)."""
    stack = list(reversed(stmts))
    while stack:
        s = stack.pop()
        yield s
        stack.extend(reversed([c for c in s.iter_child_nodes() if isinstance(c, Stmt)]))


@overload
def walk(node: Expr) -> Iterator[Expr]: ...
@overload
def walk(node: Node) -> Iterator[Node]: ...
def walk(node: Node) -> Iterator[Node]:
    """The node and every node below it, each once (iteratively: rule code may nest deeply)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(n.iter_child_nodes())


@dataclass(eq=False)
class Expr(Node):
    ty: T.Type | None = field(default=None, init=False)  # set by the checker

    def iter_child_nodes(self) -> Iterator[Expr]:
        return cast(Iterator[Expr], super().iter_child_nodes())  # an expression holds expressions only


@dataclass(eq=False)
class Const(Expr):
    value: Any  # int, float, str, bool or None


@dataclass(eq=False)
class Name(Expr):
    id: str
    # Filled by the checker: what the name refers to (dsl/refs.py).
    ref: NameRef | None = field(default=None, init=False)


@dataclass(eq=False)
class Attr(Expr):
    obj: Expr
    name: str


@dataclass(eq=False)
class Index(Expr):
    obj: Expr
    index: Expr


@dataclass(eq=False)
class Call(Expr):
    func: str
    args: list[Expr]
    ref: CallRef | None = field(default=None, init=False)


@dataclass(eq=False)
class Lambda(Expr):
    param: str
    body: Expr


@dataclass(eq=False)
class Let(Expr):
    bindings: list[tuple[str, Expr]]
    body: Expr
    names: list[Span] = field(default_factory=list)  # where each binding's name is written


@dataclass(eq=False)
class IfExpr(Expr):
    cond: Expr
    then: Expr
    other: Expr


@dataclass(eq=False)
class BinOp(Expr):
    op: str  # + - * / // %
    left: Expr
    right: Expr


@dataclass(eq=False)
class Compare(Expr):
    first: Expr
    rest: list[tuple[str, Expr]]  # ops: == != < > <= >= in notin


@dataclass(eq=False)
class BoolOp(Expr):
    op: str  # and / or
    values: list[Expr]


@dataclass(eq=False)
class Not(Expr):
    value: Expr


@dataclass(eq=False)
class Neg(Expr):
    value: Expr


@dataclass(eq=False)
class ListLit(Expr):
    items: list[Expr]


@dataclass(eq=False)
class Comp(Expr):
    """A list comprehension, or a generator passed as a call's only argument."""

    elem: Expr
    var: str
    iter: Expr
    cond: Expr | None
    var_span: Span | None = None  # where the name after `for` is written


@dataclass(eq=False)
class Inline(Expr):
    """The body of a `define:` function put in place of a call (dsl/optimize.py); made by the optimizer
    after checking, never by the parser. `span` is the body's, so errors in it stay located there."""

    func: str
    body: Expr


# ------------------------------------------------------------------ statements


@dataclass(eq=False)
class Stmt(Node):
    """A step. What the rulebook (interpreter/rulebook/) needs to write one back and to say it in words is
    given here, for a statement it has no method of its own for: `SYNTAX`, the statement as a rule file
    writes it, and `WORDS`, what it does in the words of docs/language.md. In both, `{field}` is the field
    written as code (an expression, a zone, a name); in `WORDS`, `{field:player}` is a player in words (the
    dealer, P2) and `{field:phase}` a link to the phase's section. A sentence that begins with a field
    begins with a capital.

    What the engine needs: `HELPERS`, the engine helpers the statement's code calls (the functions of
    interpreter/engine/runtime.py by these names; dsl/abi.py exports them), and `CHANCE`, whether it meets
    chance wherever the state stands (a step that may run it keeps a copy of the state to go back to)."""

    SYNTAX: ClassVar[str] = ""
    WORDS: ClassVar[str] = ""
    HELPERS: ClassVar[tuple[str, ...]] = ()
    CHANCE: ClassVar[bool] = False


@dataclass(eq=False)
class ZoneRef(Node):
    name: str
    index: Expr | None
    ref: ZoneSpec | None = field(default=None, init=False)


@dataclass(eq=False)
class Assign(Stmt):
    HELPERS = ("_set_team", "_want_player", "_keep", "_keep_list", "_extend_list", "_without")

    name: str
    index: Expr | None
    op: str  # = += -=
    value: Expr
    ref: Builtin | Variable | None = field(default=None, init=False)


@dataclass(eq=False)
class LetStmt(Stmt):
    SYNTAX = "let {name} = {value}"
    WORDS = "Let {name} be {value}."

    name: str
    value: Expr
    name_span: Span | None = None


@dataclass(eq=False)
class Pick(Stmt):
    """Bind a name to an element chosen uniformly at random (a chance event)."""

    SYNTAX = "pick {name} from {options}"
    WORDS = "Choose {name} at random from {options}, each item as likely as any other."
    HELPERS = ("_pick",)
    CHANCE = True

    name: str
    options: Expr
    name_span: Span | None = None


@dataclass(eq=False)
class Move(Stmt):
    HELPERS = ("_move1", "_move", "_cards")

    cards: Expr
    dest: ZoneRef
    bottom: bool


@dataclass(eq=False)
class Deal(Stmt):
    HELPERS = ("_deal", "_deal_each")

    count: Expr
    src: ZoneRef
    dest: ZoneRef


@dataclass(eq=False)
class Shuffle(Stmt):
    SYNTAX = "shuffle {zone}"
    WORDS = "Shuffle {zone}."
    HELPERS = ("_shuffle",)
    CHANCE = True

    zone: ZoneRef


@dataclass(eq=False)
class Goto(Stmt):
    SYNTAX = "goto {phase}"
    WORDS = "Go on to the phase {phase:phase}."

    phase: str


@dataclass(eq=False)
class EndDeal(Stmt):
    SYNTAX = "end deal"
    WORDS = "The deal ends."


@dataclass(eq=False)
class Eliminate(Stmt):
    SYNTAX = "eliminate {player}"
    WORDS = "{player:player} is out of the match."
    HELPERS = ("_eliminate",)

    player: Expr


@dataclass(eq=False)
class SitOut(Stmt):
    """The player takes no part in the rest of the deal (not eliminated: back at the next deal)."""

    SYNTAX = "sit out {player}"
    WORDS = "{player:player} sits out the rest of this deal."
    HELPERS = ("_sit_out",)

    player: Expr


@dataclass(eq=False)
class Do(Stmt):
    proc: str
    args: list[Expr]


@dataclass(eq=False)
class Log(Stmt):
    """A public announcement; each `{}` in the text is filled by the next value."""

    HELPERS = ("_log",)

    text: str
    values: list[Expr]


@dataclass(eq=False)
class If(Stmt):
    cond: Expr
    then: list[Stmt]
    other: list[Stmt]


@dataclass(eq=False)
class For(Stmt):
    var: str
    iter: Expr
    body: list[Stmt]
    var_span: Span | None = None
