"""Computer players as members of a room: the lobby rules for adding and removing them and
for "play for them", as folds (no network; the driver and the server have their own tests)."""

from __future__ import annotations

import msgspec
import pytest

from tertulia.games import GAMES
from tertulia.games.base import RuleError
from tertulia.protocol import AddBot
from tertulia.rooms import model, records, room_data, views
from tertulia.rooms.bot_members import NAMES, new_bot
from tertulia.rooms.commands import record_for
from tertulia.rooms.replay import replay, restore, snapshot_of
from tertulia.store import LiveRoom, LogEntry, RoomRecord


class Log:
    """A room and the records folded into it, to replay them as a restart would."""

    def __init__(self, game: str = "pitacor") -> None:
        self.game = game
        self.room = room_data.new_room("BQTR", False, game, GAMES)
        self.records: list[records.Record] = []
        self.at = 1.0

    def fold(self, record: records.Record) -> list:
        events = model.fold(self.room, record)  # raises before anything is logged
        self.records.append(record)
        return events

    def add_bot(self, by: str = "ana", level: str = "good") -> room_data.Seat:
        self.at += 1
        record = record_for(AddBot(id=1, level=level, language="es"), by, self.at, room=self.room)
        self.fold(record)
        return self.room.seats[-1]

    def replayed(self) -> room_data.RoomModel:
        entries = [
            LogEntry(i + 1, r.at, records.record_encoder.encode(r))
            for i, r in enumerate(self.records)
        ]
        record = RoomRecord(code="BQTR", game=self.game, public=False, created_at=0.0)
        rebuilt, _ = replay(LiveRoom(room=record, snapshot=None, entries=entries), GAMES)
        assert rebuilt is not None
        return rebuilt


def _refused(room_log: Log, record: records.Record) -> str:
    before = views.lobby_view(room_log.room)
    with pytest.raises(RuleError) as refusal:
        model.fold(room_log.room, record)
    assert views.lobby_view(room_log.room) == before  # a refusal changes nothing
    return refusal.value.code


def _with_people(game: str = "pitacor", *names: str) -> Log:
    room_log = Log(game)
    for name in names or ("Ana",):
        room_log.fold(records.Joined(at=1, player=name.lower(), nickname=name))
    return room_log


def test_the_host_adds_a_bot_with_a_name_a_colour_and_a_bot_mark():
    room_log = _with_people("pitacor", "Ana")
    first, second = room_log.add_bot(), room_log.add_bot(level="beginner")
    assert first.nickname in NAMES and second.nickname in NAMES
    assert first.nickname != second.nickname
    seats = views.lobby_view(room_log.room)["seats"]
    assert [(s["bot"], s["level"], s["colour"]) for s in seats] == [
        (False, None, 0),
        (True, "good", 1),
        (True, "beginner", 2),
    ]
    assert first.bot_language == "es"


def test_only_the_host_adds_or_removes_bots_and_only_in_the_lobby():
    room_log = _with_people("pitacor", "Ana", "Bo")
    bot = room_log.add_bot()
    assert _refused(room_log, records.BotAdded(3, "bo", "bot-1", "Zed", "good", "en")) == (
        "room.host_only"
    )
    assert _refused(room_log, records.BotRemoved(3, "bo", bot.player)) == "room.host_only"
    assert _refused(room_log, records.BotRemoved(3, "ana", "bo")) == "bot.not_a_bot"
    assert _refused(room_log, records.BotAdded(3, "ana", "bot-2", "Zed", "expert", "en")) == (
        "bot.level"
    )
    assert _refused(room_log, records.BotAdded(3, "ana", "bot-2", "Zed", "good", "fr")) == (
        "bot.language"
    )
    room_log.fold(records.MatchStarted(at=4, by="ana", seed=7))
    assert _refused(room_log, records.BotAdded(5, "ana", "bot-3", "Zed", "good", "en")) == (
        "room.not_in_lobby"
    )
    assert _refused(room_log, records.BotRemoved(5, "ana", bot.player)) == "room.not_in_lobby"


def test_pinto_has_no_computer_players():
    room_log = _with_people("pinto", "Ana")
    code = _refused(room_log, records.BotAdded(2, "ana", "bot-1", "Zed", "good", "en"))
    assert code == "bot.no_bots"
    assert views.lobby_view(room_log.room)["bots"] is False


def test_choosing_pinto_sends_the_bots_away():
    room_log = _with_people("haiclue", "Ana")
    room_log.add_bot()
    room_log.fold(records.GameChosen(at=5, by="ana", game="pinto"))
    assert [s.nickname for s in room_log.room.seats] == ["Ana"]


