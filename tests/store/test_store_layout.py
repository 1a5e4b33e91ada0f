"""How the store is put together: one package per back-end over the shared rules, neither
back-end reaching into the other, each writer running the typed writes it is meant to, and
released migrations that never change (their tables are written once, in `store/sql.py`)."""

from __future__ import annotations

import ast
import hashlib
from pathlib import Path

import msgspec

from tertulia.store import writes
from tertulia.store.postgres.batch import HANDLERS as POSTGRES_HANDLERS
from tertulia.store.postgres.schema import MIGRATIONS as POSTGRES_MIGRATIONS
from tertulia.store.sqlite.ops import HANDLERS as SQLITE_HANDLERS
from tertulia.store.sqlite.schema import MIGRATIONS as SQLITE_MIGRATIONS

STORE = Path(writes.__file__).parent
BACKENDS = ("sqlite", "postgres")


def _imports(path: Path) -> list[tuple[str, list[str]]]:
    """Each module ``path`` imports from (absolute, as ``tertulia.store...``) and the names."""
    package = ["tertulia", *path.relative_to(STORE.parent).parent.parts]
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found.append((module, [alias.name for alias in node.names]))
        elif isinstance(node, ast.Import):
            found.extend((alias.name, []) for alias in node.names)
    return found


def test_a_back_end_never_imports_the_other_and_the_shared_modules_import_neither() -> None:
    for path in STORE.rglob("*.py"):
        inside = path.relative_to(STORE).parts[0]
        for module, names in _imports(path):
            for backend in BACKENDS:
                other = f"tertulia.store.{backend}"
                reaches = module == other or module.startswith(other + ".")
                reaches |= module == "tertulia.store" and backend in names
                if inside != backend:
                    assert not reaches, f"{path.relative_to(STORE)} imports {module} {names}"


def test_no_store_module_imports_another_modules_private_names() -> None:
    for path in STORE.rglob("*.py"):
        for module, names in _imports(path):
            private = [n for n in names if n.startswith("_") and n != "__future__"]
            assert not private, f"{path.relative_to(STORE)} imports {private} from {module}"


def test_each_writer_runs_every_write_but_the_one_of_the_other_back_end() -> None:
    every = {
        cls
        for cls in vars(writes).values()
        if isinstance(cls, type) and issubclass(cls, writes.Write)
    } - {writes.Write, writes.RoomWrite}
    assert set(SQLITE_HANDLERS) == every - {writes.Claim}
    assert set(POSTGRES_HANDLERS) == every - {writes.RemoveExpired}


def test_a_write_crosses_the_wire_as_its_name_and_its_fields_in_order() -> None:
    write = writes.CloseRoom("ABCD", "idle", 12.5, keep_log=True)
    assert msgspec.msgpack.decode(msgspec.msgpack.encode(write)) == [
        "CloseRoom",
        "ABCD",
        "idle",
        12.5,
        True,
    ]


def test_released_migrations_never_change() -> None:
    """A database made before a change must be the same as one made after: a released
    migration (its text, rendered from `store/sql.py` for each dialect) stays as it is, and a
    change is a new migration. Append new hashes here; never edit one."""
    released = {
        "sqlite": ["2a8404f57c181fd3", "663a815e6e1c0ba3", "448804f665ff9acd"],
        "postgres": ["7bec386233159e61", "46e8ec5dc58026d2"],
    }
    for name, migrations in (("sqlite", SQLITE_MIGRATIONS), ("postgres", POSTGRES_MIGRATIONS)):
        hashes = [hashlib.sha256(script.encode()).hexdigest()[:16] for script in migrations]
        assert hashes[: len(released[name])] == released[name], name
