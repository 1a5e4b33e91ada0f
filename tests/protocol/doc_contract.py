"""What docs/protocol.md promises, read from the page itself: the message types of each
direction (from its JSON examples), the fields of each server message, and the codes it
names (its table of error codes, and the codes its prose names).

The suite's checks are built from this, so a change of the page changes what is checked,
and the meta-test (``test_protocol_contract.py``) fails when the page names a message or a
code that no test of this folder covers.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL = ROOT / "docs" / "protocol.md"

# A stable code as the page writes it in backticks: `room.unknown`, `action.*`.
_CODE = re.compile(r"`([a-z][a-z0-9_]*(?:\.(?:[a-z][a-z0-9_]*|\*))+)`")
CODE_SHAPE = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$")
_BLOCK = re.compile(r"```json\n(.*?)```", re.DOTALL)


@functools.cache
def text() -> str:
    return PROTOCOL.read_text("utf-8")


def section(title: str, until: str) -> str:
    """The page from the heading ``title`` to the heading ``until``."""
    start = text().index(title)
    return text()[start : text().index(until, start)]


def _examples(part: str) -> list[dict[str, Any]]:
    """Every JSON example of ``part``: a block is one object, or one object a line."""
    found: list[dict[str, Any]] = []
    for block in _BLOCK.findall(part):
        try:
            found.append(json.loads(block))
        except json.JSONDecodeError:
            found.extend(json.loads(line) for line in block.splitlines() if line.strip())
    return found


@functools.cache
def client_messages() -> dict[str, dict[str, Any]]:
    """Each client → server message type with its first example, in the page's order (the
    game actions of ``act`` are the game's, not messages)."""
    part = section("## Client → server", "### Game actions")
    messages: dict[str, dict[str, Any]] = {}
    for example in _examples(part):
        messages.setdefault(example["type"], example)
    return messages


@functools.cache
def server_examples() -> dict[str, list[dict[str, Any]]]:
    """Each server → client message type with its examples."""
    messages: dict[str, list[dict[str, Any]]] = {}
    for example in _examples(section("## Server → client", "## HTTP")):
        messages.setdefault(example["type"], []).append(example)
    return messages


def fields(kind: str) -> frozenset[str]:
    """The fields of server message ``kind``, as its example(s) on the page show them."""
    return frozenset().union(*(example.keys() for example in server_examples()[kind]))


def example(kind: str) -> dict[str, Any]:
    return server_examples()[kind][0]


def room_fields() -> frozenset[str]:
    """The fields of a ``room`` push's ``room`` (the lobby every seat sees)."""
    return frozenset(example("room")["room"])


def seat_fields() -> frozenset[str]:
    return frozenset(example("room")["room"]["seats"][0])


def chat_line_fields() -> frozenset[str]:
    return frozenset(example("chat")["line"])


def room_list_fields() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """A public room's fields, a recent match's, and a recent match's player's."""
    rooms = example("rooms")
    recent = rooms["recent"][0]
    return frozenset(rooms["rooms"][0]), frozenset(recent), frozenset(recent["players"][0])


@functools.cache
def codes() -> frozenset[str]:
    """Every code the page names in backticks, wildcards (``action.*``) included: the table
    of error codes, the notices, the refusals its prose names. Field paths written the same
    way (``room.seats``, ``params.max``) are not codes and are left out."""
    room = room_fields()
    found = set()
    for code in _CODE.findall(text()):
        namespace, _, name = code.partition(".")
        if namespace == "params" or (namespace == "room" and name in room):
            continue  # a field: `params.max`, `room.bots`
        found.add(code)
    # A refused handshake's body (`{"error": "connection.too_many_connections"}`) and the
    # other two reasons the same sentence names bare.
    body = re.search(r'\{"error":\s*"(connection\.[a-z_]+)"\}', text())
    assert body is not None, "the page no longer shows a refused handshake's body"
    found.add(body.group(1))
    reasons = re.search(r"\(`([a-z_]+)`, `([a-z_]+)`\)", text()[body.end() :])
    assert reasons is not None, "the page no longer names the other handshake refusals"
    found.update(f"connection.{reason}" for reason in reasons.groups())
    return frozenset(found)


def table_codes() -> frozenset[str]:
    """The codes of the table "Error codes of the platform" (and the paragraph under it)."""
    part = section("## Error codes of the platform", "## The match's recap")
    return frozenset(_CODE.findall(part))


def notices() -> frozenset[str]:
    """The notice codes of the paragraph "Notices: …"."""
    paragraph = re.search(r"Notices:(.*?)\n\n", text(), re.DOTALL)
    assert paragraph is not None
    return frozenset(_CODE.findall(paragraph.group(1)))


def platform_wildcards() -> frozenset[str]:
    """The families of codes the page gives every game by a wildcard: "The codes every game
    may get from `games/base.py` (`action.*`, …)". (A game's own families, `clue.*`, are the
    game's, listed in its ``ERRORS``.)"""
    sentence = re.search(r"The codes every game may get from(.*?)\.\s", text(), re.DOTALL)
    assert sentence is not None, "the page no longer says which codes every game may get"
    return frozenset(c for c in _CODE.findall(sentence.group(1)) if c.endswith(".*"))


def is_documented(code: str) -> bool:
    """Whether the page names ``code`` as the platform's, itself or by a wildcard that
    gives it to every game (``action.*``)."""
    return code in codes() or f"{code.partition('.')[0]}.*" in platform_wildcards()
