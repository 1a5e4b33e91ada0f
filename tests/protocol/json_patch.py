"""JSON Patch (RFC 6902) applied as an outside client would write it from docs/protocol.md
alone: ``add``, ``remove`` and ``replace`` at JSON Pointer paths (RFC 6901: ``~1`` is ``/``,
``~0`` is ``~``), ``-`` to append to a list, ``""`` for the whole document.

Written here on purpose, not imported from ``tertulia.patches``: the suite checks the
server's patches against the RFC, not against the server's own reading of it. Strict where
the RFC is: a ``replace`` or ``remove`` of something that is not there is an error, and so
is an operation the document says the server never writes.
"""

from __future__ import annotations

import copy
from typing import Any


class PatchError(AssertionError):
    """An operation that cannot apply to the document it was sent for."""


def apply(document: Any, operations: list[dict[str, Any]]) -> Any:
    """The document after ``operations``, in order; ``document`` itself is left as it was."""
    result = copy.deepcopy(document)
    for operation in operations:
        result = _apply_one(result, operation)
    return result


def pointer(path: str) -> list[str]:
    """The reference tokens of a JSON Pointer (RFC 6901), unescaped."""
    if path == "":
        return []
    if not path.startswith("/"):
        raise PatchError(f"a JSON Pointer starts with '/': {path!r}")
    return [token.replace("~1", "/").replace("~0", "~") for token in path[1:].split("/")]


def _apply_one(document: Any, operation: dict[str, Any]) -> Any:
    op, path = operation.get("op"), operation.get("path")
    if op not in ("add", "remove", "replace"):
        raise PatchError(f"the server writes add, remove and replace only, not {op!r}")
    if not isinstance(path, str):
        raise PatchError(f"an operation without a string path: {operation!r}")
    has_value = "value" in operation
    if (op == "remove") == has_value:
        raise PatchError(f"{op} {'takes no' if op == 'remove' else 'needs a'} value: {operation!r}")
    tokens = pointer(path)
    if not tokens:  # the whole document
        if op == "remove":
            raise PatchError("remove of the whole document")
        return copy.deepcopy(operation["value"])
    parent = document
    for token in tokens[:-1]:
        parent = _child(parent, token, path)
    last = tokens[-1]
    value = copy.deepcopy(operation.get("value"))
    if isinstance(parent, dict):
        if op != "add" and last not in parent:
            raise PatchError(f"{op} of a key that is not there: {path!r}")
        if op == "remove":
            del parent[last]
        else:
            parent[last] = value  # an existing key keeps its place, a new one goes last
    elif isinstance(parent, list):
        if op == "add" and last == "-":
            parent.append(value)
            return document
        index = _index(last, path)
        if op == "add":
            if index > len(parent):
                raise PatchError(f"add past the end of a list: {path!r}")
            parent.insert(index, value)
        elif index >= len(parent):
            raise PatchError(f"{op} past the end of a list: {path!r}")
        elif op == "remove":
            del parent[index]
        else:
            parent[index] = value
    else:
        raise PatchError(f"{path!r} goes into a {type(parent).__name__}")
    return document


def _child(node: Any, token: str, path: str) -> Any:
    if isinstance(node, dict):
        if token not in node:
            raise PatchError(f"no {token!r} on the way to {path!r}")
        return node[token]
    if isinstance(node, list):
        index = _index(token, path)
        if index >= len(node):
            raise PatchError(f"index {index} past the end on the way to {path!r}")
        return node[index]
    raise PatchError(f"{path!r} goes into a {type(node).__name__}")


def _index(token: str, path: str) -> int:
    # RFC 6901: an array index is 0 or digits without a leading zero.
    if not token.isdigit() or (token != "0" and token.startswith("0")):
        raise PatchError(f"{token!r} is not a list index in {path!r}")
    return int(token)
