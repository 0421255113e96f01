"""The native backend (issue 33; design: docs/design/native.md): a rule file lowered to a typed IR
(`lower.py`), written as C++ (`emit_cpp.py`) over a runtime of headers (`runtime.h`), compiled into a game
library with a table of C functions (`abi.h`) and loaded by one binding built once (`loader.cc`); `build.py`
builds and caches both, `backend.py` is the switch (`cardsmith.load(..., backend=...)`). The language it covers
is what `lower.py` says; the rest is refused by name (`Unsupported`)."""
