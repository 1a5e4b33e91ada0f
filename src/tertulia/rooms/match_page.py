"""A finished match's page (``/m/<id>``, ``GET /api/matches/<id>``), built from its kept
records: the room as it started (``openings.py``) and every record of the match after it
(``Store.load_match``), folded again by the very fold that ran live, as replay does.

What the page shows of the match is what a spectator saw: after each record the spectator's
view (``game.view(state, None)``), so nothing a reveal did not show — a Pitacor target
before its reveal, a hidden marker, a Haiclue card, a Pintó title before its reveal — is
ever in it; the recap is the spectator's view at the end (the podium's), and the replay is
that view at the start, then a JSON Patch per step (the protocol's, ``patches.py``) with the
step's events. Chat was never kept; the votes of the room are the room's business, not the
match's (their events are left out). A player removed during the match who asked to hide
their name is given a placeholder nickname (``?1``, ``?2`` …, one nobody in the match has)
before the fold, so their name is in no view, and is ``hidden`` in the page's players.
"""

from __future__ import annotations

import itertools
import logging
from types import ModuleType
from typing import Any

import msgspec

from ..games.base import RuleError
from ..patches import diff
from ..store import KeptMatch
from .model import fold
from .openings import room_from_opening
from .records import Chatted, Joined, Renamed, record_decoder
from .views import game_blobs, game_view

log = logging.getLogger("tertulia.match_page")

# Events of the room that are not the match's: votes to remove (who started one against
# whom, and why, stays with the room).
_NOT_THE_MATCHS = ("removal.", "room.votes")

_encode = msgspec.json.encode
_decode = msgspec.json.decode


def match_page(kept: KeptMatch, games: dict[str, ModuleType]) -> dict[str, Any]:
    """The page of ``kept`` as JSON-able data (docs/protocol.md, "Match pages")."""
    match = kept.match
    extra = match.extra
    started, ended = match.started_at, match.ended_at
    page: dict[str, Any] = {
        "id": match.public_id,
        "game": match.game,
        "public": bool(extra.get("public")),
        "reason": extra.get("reason"),
        "started_at": started,
        "ended_at": ended,
        "duration": round(ended - started, 3) if started is not None else None,
        "players": [_player(p) for p in match.players],
        "settings": None,
        "recap": None,
        "replay": None,
        "blobs": {},
    }
    if kept.opening is None or not kept.entries:
        return page
    opened = room_from_opening(kept.opening, "MATCH", games)
    if opened is None:
        log.warning("match %s: its opening can no longer be read", match.public_id)
        return page
    room, _ = opened
    page["settings"] = msgspec.to_builtins(room.settings)
    hidden = set(extra.get("hidden") or ())
    names = _placeholders(room, kept, hidden)
    for seat in room.seats:
        seat.nickname = names.get(seat.player, seat.nickname)
    blobs: dict[str, Any] = {}
    start: Any = None
    steps: list[dict[str, Any]] = []
    view: Any = None
    for entry in kept.entries:
        record = record_decoder.decode(entry.payload)
        if isinstance(record, Chatted):
            continue  # (never kept; a log from before that rule keeps none either)
        if isinstance(record, (Joined, Renamed)) and record.player in names:
            record = msgspec.structs.replace(record, nickname=names[record.player])
        try:
            events = fold(room, record, replaying=True)
        except RuleError as error:  # only if the rules changed under a kept log
            log.error(
                "match %s: record %d no longer applies (%s)", match.public_id, entry.seq, error
            )
            continue
        if room.match is None:
            continue
        previous, view = view, _plain(game_view(room, None))
        blobs.update(game_blobs(room, None, blobs.keys()))
        if start is None:
            start, first_at = view, record.at
            continue
        told = [
            {"kind": e.kind, **e.data} for e in events if not e.kind.startswith(_NOT_THE_MATCHS)
        ]
        patch = diff(previous, view)
        if patch or told:
            steps.append(
                {
                    "at": record.at,
                    "t": round(record.at - first_at, 3),
                    "round": view.get("round") if isinstance(view, dict) else None,
                    "events": _plain(told),
                    "view": patch,
                }
            )
    if start is None:
        return page
    page["recap"] = view
    page["replay"] = {"start": start, "steps": steps}
    page["blobs"] = _plain(blobs)
    return page


def _player(player: dict[str, Any]) -> dict[str, Any]:
    """A player of the final scores, as the lists of finished matches give them."""
    return {
        "id": player.get("id"),
        "name": player.get("name"),
        "score": player.get("score"),
        "place": player.get("place"),
        "winner": player.get("winner"),
        "colour": player.get("colour"),
        "bot": bool(player.get("bot")),
        "hidden": bool(player.get("hidden")),
    }


def _placeholders(room: Any, kept: KeptMatch, hidden: set[str]) -> dict[str, str]:
    """A nickname for each hidden player that nobody in the match has: ``?1``, ``?2`` …"""
    if not hidden:
        return {}
    taken = {s.nickname.casefold() for s in room.seats}
    for entry in kept.entries:
        record = record_decoder.decode(entry.payload)
        if isinstance(record, (Joined, Renamed)):
            taken.add(record.nickname.casefold())
    free = (f"?{n}" for n in itertools.count(1) if f"?{n}" not in taken)
    return {player: next(free) for player in sorted(hidden)}


def _plain(value: Any) -> Any:
    """``value`` as JSON gives it back (tuples as lists, structs as objects): what a client
    holds, so the patches between two of them are exact."""
    return _decode(_encode(value))
