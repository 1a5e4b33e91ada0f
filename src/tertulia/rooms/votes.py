"""Votes to remove a player: the table's moderation where the host is not enough (a public
room's host may be the one spoiling the game, or away). Pure folds, in ``model.py``'s fold
table with every other record's; the live room runs the vote's clock and closes a vote whose
outcome is decided (``Room._watch_vote``), each by a logged ``VoteClosed``, so a replay
decides exactly as the room did.

The rules (docs/protocol.md, "Votes to remove"):

- Votes are open in a public room, and in a private one whose host allows them
  (``allow_votes``, in the lobby).
- Any player here (not a spectator, not a computer player) may start one against anyone else
  in the room but a computer player, with one of ``REASONS``. Who decides: the people
  playing here when it starts, but the two (a player whose drop grace has run out is not
  here); at least one.
- One vote at a time in a room. A starter waits ``COOLDOWN_SECONDS`` after their vote ended
  before starting another; a player a vote kept may not be voted on again for as long; and
  the target of a vote may not start one against its starter for as long either (no vote
  against the host "during", nor straight after, "a vote the host started").
- The player is removed once more than half the voters say yes; the vote ends as soon as
  that can no longer happen (a tie keeps the player), and keeps them when its clock runs out.
  A voter who leaves the room is struck off, with their ballot; one who drops stays a voter
  (they may be back in time). The target leaving, or being kicked, ends it (``gone``): no
  bar then. The starter leaving changes nothing.
- A removed player leaves as if kicked (a match hears ``base.Leave``), and may not join the
  room again for ``BAR_SECONDS`` (``model.check_new``); the live room also keeps their
  addresses out for a while (``Room``, not logged: an address is not the player's).
- While a vote against the host runs, the host may not kick anyone (``model.check_new``).
"""

from __future__ import annotations

import math

from ..games.base import Event, RuleError
from .departures import remove_seat
from .records import NameHidden, VoteClosed, Voted, VotesAllowed, VoteStarted
from .refusals import not_in_room
from .room_data import RoomModel, Status, Vote, require_host, require_lobby

REASONS = ("spoiling", "offensive", "cheating", "away")
VOTE_SECONDS = 30.0  # the live room writes it into each VoteStarted (``RoomConfig``)
COOLDOWN_SECONDS = 120.0
# A removed player's identity may not join the room again for an hour: longer than a match
# of any of our games lasts with its default settings, so the match they were removed from
# is over (and usually the next one too), yet not for good like the host's kick, because
# strangers' votes can be wrong; a public room lives as long as anyone is in it.
BAR_SECONDS = 3600.0


def votes_open(room: RoomModel) -> bool:
    """Whether a vote may be started in this room."""
    return room.public or room.votes.allowed


def votes_allowed(room: RoomModel, r: VotesAllowed) -> list[Event]:
    """A private room's host allows votes, or stops allowing them (a vote running goes on)."""
    require_host(room, r.by)
    require_lobby(room)
    if room.public and not r.allow:
        raise RuleError(
            "settings.public_forced",
            "Public rooms always keep this setting as it is.",
            field="votes",
        )
    room.votes.allowed = r.allow
    return [Event("room.votes", {"allowed": votes_open(room)})]


def name_hidden(room: RoomModel, r: NameHidden) -> list[Event]:
    """A player asks that a match's page not show their name should they be removed from the
    room during it (or takes it back)."""
    seat = room.seat(r.player)
    if seat is None:
        raise not_in_room()
    seat.hide_name = r.hide
    return []


def vote_started(room: RoomModel, r: VoteStarted) -> list[Event]:
    book = room.votes
    if not votes_open(room):
        raise RuleError("removal.not_allowed", "The host has not allowed votes in this room.")
    starter = room.seat(r.by)
    if starter is None or starter.spectator or starter.bot is not None:
        raise RuleError("removal.not_a_player", "Only the players can vote.")
    target = room.seat(r.player)
    if target is None or target.bot is not None or r.player == r.by:
        raise RuleError("removal.bad_target", "You can't start a vote against them.")
    if r.reason not in REASONS:
        raise RuleError("removal.reason", "That is not one of the reasons.", reason=r.reason)
    if book.running is not None:
        raise RuleError("removal.running", "A vote is already running; wait for it to end.")
    _forget_past(book.starters, r.at)
    _forget_past(book.kept, r.at)
    _forget_past(book.retaliation, r.at)
    if r.by in book.starters:
        raise RuleError(
            "removal.cooldown",
            "You started a vote a moment ago; wait a little.",
            seconds=_seconds_until(book.starters[r.by], r.at),
        )
    if r.player in book.kept:
        raise RuleError(
            "removal.recently_kept",
            "A vote has just kept this player; wait a little.",
            seconds=_seconds_until(book.kept[r.player], r.at),
        )
    if f"{r.by} {r.player}" in book.retaliation:
        raise RuleError(
            "removal.retaliation",
            "They have just started a vote against you; wait a little.",
            seconds=_seconds_until(book.retaliation[f"{r.by} {r.player}"], r.at),
        )
    voters = [
        s.player
        for s in room.players()
        if s.bot is None and s.online and s.player not in (r.by, r.player)
    ]
    if not voters:
        raise RuleError("removal.too_few", "There is nobody else here to decide.")
    book.held += 1
    book.running = Vote(book.held, r.by, r.player, r.reason, r.at + r.seconds, voters)
    data = {"vote": book.held, "by": r.by, "player": r.player, "reason": r.reason}
    return [Event("removal.started", data)]


