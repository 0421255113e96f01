"""The rooms on disk: one SQLite row per room, written as each move is accepted (docs/design/web-store.md).

A row holds what brings the room back exactly: its id, game (key and the rules' SHA-256), options, seats
(names, bots' specs, people's tokens), the match record (engine/record: the seed and every action and chance
outcome), the bots' notes, the rule error that stopped it, its version, and when it last changed. A move is
accepted only once its row is committed (`Room.persist`), so a server killed at any moment comes back, on
the same file, with every room, link and view as it was. The file is the server's alone: it holds the seeds
and the tokens (made readable by its owner only), and one server at a time may open it (an exclusive lock,
which the OS drops with a killed process).
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

SCHEMA = 1


class StoreError(Exception):
    """A store that cannot be opened or written; the message says why, in one line."""


def default_path() -> Path:
    """Where `cardsmith serve` keeps its rooms unless told: $XDG_STATE_HOME/cardsmith/table.sqlite3."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "cardsmith" / "table.sqlite3"


class Store:
    """An open store. Every method may be called from any thread (moves and bots run in worker threads)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            os.close(os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600))  # seeds and tokens: the owner's only
            self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=0.5)
            self.db.execute("PRAGMA locking_mode=EXCLUSIVE")
            self.db.execute("PRAGMA journal_mode=WAL")
            # WAL with NORMAL: a committed move survives the server's crash or kill -9 (it is in the file's
            # log when the commit returns); a power cut may lose the last ones. FULL would fsync every move,
            # 2-8 ms against 0.2-0.8 ms (docs/design/web-store.md).
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute("BEGIN EXCLUSIVE")  # takes the lock now: a second server is refused at its start
            self.db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
            self.db.execute("CREATE TABLE IF NOT EXISTS rooms (id TEXT PRIMARY KEY, room TEXT NOT NULL, "
                            "record TEXT NOT NULL, version INTEGER NOT NULL, updated REAL NOT NULL)")
            got = self.db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            if got is None:
                self.db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA),))
            elif got[0] != str(SCHEMA):
                raise StoreError(f"the store {path} is of schema {got[0]}; this cardsmith reads schema {SCHEMA}")
            self.db.execute("COMMIT")
        except sqlite3.OperationalError as e:
            if "locked" in str(e):
                raise StoreError(f"the store {path} is in use by another table server") from None
            raise StoreError(f"cannot open the store {path}: {e}") from None
        except sqlite3.DatabaseError as e:
            raise StoreError(f"the store {path} is not a cardsmith table store: {e}") from None
        except OSError as e:
            raise StoreError(f"cannot open the store {path}: {e.strerror or e}") from None

    def put(self, room_id: str, room: dict[str, Any], record: dict[str, Any], version: int) -> None:
        """Write one room's row, committed when this returns (raises StoreError, and nothing is written)."""
        row = (room_id, json.dumps(room), json.dumps(record), version, time.time())
        with self.lock:
            try:
                with self.db:
                    self.db.execute("BEGIN IMMEDIATE")
                    self.db.execute("INSERT OR REPLACE INTO rooms VALUES (?, ?, ?, ?, ?)", row)
            except sqlite3.Error as e:
                raise StoreError(f"the room could not be saved: {e}") from None

    def drop(self, room_id: str) -> None:
        """Remove a closed room's row. A row that cannot be removed stays: the room comes back at the next
        start and is closed again then."""
        with self.lock:
            try:
                with self.db:
                    self.db.execute("BEGIN IMMEDIATE")
                    self.db.execute("DELETE FROM rooms WHERE id = ?", (room_id,))
            except sqlite3.Error:
                pass

    def rows(self) -> list[tuple[str, dict[str, Any], dict[str, Any], int, float]]:
        """Every room's (id, room, record, version, when it last changed, a time.time())."""
        with self.lock:
            got = self.db.execute("SELECT id, room, record, version, updated FROM rooms ORDER BY rowid").fetchall()
        return [(i, json.loads(r), json.loads(rec), v, u) for i, r, rec, v, u in got]

    def close(self) -> None:
        with self.lock:
            self.db.close()
