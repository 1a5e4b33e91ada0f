"""``tertulia backup PATH``: a consistent copy of a live database, safe while the server runs.

Copying the file with ``cp`` is not: in WAL mode the newest commits live in the ``-wal`` file
until a checkpoint moves them, and a copy taken between the two is torn or behind. SQLite's
online backup API reads every page inside one read transaction (a snapshot of one moment, and
in WAL mode a reader never blocks the writer), so the copy holds exactly what was committed
when it began. It is written beside PATH, checked (``PRAGMA integrity_check``), turned into one
self-contained file (rollback journal, no ``-wal``), synced to disk and only then renamed to
PATH, so PATH is either a whole backup or absent. The identity key beside the database
(``Config.key_path``) is copied next to it: a database restored without its key gives every
player a new id, and nobody finds their seat again.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
from pathlib import Path


class BackupError(Exception):
    """The database could not be read or the copy not written; nothing was left at PATH."""


def backup(db: Path, target: Path, *, key: Path | None = None) -> list[Path]:
    """Copy ``db`` (and ``key``, if it exists) to ``target`` (and ``target``'s key name);
    return what was written. Refuses to overwrite anything."""
    db, target = Path(db), Path(target)
    if not db.is_file():
        raise BackupError(f"there is no database at {db}")
    target_key = target.with_name(target.name + ".key")
    for path in (target, target_key):
        if path.exists():
            raise BackupError(f"{path} exists already; choose a new name")
    if not target.parent.is_dir():
        raise BackupError(f"the folder {target.parent} does not exist")
    partial = target.with_name(target.name + ".partial")
    try:
        _copy_database(db, partial)
        os.replace(partial, target)
        written = [target]
        if key is not None and key.is_file():
            _copy_key(key, target_key)
            written.append(target_key)
        _sync_folder(target.parent)
    except (OSError, sqlite3.Error, BackupError) as error:
        with contextlib.suppress(OSError):
            partial.unlink()
        if isinstance(error, BackupError):
            raise
        raise BackupError(f"could not back up {db} to {target}: {error}") from error
    return written


def _copy_database(db: Path, copy: Path) -> None:
    # Not ``mode=ro``: a read-only connection cannot open a WAL database whose ``-shm`` is
    # gone (the server stopped); this one writes nothing.
    source = sqlite3.connect(db, timeout=30)
    try:
        copy.unlink(missing_ok=True)
        destination = sqlite3.connect(copy, isolation_level=None)
        try:
            # pages=-1: every page in one step, so in one read transaction (with steps, a
            # write by the server between two of them would restart the copy).
            source.backup(destination, pages=-1)
            # One file that needs nothing beside it: the copy's header still says WAL.
            destination.execute("PRAGMA journal_mode = DELETE")
            problems = destination.execute("PRAGMA integrity_check").fetchall()
            if problems != [("ok",)]:
                raise BackupError(f"the copy does not check out: {problems[:5]}")
        finally:
            destination.close()
    finally:
        source.close()
    with open(copy, "rb+") as written:
        os.fsync(written.fileno())


def _copy_key(key: Path, copy: Path) -> None:
    # Secret: readable by its owner only, from the moment it exists.
    descriptor = os.open(copy, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with open(descriptor, "wb") as out, open(key, "rb") as source:
        shutil.copyfileobj(source, out)
        out.flush()
        os.fsync(out.fileno())


def _sync_folder(folder: Path) -> None:
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