def voted(room: RoomModel, r: Voted) -> list[Event]:
    vote = room.votes.running
    if vote is None:
        raise RuleError("removal.none", "No vote is running.")
    if r.player not in vote.voters:
        raise RuleError("removal.not_voter", "You are not one of this vote's voters.")
    if r.player in vote.ballots:
        raise RuleError("removal.already_voted", "You have already voted.")
    vote.ballots[r.player] = r.yes
    return [Event("removal.cast", {"vote": vote.number, "player": r.player})]  # not how


def decided(vote: Vote) -> str | None:
    """``removed`` once more than half the voters said yes, ``kept`` once that can no longer
    happen (a tie keeps), else None."""
    voters, yes = len(vote.voters), sum(vote.ballots.values())
    undecided_or_yes = voters - (len(vote.ballots) - yes)
    if 2 * yes > voters:
        return "removed"
    if 2 * undecided_or_yes <= voters:
        return "kept"
    return None


def vote_closed(room: RoomModel, r: VoteClosed) -> list[Event]:
    """The room closes the vote: decided, or its clock ran out (then undecided keeps)."""
    vote = room.votes.running
    if vote is None or vote.number != r.vote or vote.player != r.player:
        raise RuleError("removal.none", "No vote is running.")
    result = decided(vote)
    if result is None:
        if r.at < vote.deadline:
            raise RuleError("removal.open", "The vote is still open.")
        result = "kept"
    events: list[Event] = []
    if result == "removed":  # (first: the game's leave is the one step that may refuse)
        seat = room.seat(vote.player)
        hide = seat is not None and seat.hide_name and room.status is Status.PLAYING
        events = remove_seat(room, vote.player, r.at)
        if hide:
            room.hidden_names.add(vote.player)
        room.votes.barred[vote.player] = r.at + BAR_SECONDS
    return [*events, *_end(room, vote, result, r.at)]


def someone_left(room: RoomModel, player: str, at: float) -> list[Event]:
    """``player`` is out of the room (left, kicked, voted out): a vote against them ends
    (``gone``); a voter is struck off, with their ballot (the room then sees whether that
    decides it)."""
    vote = room.votes.running
    if vote is None:
        return []
    if vote.player == player:
        return _end(room, vote, "gone", at)
    if player in vote.voters:
        vote.voters.remove(player)
        vote.ballots.pop(player, None)
    return []


def _end(room: RoomModel, vote: Vote, result: str, at: float) -> list[Event]:
    book = room.votes
    book.running = None
    book.starters[vote.by] = at + COOLDOWN_SECONDS
    book.retaliation[f"{vote.player} {vote.by}"] = at + COOLDOWN_SECONDS
    if result == "kept":
        book.kept[vote.player] = at + COOLDOWN_SECONDS
    yes = sum(vote.ballots.values())
    data = {
        "vote": vote.number,
        "player": vote.player,
        "reason": vote.reason,
        "result": result,
        "yes": yes,
        "no": len(vote.ballots) - yes,
        "voters": len(vote.voters),
    }
    return [Event("removal.ended", data)]


def barred_for(room: RoomModel, player: str, at: float) -> float | None:
    """Seconds until ``player``, voted out, may join again (None: they may)."""
    until = room.votes.barred.get(player)
    return until - at if until is not None and until > at else None


def vote_view(room: RoomModel) -> dict | None:
    """The vote running, as everyone in the room sees it: who has voted, never how."""
    vote = room.votes.running
    if vote is None:
        return None
    return {
        "vote": vote.number,
        "by": vote.by,
        "player": vote.player,
        "reason": vote.reason,
        "deadline": vote.deadline,
        "voters": list(vote.voters),
        "voted": [p for p in vote.voters if p in vote.ballots],
    }


def _forget_past(times: dict[str, float], at: float) -> None:
    for key in [k for k, until in times.items() if until <= at]:
        del times[key]


def _seconds_until(until: float, at: float) -> int:
    return max(1, math.ceil(until - at))
