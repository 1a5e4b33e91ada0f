"""The picture of the packages in docs/architecture.md ("Layers") is the code's: each row
imports only from the rows below it, and no module imports itself back through others — not
even inside one folder, type-only (``if TYPE_CHECKING:``) and deferred (inside a function)
imports included."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "tertulia"


def _modules() -> dict[str, Path]:
    found = {}
    for path in SRC.rglob("*.py"):
        parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """The modules of ours ``name`` imports, wherever the import is written. ``from X import
    y`` counts as importing ``X.y`` when that is a module, else ``X``."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            for alias in node.names:
                if f"{module}.{alias.name}" in MODULES:
                    found.add(f"{module}.{alias.name}")
                elif module in MODULES:
                    found.add(module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in MODULES)
    found.discard(name)
    return found


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _layers() -> list[list[str]]:
    """The rows of the picture, top first: each a list of entries (``rooms/``, ``cli.py``)."""
    text = (ROOT / "docs" / "architecture.md").read_text("utf-8")
    (block,) = re.findall(r"```layers\n(.*?)```", text, re.DOTALL)
    return [line.split() for line in block.splitlines() if line.strip()]


def _entry(module: str) -> str:
    """The picture's entry for a module: its top folder (``rooms/``) or its file."""
    parts = module.split(".")
    if len(parts) == 1:
        return "__init__.py"
    path = MODULES[module]
    return f"{parts[1]}/" if path.parent != SRC else f"{parts[1]}.py"


def test_every_folder_and_top_module_is_in_the_picture_once() -> None:
    entries = [entry for row in _layers() for entry in row]
    assert len(entries) == len(set(entries))
    have = {_entry(m) for m in MODULES} - {"__init__.py"}
    have.discard("web/")  # (the browser's: no Python of ours in it)
    assert have == set(entries), have ^ set(entries)


def test_every_import_goes_down_the_picture() -> None:
    row_of = {entry: i for i, row in enumerate(_layers()) for entry in row}
    wrong = []
    for module, imported in GRAPH.items():
        here = _entry(module)
        if here == "__init__.py":
            continue
        for other in imported:
            there = _entry(other)
            if there == "__init__.py" or there == here:
                continue
            if row_of[there] <= row_of[here]:
                wrong.append(f"{module} imports {other} ({here} → {there})")
    assert not wrong, "\n".join(sorted(wrong))


def test_no_module_imports_itself_back_not_even_inside_a_folder() -> None:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(module: str) -> None:  # Tarjan's strongly connected components
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in GRAPH[module]:
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            component = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.append(other)
                if other == module:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for module in GRAPH:
        if module not in index:
            visit(module)
    assert not cycles, cycles
