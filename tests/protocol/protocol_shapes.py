"""Whether a frame from the server has the shape docs/protocol.md gives it.

The fields of each message are read from the page's examples (``doc_contract``): a frame
must carry exactly those, no more and no fewer. Their types are the page's words, written
here: ``re`` is the id of the message answered (an integer; null only where the server
could not read one), a push carries no ``re``, a code is a dotted stable string, an English
``message`` is never empty, a ``room`` push's seats each have the page's fields, a ``patch``
holds only ``add``, ``remove`` and ``replace`` operations at JSON Pointer paths.
"""

from __future__ import annotations

import re
from typing import Any

import doc_contract as doc

ANSWERS = ("ack", "error")
PUSHES = ("welcome", "room", "patch", "chat", "rooms", "notice", "reaction")
CODE = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$")
STATUSES = ("lobby", "playing", "ended")


def problems(frame: Any) -> list[str]:
    """What is wrong with ``frame`` (decoded JSON) by the page; empty if nothing."""
    if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
        return [f"not an object with a type: {frame!r:.200}"]
    kind = frame["type"]
    if kind not in doc.server_examples():
        return [f"a message type the page does not document: {kind!r}"]
    found: list[str] = []
    _keys(found, kind, frame, doc.fields(kind))
    check = _CHECKS[kind]
    check(found, frame)
    return found


def _keys(found: list[str], where: str, value: dict[str, Any], expected: frozenset[str]) -> None:
    keys = set(value)
    if keys != expected:
        missing, extra = sorted(expected - keys), sorted(keys - expected)
        found.append(f"{where}: fields {sorted(keys)}; missing {missing}, not documented {extra}")


def _is(found: list[str], where: str, value: Any, *types: type | None) -> bool:
    allowed = tuple(type(None) if t is None else t for t in types)
    # JSON's true is not a number; an integer is a fine float.
    ok = isinstance(value, allowed) and not (isinstance(value, bool) and bool not in allowed)
    if not ok:
        names = "/".join("null" if t is None else t.__name__ for t in types)
        found.append(f"{where}: expected {names}, got {value!r:.100}")
    return ok


def _welcome(found: list[str], frame: dict[str, Any]) -> None:
    _is(found, "welcome.player", frame.get("player"), str)
    _is(found, "welcome.token", frame.get("token"), str)
    _is(found, "welcome.now", frame.get("now"), float, int)
    _is(found, "welcome.room", frame.get("room"), str, None)
    if frame.get("player") and frame.get("player") == frame.get("token"):
        found.append("welcome: the public id is the secret token")


def _ack(found: list[str], frame: dict[str, Any]) -> None:
    _is(found, "ack.re", frame.get("re"), int)
    _is(found, "ack.data", frame.get("data"), dict, None)


def _error(found: list[str], frame: dict[str, Any]) -> None:
    _is(found, "error.re", frame.get("re"), int, None)
    _coded(found, "error", frame)


def _notice(found: list[str], frame: dict[str, Any]) -> None:
    _coded(found, "notice", frame)


def _reaction(found: list[str], frame: dict[str, Any]) -> None:
    _is(found, "reaction.player", frame.get("player"), str)
    _is(found, "reaction.kind", frame.get("kind"), str)


def _coded(found: list[str], where: str, frame: dict[str, Any]) -> None:
    code, message = frame.get("code"), frame.get("message")
    if _is(found, f"{where}.code", code, str) and not CODE.match(code):
        found.append(f"{where}.code: not a stable dotted code: {code!r}")
    if _is(found, f"{where}.message", message, str) and not message.strip():
        found.append(f"{where}.message: empty")
    _is(found, f"{where}.params", frame.get("params"), dict)


def _chat(found: list[str], frame: dict[str, Any]) -> None:
    line = frame.get("line")
    if _is(found, "chat.line", line, dict):
        _keys(found, "chat.line", line, doc.chat_line_fields())
        for field in ("player", "nickname", "text"):
            _is(found, f"chat.line.{field}", line.get(field), str)
        _is(found, "chat.line.at", line.get("at"), float, int)


def _rooms(found: list[str], frame: dict[str, Any]) -> None:
    room_keys, match_keys, player_keys = doc.room_list_fields()
    if _is(found, "rooms.rooms", frame.get("rooms"), list):
        for line in frame["rooms"]:
            if _is(found, "rooms.rooms[]", line, dict):
                _keys(found, "rooms.rooms[]", line, room_keys)
                if line.get("status") not in STATUSES:
                    found.append(f"rooms.rooms[].status: {line.get('status')!r}")
    if _is(found, "rooms.recent", frame.get("recent"), list):
        for match in frame["recent"]:
            if _is(found, "rooms.recent[]", match, dict):
                _keys(found, "rooms.recent[]", match, match_keys)
                for player in match.get("players") or []:
                    _keys(found, "rooms.recent[].players[]", player, player_keys)


