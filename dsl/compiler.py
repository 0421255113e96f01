"""Compile a checked `GameSpec` into Python source, then into one code object: the names the rest of
cardsmith imports for it.

The compiler itself is the package dsl/codegen/ (writer, expressions, statements, actions, module: one
module per stage, see its __init__). This facade stays so that `from .compiler import ...` in the engine,
the pipeline, the tools and the tests keeps working: the compiler's public names have lived here, and an
import path is part of what other code relies on.
"""

from __future__ import annotations

from .analysis import (  # noqa: F401  (re-exported: the analyses used to live here)
    STATEFUL_BUILTINS,
    STATEFUL_LIBRARY,
    _cheap,
    _conjuncts,
    _locals_used,
    _static,
    called_outside,
    order_free_params,
    pure_functions,
)
from .codegen.actions import ActionWriter, ParamInfo
from .codegen.expressions import WALKS, ExpressionWriter, _costly, _numeric_kind, _takes_numbers
from .codegen.module import MEMO_ITEM_MAX, CompiledGame, Compiler, compile_probe, compile_probe_typed, compile_spec
from .codegen.statements import END_DEAL, LIST_KINDS, StatementWriter, _kind
from .codegen.writer import END, POP, PUSH, _Writer

__all__ = [
    "END", "END_DEAL", "LIST_KINDS", "MEMO_ITEM_MAX", "POP", "PUSH", "STATEFUL_BUILTINS", "STATEFUL_LIBRARY",
    "WALKS", "ActionWriter", "CompiledGame", "Compiler", "ExpressionWriter", "ParamInfo", "StatementWriter",
    "_Writer", "_cheap", "_conjuncts", "_costly", "_kind", "_locals_used", "_numeric_kind",
    "_static", "_takes_numbers", "called_outside", "compile_probe", "compile_probe_typed", "compile_spec",
    "order_free_params", "pure_functions",
]
