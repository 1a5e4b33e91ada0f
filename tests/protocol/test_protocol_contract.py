"""The document and the server cannot drift apart: docs/protocol.md, this suite and the
server's own source are read against each other.

- Every message type the page documents (client → server and server → client) and every
  code it names has a test in this folder that says it covers it
  (``@pytest.mark.covers("join_room", "room.unknown")``), or is listed below among the codes
  no outside client can bring about, with the reason.
- Every code the server's source can refuse with (``RuleError("…")`` and the codes of
  ``games/_errors.py``), notice or HTTP refusal is on the page, unless it is a game's own
  (listed in its package's ``ERRORS``, as the page says).
- The message types of ``src/tertulia/protocol.py`` are the page's, both ways.

The source is read (``ast``), never imported: the suite knows the server as an outside
client does, and its source only as text.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import doc_contract as doc

HERE = Path(__file__).resolve().parent
SRC = doc.ROOT / "src" / "tertulia"
GAMES = SRC / "games"
EXAMPLE_GAME = doc.ROOT / "docs" / "examples" / "tiny" / "games" / "tiny" / "__init__.py"

# Documented codes that no outside client can bring about on purpose, and why.
UNREACHABLE = {
    "room.busy": "the room's inbox holding 256 clients' messages: the room takes them faster "
    "than the per-connection rate limit lets them come; when it happens is the machine's load",
    "room.already_in": "a join_room of a player who has a seat gives the seat back (a resume); "
    "the room never writes a second join for them, which is what the fold refuses",
    "bot.bad_id": "the page: never reaches a client, the room draws bots' ids",
    "server.error": "our bug, answered plainly: no correct input brings it about",
    "server.store": "the store's writer process died (the server then stops for its "
    "supervisor): nothing a client sends does that",
    "server.busy": "cluster mode, an owner the other nodes see as gone while its lease is "
    "still renewed for ten lease times (see test_protocol_cluster.py)",
    "room.closed": "housekeeping closes only rooms nobody is connected to (the page: a "
    "safeguard), so on one node no connection is there to be told",
    "seat.unknown": "a system action of the room's (a client's is action.room_only first)",
    "seat.already_seated": "a system action of the room's (a client's is action.room_only first)",
    "seat.match_full": "a system action of the room's; the room makes the newcomer a spectator",
    "timeout.early": "a timeout is the room's own action (a client's is action.room_only)",
    "message.not_for_room": "the page: the room's own safeguard, a session gives a room only "
    "room messages",
    "room.not_a_player": "the page: hosting passed by the room itself, never to a spectator",
    "room.already_seated": "the page: the room's own decision to seat a spectator",
    "bot.not_playing": "the page: a computer player's stale move, dropped unanswered",
    "screen.seated": "the page: a screen's name is one no seat has",
    "removal.open": "the page: the room's own clock closing a vote before its deadline",
}

# What a test may say it covers beyond the page's message types and codes: rules of the
# page that have no code of their own.
RULES = {
    "join_room.resume": 'join_room with "resume": true',
    "close.1008": "a flooding connection is closed with 1008",
    "close.1009": "a frame over 1 MiB closes the WebSocket with 1009",
    "origin.403": "a WebSocket from a foreign origin is refused with HTTP 403",
    "http.429": "a handshake past the per-address limits is refused with HTTP 429",
    "http.healthz": "/healthz",
    "bidi": "bidirectional controls are removed from what a client writes",
    "deadline": "deadlines in views are on the server's clock",
    "clock.extended": "a clock that ran out while the server was down gets a grace",
}


def covered() -> dict[str, list[str]]:
    """Each name some test of this folder covers, with the tests that say so."""
    found: dict[str, list[str]] = {}
    for path in sorted(HERE.glob("test_*.py")):
        module = importlib.import_module(path.stem)
        for name, test in vars(module).items():
            if not name.startswith("test_") or not callable(test):
                continue
            for mark in getattr(test, "pytestmark", []):
                if mark.name == "covers":
                    for item in mark.args:
                        found.setdefault(item, []).append(f"{path.stem}::{name}")
    return found


def test_every_documented_client_message_has_a_test():
    missing = sorted(set(doc.client_messages()) - set(covered()))
    assert not missing, f"client messages of docs/protocol.md without a test: {missing}"


def test_every_documented_server_message_has_a_test():
    missing = sorted(set(doc.server_examples()) - set(covered()))
    assert not missing, f"server messages of docs/protocol.md without a test: {missing}"


def test_every_documented_code_has_a_test_or_a_reason_why_none_can():
    tested = covered()
    missing = sorted(code for code in doc.codes() if code not in tested and code not in UNREACHABLE)
    assert not missing, f"codes of docs/protocol.md without a test: {missing}"
    stale = sorted(code for code in UNREACHABLE if code not in doc.codes() or code in tested)
    assert not stale, f"UNREACHABLE lists codes the page drops or a test covers: {stale}"


def test_every_name_a_test_covers_is_the_pages():
    """A misspelt name would cover nothing."""
    known = set(doc.client_messages()) | set(doc.server_examples()) | doc.codes() | set(RULES)
    games_own = set().union(*game_errors().values())  # the page: "listed in its ERRORS"
    unknown = {
        name: tests
        for name, tests in covered().items()
        if name not in known and name not in games_own and not doc.is_documented(name)
    }
    assert not unknown, f"covered names that docs/protocol.md does not have: {unknown}"


# ---------------------------------------------------------------------------- the source


def test_every_code_the_server_can_send_is_on_the_page():
    """The platform's codes in the source (refusals, notices, HTTP errors), less the games'
    own (their ``ERRORS``), are all on the page."""
    games_own = set().union(*game_errors().values())
    undocumented = {
        code: where
        for code, where in server_codes().items()
        if code not in games_own and not doc.is_documented(code)
    }
    assert not undocumented, "codes the server has that docs/protocol.md does not list: " + (
        "; ".join(f"{code} ({', '.join(sorted(where))})" for code, where in undocumented.items())
    )


def test_a_games_own_codes_are_not_the_platforms():
    platform = doc.table_codes()
    for game, codes in game_errors().items():
        assert not codes & platform, f"{game} lists platform codes: {codes & platform}"


def test_the_servers_message_types_are_the_pages():
    tags = message_tags()
    assert tags["ClientMessage"] == set(doc.client_messages()), "client → server"
    assert tags["ServerMessage"] == set(doc.server_examples()), "server → client"


def test_the_scan_finds_codes_however_the_source_writes_them(tmp_path):
    (tmp_path / "one.py").write_text(
        "from .base import RuleError\n"
        "from . import base\n"
        'TAKEN = "cell.taken"\n'
        "def f(code):\n"
        '    RuleError("room.literal", "x")\n'
        "    RuleError(\n"
        '        "room.on_its_own_line",\n'
        '        "x",\n'
        "    )\n"
        "    RuleError(TAKEN)\n"
        "    RuleError(base.NOT_YOUR_TURN)\n"
        "    RuleError(code)\n"
        '    Notice("room.told", "x")\n'
        '    JSONResponse({"error": "http.refused"}, status_code=404)\n'
        '    Event("not.a_code", {})\n'
    )
    found = set(server_codes(tmp_path))
    assert found == {
        "room.literal",
        "room.on_its_own_line",
        "cell.taken",
        "action.not_your_turn",
        "room.told",
        "http.refused",
    }


# ---------------------------------------------------------------------------- reading it


def _constants(tree: ast.Module) -> dict[str, str]:
    """Module-level ``NAME = "a.code"`` assignments."""
    found = {}
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            found[node.targets[0].id] = node.value.value
    return found


def _base_codes() -> dict[str, str]:
    """The codes ``games/_errors.py`` defines for every game (``base.NOT_YOUR_TURN``)."""
    tree = ast.parse((GAMES / "_errors.py").read_text("utf-8"))
    return {name: code for name, code in _constants(tree).items() if name.isupper()}


def server_codes(root: Path = SRC) -> dict[str, set[str]]:
    """Every code the Python source under ``root`` refuses with (the first argument of
    ``RuleError``, written out or a constant), tells in a ``Notice``, or answers an HTTP
    request with (``{"error": …}``); with the files that do."""
    base = _base_codes()
    found: dict[str, set[str]] = {}
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"), filename=str(path))
        constants = {**base, **_constants(tree)}
        where = str(path.relative_to(root))
        for node in ast.walk(tree):
            for code in _codes_in(node, constants):
                if doc_code(code):
                    found.setdefault(code, set()).add(where)
    if root == SRC:
        for code in base.values():
            found.setdefault(code, set()).add("games/_errors.py")
    return found


def _codes_in(node: ast.AST, constants: dict[str, str]) -> list[str]:
    if isinstance(node, ast.Call) and node.args:
        called = node.func.attr if isinstance(node.func, ast.Attribute) else None
        called = node.func.id if isinstance(node.func, ast.Name) else called
        if called in ("RuleError", "Notice"):
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                return [first.value]
            name = first.id if isinstance(first, ast.Name) else None
            name = first.attr if isinstance(first, ast.Attribute) else name
            return [constants[name]] if name in constants else []
    if isinstance(node, ast.Dict):
        return [
            value.value
            for key, value in zip(node.keys, node.values, strict=True)
            if isinstance(key, ast.Constant)
            and key.value == "error"
            and isinstance(value, ast.Constant)
            and isinstance(value.value, str)
        ]
    return []


def doc_code(text: str) -> bool:
    return doc.CODE_SHAPE.match(text) is not None


def game_errors() -> dict[str, set[str]]:
    """Each game's own codes, its package's ``ERRORS`` (the shipped games and the example)."""
    found = {}
    for init in [*sorted(GAMES.glob("*/__init__.py")), EXAMPLE_GAME]:
        tree = ast.parse(init.read_text("utf-8"))
        constants = _constants(tree)
        for node in tree.body:
            if (
                isinstance(node, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == "ERRORS" for t in node.targets)
                and isinstance(node.value, ast.Tuple | ast.List)
            ):
                found[init.parent.name] = {
                    item.value if isinstance(item, ast.Constant) else constants[item.id]
                    for item in node.value.elts
                    if isinstance(item, ast.Constant | ast.Name)
                }
    return found


def message_tags() -> dict[str, set[str]]:
    """The ``tag=`` of each message class of ``protocol.py``, by direction."""
    tree = ast.parse((SRC / "protocol.py").read_text("utf-8"))
    tags: dict[str, set[str]] = {"ClientMessage": set(), "ServerMessage": set()}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        bases = {b.id for b in node.bases if isinstance(b, ast.Name)}
        tag = next((k.value for k in node.keywords if k.arg == "tag"), None)
        for direction in tags:
            if direction in bases and isinstance(tag, ast.Constant):
                tags[direction].add(tag.value)
    return tags