def _room(found: list[str], frame: dict[str, Any]) -> None:
    _is(found, "room.version", frame.get("version"), int)
    room = frame.get("room")
    if _is(found, "room.room", room, dict):
        _lobby(found, room)
    _is(found, "room.view", frame.get("view"), dict, None)
    _events(found, "room", frame.get("events"))
    chat = frame.get("chat")
    if _is(found, "room.chat", chat, list, None) and chat:
        for line in chat:
            _keys(found, "room.chat[]", line, doc.chat_line_fields())
    _is(found, "room.blobs", frame.get("blobs"), dict, None)


def _lobby(found: list[str], room: dict[str, Any]) -> None:
    _keys(found, "room.room", room, doc.room_fields())
    if room.get("status") not in STATUSES:
        found.append(f"room.room.status: {room.get('status')!r}")
    _is(found, "room.room.code", room.get("code"), str)
    _is(found, "room.room.public", room.get("public"), bool)
    _is(found, "room.room.host", room.get("host"), str, None)
    _is(found, "room.room.settings", room.get("settings"), dict)
    _is(found, "room.room.bots", room.get("bots"), bool)
    _is(found, "room.room.former_colours", room.get("former_colours"), dict)
    if _is(found, "room.room.online", room.get("online"), list):
        for player in room["online"]:
            _is(found, "room.room.online[]", player, str)
    if _is(found, "room.room.seats", room.get("seats"), list):
        for seat in room["seats"]:
            if _is(found, "room.room.seats[]", seat, dict):
                _seat(found, seat, room.get("host"))


def _seat(found: list[str], seat: dict[str, Any], host: str | None) -> None:
    _keys(found, "room.room.seats[]", seat, doc.seat_fields())
    for field in ("spectator", "online", "host", "bot"):
        _is(found, f"seat.{field}", seat.get(field), bool)
    _is(found, "seat.colour", seat.get("colour"), int)
    _is(found, "seat.level", seat.get("level"), str, None)
    _is(found, "seat.stand_in", seat.get("stand_in"), str, None)
    if seat.get("host") != (seat.get("id") == host):
        found.append(f"seat.host disagrees with room.host for {seat.get('id')!r}")
    if seat.get("bot") and (
        seat.get("level") is None or not str(seat.get("id")).startswith("bot-")
    ):
        found.append(f"a bot's seat has a level and an id starting bot-: {seat!r}")


def _patch(found: list[str], frame: dict[str, Any]) -> None:
    _is(found, "patch.code", frame.get("code"), str)
    if (
        _is(found, "patch.version", frame.get("version"), int)
        and _is(found, "patch.base", frame.get("base"), int)
        and frame["version"] <= frame["base"]
    ):
        found.append(f"patch: version {frame['version']} not after base {frame['base']}")
    for part in ("room", "view"):
        operations = frame.get(part)
        if _is(found, f"patch.{part}", operations, list):
            for operation in operations:
                _operation(found, f"patch.{part}[]", operation)
    _events(found, "patch", frame.get("events"))
    _is(found, "patch.blobs", frame.get("blobs"), dict, None)


def _operation(found: list[str], where: str, operation: Any) -> None:
    if not _is(found, where, operation, dict):
        return
    op = operation.get("op")
    expected = {"op", "path"} if op == "remove" else {"op", "path", "value"}
    if op not in ("add", "remove", "replace"):
        found.append(f"{where}: op {op!r} (the page: add, remove and replace only)")
    elif set(operation) != expected:
        found.append(f"{where}: fields {sorted(operation)} for {op}")
    path = operation.get("path")
    if _is(found, f"{where}.path", path, str) and path and not path.startswith("/"):
        found.append(f"{where}.path: not a JSON Pointer: {path!r}")


def _events(found: list[str], where: str, events: Any) -> None:
    if _is(found, f"{where}.events", events, list):
        for event in events:
            if _is(found, f"{where}.events[]", event, dict):
                _is(found, f"{where}.events[].kind", event.get("kind"), str)


_CHECKS = {
    "welcome": _welcome,
    "ack": _ack,
    "error": _error,
    "notice": _notice,
    "reaction": _reaction,
    "chat": _chat,
    "rooms": _rooms,
    "room": _room,
    "patch": _patch,
}
