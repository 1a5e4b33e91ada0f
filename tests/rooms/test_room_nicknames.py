"""Nicknames that look alike, hide characters or mix scripts: live rules (``check_new``) that
old logs do not answer to."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "server"))

from server_harness import games_with_tiny
from tiny_game import NAME as TINY

from tertulia.games.base import RuleError
from tertulia.rooms import model, nicknames, room_data
from tertulia.rooms import records as rec
from tertulia.rooms.replay import replay
from tertulia.store import LiveRoom, LogEntry, RoomRecord

CYRILLIC_O = "\u043e"
GREEK_OMICRON = "\u03bf"
TECHNOLOGIST = "\U0001f469\u200d\U0001f4bb"  # 👩‍💻: woman, zero-width joiner, laptop


def _room_with_bob(public: bool = False) -> room_data.RoomModel:
    room = room_data.new_room("ABCD", public, TINY, games_with_tiny())
    model.fold(room, rec.Joined(at=1, player="b", nickname="Bob"))
    return room


def _refusal(room: room_data.RoomModel, record: rec.Record) -> str:
    """The code ``record`` is refused with, live: the new-record rules, then the fold."""
    with pytest.raises(RuleError) as refused:
        model.check_new(room, record)
        model.fold(room, record)
    return refused.value.code


def _accept(room: room_data.RoomModel, record: rec.Record) -> None:
    model.check_new(room, record)
    model.fold(room, record)


# Each with the code it is refused with beside "Bob". Zero-width characters are refused as
# they always were (``nickname.characters``), not removed: the name shown is the name typed.
IMPOSTORS = [
    (f"B{CYRILLIC_O}b", "nickname.looks_alike"),
    (f"B{GREEK_OMICRON}b", "nickname.looks_alike"),
    ("\uff22\uff4f\uff42", "nickname.looks_alike"),  # fullwidth letters
    ("\u0412\u041e\u0412", "nickname.looks_alike"),  # Cyrillic capitals: "BOB", i.e. "bob"
    ("Bob\u3164", "nickname.looks_alike"),  # a Hangul filler: printable, shown as nothing
    ("B0b", "nickname.looks_alike"),
    ("Bo\u200bb", "nickname.characters"),  # zero-width space inside
    ("Bob\u2060", "nickname.characters"),  # word joiner
    ("\ufeffBob", "nickname.characters"),  # zero-width no-break space
    ("Bo\u00adb", "nickname.characters"),  # soft hyphen
]


def test_a_nickname_that_looks_like_one_in_the_room_is_refused():
    """Whoever joins or renames: "Bob" never gets a double beside him (Cyrillic о, Greek ο,
    fullwidth letters, invisible characters inside)."""
    for impostor, code in IMPOSTORS:
        room = _room_with_bob()
        joined = rec.Joined(at=2, player="x", nickname=impostor)
        assert _refusal(room, joined) == code, impostor
        _accept(room, rec.Joined(at=3, player="a", nickname="Ana"))
        assert _refusal(room, rec.Renamed(at=4, player="a", nickname=impostor)) == code, impostor
        assert [s.nickname for s in room.seats] == ["Bob", "Ana"]


def test_the_refusal_names_the_nickname_it_looks_like():
    room = _room_with_bob()
    with pytest.raises(RuleError) as refused:
        model.check_new(room, rec.Joined(at=2, player="x", nickname=f"B{CYRILLIC_O}b"))
    assert refused.value.params == {"name": "Bob"}
    assert "Bob's" in refused.value.message


def test_the_same_nickname_in_another_case_is_taken_and_its_look_alike_alike():
    """Exact and casefold equality keep their old code; the new one is for look-alikes."""
    room = _room_with_bob()
    assert _refusal(room, rec.Joined(at=2, player="x", nickname="BOB")) == "nickname.taken"
    assert _refusal(room, rec.Joined(at=2, player="x", nickname="\u0412\u041e\u0412")) == (
        "nickname.looks_alike"
    )


def test_only_someone_elses_nickname_counts():
    """Bob may rename himself to a look-alike of his own nickname; Ana may not."""
    room = _room_with_bob()
    _accept(room, rec.Joined(at=2, player="a", nickname="Ana"))
    assert _refusal(room, rec.Renamed(at=3, player="a", nickname="B0b")) == ("nickname.looks_alike")
    _accept(room, rec.Renamed(at=4, player="b", nickname="B0b"))
    assert room.seat("b").nickname == "B0b"


@pytest.mark.parametrize("nickname", [f"B{CYRILLIC_O}b", f"Ana B{GREEK_OMICRON}b", "\u03a9mega"])
def test_a_word_mixing_scripts_is_refused_even_in_an_empty_room(nickname):
    """Else an impersonator could take "Bоb" first and lock the real Bob out."""
    with pytest.raises(RuleError) as refused:
        nicknames.check_first_nickname(nickname, public=False)
    assert refused.value.code == "nickname.mixed_scripts"
    empty = room_data.new_room("ABCD", False, TINY, games_with_tiny())
    assert _refusal(empty, rec.Joined(at=1, player="x", nickname=nickname)) == (
        "nickname.mixed_scripts"
    )


@pytest.mark.parametrize("nickname", ["\u3164", "\u2800\u2800", "Bob\ufe0f", "B\u034fob"])
def test_a_nickname_that_shows_nothing_or_hides_characters_is_refused(nickname):
    with pytest.raises(RuleError) as refused:
        nicknames.check_first_nickname(nickname, public=False)
    assert refused.value.code == "nickname.characters"


ALLOWED = [
    "Łukasz Wójcik",
    "Zażółć",
    "João",
    "Conceição",
    "Ñandú",
    "Begoña",
    "R2-D2",
    "Ana_99!",
    TECHNOLOGIST,
    "\U0001f3f3\ufe0f\u200d\U0001f308 Ana",  # 🏳️‍🌈: presentation selector, joiner
    "Ana \u2764\ufe0f",  # ❤️
    "Иван",
    "Νίκος",
    "Ana Иван",
    "山田はなこ",
]


def test_accented_latin_and_emoji_nicknames_stay_allowed():
    """Polish, Portuguese and Spanish letters, digits, punctuation and emoji (ZWJ sequences
    too); a name wholly in Cyrillic or Greek, or one script a word."""
    for nickname in ALLOWED:
        assert nicknames.check_first_nickname(nickname, public=True) == nickname
        room = _room_with_bob()
        _accept(room, rec.Joined(at=2, player="x", nickname=nickname))
        assert room.seat("x").nickname == nickname


def test_an_old_log_holding_look_alike_nicknames_still_replays():
    """The look-alike rules are live only (``check_new``): a log an older version wrote, with
    "Bob" beside "Bоb", "Bob" plus a Hangul filler and a mixed-script rename, rebuilds the
    same room, while the same records are refused now."""
    records = [
        rec.Joined(at=1, player="b", nickname="Bob"),
        rec.Joined(at=2, player="c", nickname=f"B{CYRILLIC_O}b"),
        rec.Joined(at=3, player="d", nickname="Bob\u3164"),
        rec.Renamed(at=4, player="d", nickname="\u03a9mega"),
        rec.Chatted(at=5, player="c", text="hi, I'm Bob"),
    ]
    live = _room_with_bob()
    assert _refusal(live, records[1]) == "nickname.looks_alike"
    assert _refusal(live, records[2]) == "nickname.looks_alike"
    log = [LogEntry(i + 1, r.at, rec.record_encoder.encode(r)) for i, r in enumerate(records)]
    stored = LiveRoom(RoomRecord("ABCD", TINY, False, 0.0), None, log)
    rebuilt, seq = replay(stored, games_with_tiny())
    assert seq == 5
    assert [s.nickname for s in rebuilt.seats] == ["Bob", f"B{CYRILLIC_O}b", "\u03a9mega"]
    assert [line["text"] for line in rebuilt.chat] == ["hi, I'm Bob"]
