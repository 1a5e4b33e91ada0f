"""JSON Patch (RFC 6902), the subset pushes need: ``diff`` on the server, ``apply`` in the
Python client (``web/js/patch.js`` is the browser's).

Why JSON Patch and not JSON Merge Patch (RFC 7386): a merge patch cannot set a value to null
(null means "remove the key"), and our views say null often (no deadline, no winner yet); and
it replaces a changed list whole, where our lists mostly grow at the end (markers, clues,
rounds), which ``add`` at ``/-`` says in a few bytes. Why not a stream of game events: the
client would have to know each game's rules to apply them, and the browser holds no rule.

``diff`` makes ``replace``, ``add`` and ``remove`` operations only (no ``move``, ``copy`` or
``test``); paths are JSON Pointers (RFC 6901). Lists are compared index by index when their
length stays, extended with ``add`` at ``/-`` when the old list is the start of the new one,
and replaced whole otherwise. The result is exact, key order included (a client that walks
an object shows its entries in that order): an object whose keys would come out in another
order is replaced whole.

``diff_encoded`` is ``diff`` for documents the server holds encoded (a connection's last
picture, the new one): it reads them only as deep as they differ, comparing bytes, and puts
the new values in the patch as the bytes they already are.
"""

from __future__ import annotations

import math
from typing import Any

import msgspec

Patch = list[dict[str, Any]]
_encode = msgspec.json.encode
_members = msgspec.json.Decoder(dict[str, msgspec.Raw]).decode
_items = msgspec.json.Decoder(list[msgspec.Raw]).decode
_OBJECT, _ARRAY = ord("{"), ord("[")


def diff(old: Any, new: Any) -> Patch:
    """The operations that turn ``old`` into ``new`` (both JSON-like: dict, list, str, int,
    float, bool, None); ``[]`` when they are the same."""
    ops: Patch = []
    _diff(old, new, "", ops)
    return ops


def diff_encoded(old: bytes, new: bytes) -> bytes:
    """``diff`` of two documents encoded by msgspec, encoded: the same operations, in the same
    bytes. Without decoding either document whole and walking it in Python: an object or a
    list is split into its members' bytes, and only the members whose bytes differ are
    looked into (an action changes a field or two of a view of a few kilobytes). msgspec
    writes a value always the same way, so equal bytes are exactly the same JSON."""
    if old == new:
        return b"[]"
    ops: Patch = []
    _diff_encoded(old, new, "", ops)
    return _encode(ops)


def _diff_encoded(old: Any, new: Any, path: str, ops: Patch) -> None:
    """``_diff`` on encoded values (bytes or ``msgspec.Raw``) that differ; values in ``ops``
    stay Raw. Members are compared before they are looked into: most are equal, and a call
    and a path apiece for those cost more than the comparison."""
    kind = memoryview(new)[0] if old and new else None
    if kind == _OBJECT and memoryview(old)[0] == _OBJECT:
        was, now = _members(old), _members(new)
        keys = list(now)
        if keys == list(was):  # the same keys in the same order: most often, by far
            for key, before, after in zip(keys, was.values(), now.values(), strict=True):
                if before != after:
                    _diff_encoded(before, after, f"{path}/{_escape(key)}", ops)
            return
        if not _order_kept(was, now):
            ops.append({"op": "replace", "path": path, "value": _raw(new)})
            return
        for key in was:
            if key not in now:
                ops.append({"op": "remove", "path": f"{path}/{_escape(key)}"})
        for key, value in now.items():
            if key not in was:
                ops.append({"op": "add", "path": f"{path}/{_escape(key)}", "value": value})
            elif value != was[key]:
                _diff_encoded(was[key], value, f"{path}/{_escape(key)}", ops)
        return
    if kind == _ARRAY and memoryview(old)[0] == _ARRAY:
        items_was, items_now = _items(old), _items(new)
        if len(items_was) == len(items_now):
            pairs = enumerate(zip(items_was, items_now, strict=True))
            for index, (was_item, now_item) in pairs:
                if was_item != now_item:
                    _diff_encoded(was_item, now_item, f"{path}/{index}", ops)
            return
        count = len(items_was)
        if len(items_now) > count and items_now[:count] == items_was:
            ops.extend({"op": "add", "path": f"{path}/-", "value": v} for v in items_now[count:])
            return
    ops.append({"op": "replace", "path": path, "value": _raw(new)})


