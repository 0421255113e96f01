"""Playing at a table: the terminal game (and, later, the web table)."""