def test_a_full_room_takes_no_more_bots():
    room_log = _with_people("haiclue", "Ana")
    while len(room_log.room.players()) < GAMES["haiclue"].MAX_PLAYERS:
        room_log.add_bot()
    player, nickname = new_bot(room_log.room)
    record = records.BotAdded(9, "ana", player, nickname, "good", "en")
    assert _refused(room_log, record) == "room.full"


def test_bots_count_towards_the_minimum_and_play_in_the_match():
    """Pitacor needs three players: one person and two bots can start."""
    room_log = _with_people("pitacor", "Ana")
    bots = [room_log.add_bot(), room_log.add_bot()]
    room_log.fold(records.MatchStarted(at=5, by="ana", seed=3))
    match_ids = {p.id for p in room_log.room.match.members}
    assert match_ids == {"ana", *(b.player for b in bots)}


def test_bots_persist_in_the_log_replay_seats_them_again():
    room_log = _with_people("pitacor", "Ana")
    room_log.add_bot()
    gone = room_log.add_bot(level="beginner")
    room_log.add_bot()
    room_log.fold(records.BotRemoved(at=9, by="ana", player=gone.player))
    rebuilt = room_log.replayed()
    assert views.lobby_view(rebuilt) == views.lobby_view(room_log.room)
    assert [s.bot_language for s in rebuilt.seats] == ["en", "es", "es"]


def test_a_bot_never_hosts():
    room_log = _with_people("pitacor", "Ana")
    room_log.add_bot()
    room_log.fold(records.Joined(at=3, player="bo", nickname="Bo"))
    room_log.fold(records.Left(at=4, player="ana"))
    assert room_log.room.host == "bo"
    room_log.fold(records.Left(at=5, player="bo"))
    assert room_log.room.host is None  # nobody left to host; the next person to join will


def _dropped_match() -> tuple[Log, room_data.Seat]:
    room_log = _with_people("pitacor", "Ana", "Bo")
    room_log.add_bot()
    room_log.fold(records.MatchStarted(at=5, by="ana", seed=3))
    room_log.fold(records.Presence(at=6, player="bo", online=False))
    return room_log, room_log.room.seat("bo")


def test_the_host_hands_a_dropped_seat_to_a_bot_and_the_player_takes_it_back():
    room_log, bo = _dropped_match()
    assert _refused(room_log, records.StandIn(7, "ana", "ana", "good", "en")) == "bot.player_here"
    assert _refused(room_log, records.StandIn(7, "bo", "bo", "good", "en")) == "room.host_only"
    room_log.fold(records.StandIn(at=7, by="ana", player="bo", level="good", language="en"))
    assert bo.played_by_bot == "good" and not bo.online
    in_match = next(p for p in room_log.room.match.members if p.id == "bo")
    assert in_match.online  # the game waits for the seat again: its bot is there
    assert views.lobby_view(room_log.room)["seats"][1]["stand_in"] == "good"
    code = _refused(room_log, records.StandIn(8, "ana", "bo", "good", "en"))
    assert code == "bot.already_standing_in"
    room_log.fold(records.Presence(at=9, player="bo", online=True))  # Bo is back
    assert bo.played_by_bot is None and bo.online
    assert views.lobby_view(room_log.replayed()) == views.lobby_view(room_log.room)


def test_a_stand_in_lasts_for_the_match_only():
    room_log, bo = _dropped_match()
    room_log.fold(records.StandIn(at=7, by="ana", player="bo", level="good", language="en"))
    room_log.room.status = room_data.Status.ENDED  # (as if the match had ended)
    room_log.fold(records.Rematched(at=8, by="ana"))
    assert bo.stand_in is None and not bo.online


def test_a_stand_in_needs_a_match():
    room_log = _with_people("pitacor", "Ana", "Bo")
    room_log.fold(records.Presence(at=6, player="bo", online=False))
    assert _refused(room_log, records.StandIn(7, "ana", "bo", "good", "en")) == "room.no_match"


def test_bot_records_round_trip_through_the_log_format():
    record = records.BotAdded(1.0, "ana", "bot-abc", "Nova", "good", "pl")
    assert records.record_decoder.decode(msgspec.json.encode(record)) == record


def test_a_snapshot_keeps_the_bots_and_stand_ins():
    room_log, _ = _dropped_match()
    room_log.fold(records.StandIn(at=7, by="ana", player="bo", level="beginner", language="pl"))
    restored = restore("BQTR", False, snapshot_of(room_log.room), GAMES)
    assert restored is not None
    assert views.lobby_view(restored) == views.lobby_view(room_log.room)
    assert restored.seat("bo").played_by_bot == "beginner"
