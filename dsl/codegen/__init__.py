"""Code generation: Python source from the checked AST, one module per stage (like Jinja2's compiler).

writer.py numbers lines and maps them to rule-file spans; expressions.py writes expressions;
statements.py steps and function bodies; actions.py the legal-action and run functions; module.py puts
them together into `Compiler` and the `CompiledGame` the engine runs. Each stage imports only those
before it. dsl/compiler.py re-exports the names the rest of cardsmith imports.
"""
