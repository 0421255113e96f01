"""Playing at a table. `view.py` (what a seat sees) and `record.py` (a match record) are shared by both tables
and the commands; `play.py` and `terminal.py` are the terminal table. docs/architecture.md's layer table keeps
them apart: the web table imports the first two, never the terminal's."""
