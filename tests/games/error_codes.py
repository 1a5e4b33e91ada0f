"""The error codes a game's source can raise, read from the source itself (no import).

A code is found where the games write them:

- the first argument of ``RuleError(...)``, written as a string: ``RuleError("title.empty", …)``;
- a module-level UPPER_CASE constant whose value is shaped like a code (``word.word``) and
  that is passed first to some call (``RuleError(CELL_TAKEN, …)``, or a helper such as
  Pitacor's ``_problem(COLOR_NAME, …)``) other than ``Event(…)``, whose first argument is an
  event's kind, not a code.

Codes that reach ``RuleError`` some other way (built at run time) are not found; do not.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "src" / "tertulia" / "games"
CODE = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$")
NOT_CODES = frozenset({"Event"})  # calls whose first argument is never an error code


def raised_codes(*sources: Path, every_constant: bool = False) -> set[str]:
    """Every code the Python files under ``sources`` (folders or files) can raise;
    ``every_constant``: with every code-shaped constant, used or not (``base.py`` defines
    codes for the games to raise)."""
    literal: set[str] = set()
    constants: dict[str, str] = {}
    passed_first: set[str] = set()
    for source in sources:
        files = sorted(source.rglob("*.py")) if source.is_dir() else [source]
        for path in files:
            tree = ast.parse(path.read_text("utf-8"), filename=str(path))
            constants.update(_code_constants(tree))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call) or not node.args:
                    continue
                called, first = _called(node.func), node.args[0]
                if called == "RuleError" and _is_code_literal(first):
                    literal.add(first.value)
                elif called not in NOT_CODES and isinstance(first, ast.Name):
                    passed_first.add(first.id)
    used = {code for name, code in constants.items() if every_constant or name in passed_first}
    return literal | used


def platform_codes() -> set[str]:
    """The platform's codes: the table of docs/protocol.md, and what ``games/base.py`` raises
    for every game (``action.not_your_turn``, ``seat.match_full``, …), read from the modules
    it gathers (``games/_errors.py``, ``_seating.py``, …): every plain module of ``games/``."""
    protocol = (ROOT / "docs" / "protocol.md").read_text("utf-8")
    table = protocol.split("## Error codes of the platform", 1)[1]
    documented = set(re.findall(r"`([a-z_]+\.[a-z_]+)`", table))
    return documented | raised_codes(*base_modules(), every_constant=True)


def base_modules() -> list[Path]:
    """``games/base.py`` and the modules of shared tools beside it (not ``__init__.py``, which
    finds the games)."""
    return sorted(path for path in GAMES.glob("*.py") if path.name != "__init__.py")


def _code_constants(tree: ast.Module) -> dict[str, str]:
    found = {}
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id.isupper()
            and _is_code_literal(node.value)
        ):
            found[node.targets[0].id] = node.value.value
    return found


def _is_code_literal(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and CODE.match(node.value) is not None
    )


def _called(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None
