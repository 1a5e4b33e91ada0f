"""Same secrets (issue 31): a match's page shows nothing a reveal did not.

Over random matches of each game (hypothesis) — players doing what their own view lets them
try, legal or not, with the room's clocks, drops and departures between — the match is
played live (checked, judged and folded as a room does), kept as the room keeps it (its
opening and its records) and its page built. Then:

- the page's replay, its start patched step by step, is at every step exactly the
  spectator's view at that point of the match (folded here on its own), and ends on the
  recap, the spectator's view at the end;
- at every point, that view holds none of the seats' secrets before their reveal: the
  Pitacor target and candidates before the reveal, a hidden marker or a selection, a
  Haiclue card, rack, draft, clue or guess of a seat, a Pintó title before its drawing's
  judging, and anyone's own interpretations.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent.parent / "protocol"))

import json_patch

from tertulia.games import GAMES
from tertulia.games.base import RuleError
from tertulia.games.pitacor.settings import MarkerVisibility
from tertulia.games.pitacor.state import Phase as PitacorPhase
from tertulia.rooms.match_page import match_page
from tertulia.rooms.model import check_new, fold, with_verdicts
from tertulia.rooms.openings import room_from_opening
from tertulia.rooms.records import (
    Chatted,
    GameMove,
    Joined,
    Left,
    MatchStarted,
    Presence,
    SettingsChanged,
    record_decoder,
    record_encoder,
)
from tertulia.rooms.room_data import new_room
from tertulia.rooms.views import game_view
from tertulia.store import FinishedMatch, KeptMatch, LogEntry

PLAYERS = ["p0", "p1", "p2", "p3"]
CLUES = ["ocean", "banana", "forest", "lava", "snow", "grape"]
TITLES = ["cat", "a boat", "red kite"]
READINGS = ["dog", "ship", "bird", ""]  # never a title: a title found in a view is one
DOODLE = [{"colour": "#1d1d1f", "size": 5, "points": [100, 100, 500, 500, 900, 100]}]

SETTINGS = {
    "pitacor": st.fixed_dictionaries(
        {
            "markers": st.sampled_from(["visible", "hidden"]),
            "guess_mode": st.sampled_from(["simultaneous", "turns"]),
            "goal": st.integers(1, 6),
        }
    ),
    "haiclue": st.fixed_dictionaries({"reveal_seconds": st.sampled_from([0, 10])}),
    "pinto": st.fixed_dictionaries({"rounds": st.integers(1, 2)}),
}

# A move: what kind, by whom (an index into the players; None: the room's clock), and a
# number the move's details are drawn from (which word, which cell, which artist).
move = st.tuples(
    st.sampled_from(["act"] * 14 + ["timeout", "drop", "back", "leave", "chat"]),
    st.integers(0, len(PLAYERS) - 1),
    st.integers(0, 10_000),
)


def _action(game: str, room: Any, seat: str, n: int) -> dict[str, Any]:
    """A move ``seat`` might try now, drawn from ``n`` and what its own view shows."""
    view = game_view(room, seat) or {}
    if game == "pitacor":
        cell = f"{'ABCDEFGHIJKLMNOP'[n % 16]}{n % 30 + 1}"
        return [
            {"type": "choose_target", "index": n % 4},
            {"type": "give_clue", "text": CLUES[n % len(CLUES)]},
            {"type": "pass_clue"},
            {"type": "select_cell", "cell": cell},
            {"type": "select_cell", "cell": cell},
            {"type": "confirm"},
            {"type": "confirm"},
            {"type": "next_round"},
            {"type": "ready"},
        ][n % 9]
    if game == "haiclue":
        rack = view.get("rack") or ["nothing"]
        words = rack[n % 3 : n % 3 + 2 + n % 3]
        return [
            {"type": "submit_clue", "words": words},
            {"type": "submit_clue", "words": words, "draft": True},
            {"type": "guess", "colour": ["red", "yellow", "green", "blue"][n % 4]},
            {"type": "ready"},
        ][n % 4]
    artists = [p["id"] for p in view.get("players", [])] or PLAYERS
    artist = artists[n % len(artists)]
    drawn = [a for a in view.get("drawings", {}) if a != seat]
    if n % 4 and view.get("phase") == "create":  # mostly what a player would do next
        if view.get("my_title") is None:
            return {"type": "set_title", "text": TITLES[n % len(TITLES)]}
        if seat not in view.get("drawings", {}):
            return {"type": "reveal_drawing", "strokes": DOODLE}
        unread = [a for a in drawn if a not in view.get("my_interpretations", {})]
        if unread:
            text = READINGS[n % len(READINGS)]
            return {"type": "interpret", "artist": unread[n % len(unread)], "text": text}
    return [
        {"type": "set_title", "text": TITLES[n % len(TITLES)]},
        {"type": "reveal_drawing", "strokes": DOODLE},
        {"type": "interpret", "artist": artist, "text": READINGS[n % len(READINGS)]},
        {"type": "interpret", "artist": artist, "text": READINGS[n % 3], "draft": True},
        {"type": "accept_marks"},
        {"type": "dispute_mark", "seat": artist},
        {"type": "vote_mark", "seat": artist, "right": n % 2 == 0},
    ][n % 7]


def _mover(room: Any, index: int, n: int) -> str:
    """Mostly someone the match waits for (their view has something for them to do), now
    and then anyone."""
    if index == 0:
        return PLAYERS[n % len(PLAYERS)]
    waited = [
        p
        for p in PLAYERS
        if room.seat(p) and ((game_view(room, p) or {}).get("you") or {}).get("to_do")
    ]
    return waited[n % len(waited)] if waited else PLAYERS[index]


def _played(game: str, chosen: dict[str, Any], seed: int, moves: list) -> tuple[bytes, list]:
    """The match played live as a room would: its opening and its log from its start on."""
    room = new_room("SECR", False, game, GAMES)
    entries: list[LogEntry] = []
    at = 1000.0

    def live(record: Any) -> None:
        nonlocal at
        at += 7.0
        if isinstance(record, GameMove) and record.seat is None:  # the clock: at its deadline
            at = max(at, room.game.deadline(room.match) or 0)
        record = msgspec.structs.replace(record, at=at)
        try:
            check_new(room, record)
            record = with_verdicts(room, record)
            fold(room, record)
        except RuleError:
            return
        entries.append(LogEntry(len(entries) + 1, record.at, record_encoder.encode(record)))

    for player in PLAYERS:
        live(Joined(0, player, player.upper()))
    live(SettingsChanged(0, "p0", chosen))
    live(MatchStarted(0, "p0", seed, version=getattr(room.game, "VERSION", 0), page="x" * 16))
    if room.opening is None:
        return b"", []
    opening, first = room.opening, len(entries)
    for kind, index, n in moves:
        if room.status.value != "playing":
            break
        seat = PLAYERS[index]
        if kind == "act":
            seat = _mover(room, index, n)
            live(GameMove(0, seat, _action(game, room, seat, n)))
        elif kind == "timeout" and room.game.deadline(room.match) is not None and n % 3 == 0:
            live(GameMove(0, None, {"type": "timeout"}))
        elif kind in ("drop", "back"):
            live(Presence(0, seat, kind == "back"))
        elif kind == "leave" and n % 5 == 0:
            live(Left(0, seat))
        elif kind == "chat":
            live(Chatted(0, seat, "a hint?"))
    return opening, entries[first - 1 :]


def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*map(_strings, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(_strings, value)) if value else set()
    return set()


def _no_secret(game: str, state: Any, view: dict[str, Any]) -> None:
    """The spectator's ``view`` of ``state`` holds no seat's secret before its reveal."""
    if game == "pitacor":
        revealed = state.phase in (PitacorPhase.REVEAL, PitacorPhase.ENDED)
        if not revealed:
            assert view["target"] is None and view["candidates"] is None
        if state.settings.markers is MarkerVisibility.HIDDEN and not revealed:
            assert view["markers"] == []
        assert view["selection"] is None
    elif game == "haiclue":
        for secret in ("rack", "card", "my_clue", "my_draft", "my_guess"):
            assert view[secret] is None, secret
        secret_cards = [p for p in state.cards if not any(r.author == p for r in state.results)]
        shown = {r["author"] for r in view["results"]}
        assert not shown & set(secret_cards)
    else:
        assert view["my_title"] is None
        assert view["my_interpretations"] == {} and view["my_drafts"] == {}
        judged = {j.artist for j in state.judgements}  # its judging shows its title
        told = {state.works[a].title for a in judged if a in state.works}
        told |= {t for past in state.past for t in past.titles.values()}
        kept = {w.title for a, w in state.works.items() if w.title and a not in judged}
        assert not (kept - told) & _strings(view), (kept - told) & _strings(view)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), game=st.sampled_from(["pitacor", "haiclue", "pinto"]))
def test_a_match_page_shows_at_every_step_what_a_spectator_saw_and_no_secret(data, game):
    chosen = data.draw(SETTINGS[game], label="settings")
    seed = data.draw(st.integers(0, 2**32), label="seed")
    moves = data.draw(st.lists(move, min_size=20, max_size=160), label="moves")
    opening, entries = _played(game, chosen, seed, moves)
    if not entries:
        return  # (the match could not start)
    kept = KeptMatch(
        FinishedMatch("SECR", game, entries[-1].at, [], entries[0].at, {"hidden": []}, "x" * 16),
        opening,
        [e for e in entries if not isinstance(record_decoder.decode(e.payload), Chatted)],
    )
    page = msgspec.json.decode(msgspec.json.encode(match_page(kept, GAMES)))

    # The spectator's view after each kept record, folded here on its own, checked for secrets.
    room, _ = room_from_opening(opening, "SECR", GAMES)
    seen: dict[float, Any] = {}
    for entry in kept.entries:
        fold(room, record_decoder.decode(entry.payload), replaying=True)
        spectator = msgspec.json.decode(msgspec.json.encode(game_view(room, None)))
        _no_secret(game, room.match, spectator)
        seen[entry.at] = spectator
    assert page["replay"]["start"] == seen[kept.entries[0].at]
    view = page["replay"]["start"]
    for step in page["replay"]["steps"]:
        view = json_patch.apply(view, step["view"])
        assert view == seen[step["at"]]
        assert not any(e["kind"].startswith("removal.") for e in step["events"])
    assert view == page["recap"] == seen[kept.entries[-1].at]
    if game == "pinto":  # the drawings travel as blobs: only those the views name
        named = {d["blob"] for d in page["recap"]["drawings"].values()}
        assert named <= set(page["blobs"])