def _raw(value: Any) -> msgspec.Raw:
    return value if isinstance(value, msgspec.Raw) else msgspec.Raw(value)


def _same(old: Any, new: Any) -> bool:
    # JSON tells true from 1, 1.0 from 1 and -0.0 from 0.0; Python's == does not.
    if type(old) is not type(new) or old != new:
        return False
    return type(old) is not float or math.copysign(1.0, old) == math.copysign(1.0, new)


def _diff(old: Any, new: Any, path: str, ops: Patch) -> None:
    if old is new:  # a part the server kept as it was (most of a view, most of the time)
        return
    if type(old) is dict and type(new) is dict:
        if old == new and _exactly(old, new):
            return
        if not _order_kept(old, new):  # key order matters to a client walking the object
            ops.append({"op": "replace", "path": path, "value": new})
            return
        for key in old:
            if key not in new:
                ops.append({"op": "remove", "path": f"{path}/{_escape(key)}"})
        for key, value in new.items():
            where = f"{path}/{_escape(key)}"
            if key not in old:
                ops.append({"op": "add", "path": where, "value": value})
            else:
                _diff(old[key], value, where, ops)
        return
    if type(old) is list and type(new) is list:
        if old == new and _exactly(old, new):
            return
        if len(old) == len(new):
            for index, (was, now) in enumerate(zip(old, new, strict=True)):
                _diff(was, now, f"{path}/{index}", ops)
            return
        start = new[: len(old)]
        if len(new) > len(old) and start == old and _exactly(old, start):
            ops.extend({"op": "add", "path": f"{path}/-", "value": v} for v in new[len(old) :])
            return
        ops.append({"op": "replace", "path": path, "value": new})
        return
    if not _same(old, new):
        ops.append({"op": "replace", "path": path, "value": new})


def _order_kept(old: dict, new: dict) -> bool:
    """Whether patching ``old`` gives ``new``'s key order: the keys both have in the same
    order, and the new ones after them (an ``add`` puts a key last)."""
    kept = [key for key in new if key in old]
    if kept != [key for key in old if key in new]:
        return False
    return all(key in old for key in list(new)[: len(kept)])


def _exactly(old: Any, new: Any) -> bool:
    """Whether two values that compare equal are the same JSON: ``==`` holds for ``{"a": 1}``
    and ``{"a": True}``, and for objects whose keys come in another order. Their encodings
    tell, at C speed (walking them in Python cost more than the rest of a diff)."""
    return _encode(old) == _encode(new)


def apply(document: Any, ops: Patch) -> Any:
    """``document`` with ``ops`` applied; the parts the operations touch are copied, the rest
    is shared with ``document`` (which is left as it was). Raises ``ValueError`` for an
    operation that does not fit the document."""
    for op in ops:
        document = _apply_one(document, op["op"], _pointer(op["path"]), op.get("value"))
    return document


def _apply_one(node: Any, op: str, keys: list[str], value: Any) -> Any:
    if not keys:
        if op == "remove":
            raise ValueError("cannot remove the whole document")
        return value
    key, rest = keys[0], keys[1:]
    if type(node) is dict:
        copy = dict(node)
        if rest:
            if key not in copy:
                raise ValueError(f"no member {key!r}")
            copy[key] = _apply_one(copy[key], op, rest, value)
        elif op == "remove":
            if key not in copy:
                raise ValueError(f"no member {key!r} to remove")
            del copy[key]
        else:
            copy[key] = value
        return copy
    if type(node) is list:
        items = list(node)
        if key == "-" and not rest and op == "add":
            items.append(value)
            return items
        index = _index(key, len(items) + (1 if op == "add" and not rest else 0))
        if rest:
            items[index] = _apply_one(items[index], op, rest, value)
        elif op == "remove":
            del items[index]
        elif op == "add":
            items.insert(index, value)
        else:
            items[index] = value
        return items
    raise ValueError(f"cannot go into {type(node).__name__} at {key!r}")


def _index(key: str, size: int) -> int:
    if not key.isdigit() or (len(key) > 1 and key[0] == "0") or int(key) >= size:
        raise ValueError(f"no index {key!r}")
    return int(key)


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1") if ("~" in key or "/" in key) else key


def _pointer(path: str) -> list[str]:
    if path == "":
        return []
    if not path.startswith("/"):
        raise ValueError(f"a JSON Pointer starts with '/': {path!r}")
    return [part.replace("~1", "/").replace("~0", "~") for part in path[1:].split("/")]
