"""Who is new to a game, as the room knows it: what the browser said it had played when it
joined, and every game of a match played to its end here (issue 29, "Teaching first-timers").
A first-timer is never the first clue giver (the game decides, from ``Player.new``)."""

from __future__ import annotations

from tertulia.games import GAMES
from tertulia.rooms import model, records, room_data


def _room(people: dict[str, list[str]], bots: int = 0) -> room_data.RoomModel:
    room = room_data.new_room("BQTR", False, "pitacor", GAMES)
    for name, played in people.items():
        model.fold(room, records.Joined(at=1, player=name, nickname=name.title(), played=played))
    host = next(iter(people))
    for n in range(bots):
        model.fold(room, records.BotAdded(2, host, f"bot-{n}", f"Bot {n}", "good", "en"))
    return room


def test_a_seat_is_new_to_a_game_its_browser_had_not_played():
    room = _room({"ana": ["pitacor", "haiclue"], "bo": [], "cy": ["not-a-game"] * 1000})
    assert not room.seat("ana").new_to("pitacor")
    assert room.seat("bo").new_to("pitacor") and room.seat("bo").new_to("haiclue")
    assert room.seat("cy").played == []  # only this server's games are kept, each once


def test_a_computer_player_is_never_new():
    room = _room({"ana": []}, bots=2)
    assert [s.new_to("pitacor") for s in room.seats] == [True, False, False]


def test_with_computer_players_a_first_timer_never_gives_the_first_clue():
    """ "a first-timer via Play now … is not the first giver" """
    for seed in range(30):
        room = _room({"ana": []}, bots=2)
        model.fold(room, records.MatchStarted(at=3, by="ana", seed=seed, version=1))
        assert room.match.round.giver != "ana"


def test_a_match_played_to_its_end_makes_everyone_in_it_no_longer_new():
    room = _room({"ana": [], "bo": ["pitacor"], "cy": []})
    model.fold(room, records.MatchStarted(at=3, by="ana", seed=1, version=1))
    for player in ("bo", "cy"):  # two leave: too few players, the match ends
        model.fold(room, records.Left(at=4, player=player))
    assert room.status is room_data.Status.ENDED
    assert not room.seat("ana").new_to("pitacor")


def test_a_public_rooms_line_says_whether_a_stranger_plays_or_watches():
    """ "Words on buttons say what happens": a room already playing offers "Watch" (and
    "Join next round" where the game allows), not "Join"."""
    from tertulia.rooms.views import summary

    room = _room({"ana": [], "bo": [], "cy": []})
    assert summary(room, 3).joining == "play"
    model.fold(room, records.MatchStarted(at=3, by="ana", seed=1, version=1))
    assert summary(room, 3).joining == "next_round"  # Pitacor: "you play from the next round"
    haiclue = room_data.new_room("HAIC", True, "haiclue", GAMES)
    for name in ("ana", "bo", "cy"):
        model.fold(haiclue, records.Joined(at=1, player=name, nickname=name.title()))
    model.fold(haiclue, records.MatchStarted(at=3, by="ana", seed=1, version=2))
    assert summary(haiclue, 3).joining == "watch"  # tiles are dealt at the start
