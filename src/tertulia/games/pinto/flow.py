"""How a Pintó round moves along: the category, phase B's end, the judging one artist at a
time, the scores, the end of the match. Called by the handlers in ``rules.py`` (which work on
a copy of the state, so a refused action changes nothing)."""

from __future__ import annotations

import msgspec

from ...text.normalize import tidy
from .. import base
from ..base import Event, set_clock
from . import categories, judging
from .settings import FirstArtist, Matching
from .state import Clock, Judgement, PastRound, Phase, State, Work
from .state import Player as Seat

# Fixed facts of the game.
NAME = __package__.rpartition(".")[2]  # a game's name is its folder's name
MIN_PLAYERS = 3
MAX_PLAYERS = 8
# The match version (``rules.VERSION``) from which the podium counts a round the match ended
# in for the tie-break and ranks a player who left after those still in, never a winner,
# and phase B with everyone away waits for them.
LEAVERS = 2
EMPTY_TABLE_WAITS = LEAVERS
# From match version 3, in the first round of a match with first-timers, a drawing voided
# before the judging is never where it starts: the judging skips it, and the next in line
# could be a first-timer (``begin_judging``).
VOIDED_NEVER_FIRST = 3


def deck_of(state: State) -> list[str]:
    """ "Shuffle the category deck": ours in the match's language plus the host's own."""
    names = [c.name for c in categories.load(state.settings.language.value)]
    names += [tidy(c) for c in state.settings.custom_categories if tidy(c)]
    state.rng.shuffle(names)
    return names


def forms_of(state: State, name: str) -> list[str]:
    for category in categories.load(state.settings.language.value):
        if category.name == name:
            return list(category.forms)
    return list(categories.custom(name).forms)


def begin_round(state: State, now: float, events: list[Event]) -> None:
    """ "Reveal the card from the top of the deck ... the category for this round." """
    if not state.deck:
        state.deck = deck_of(state)
    state.category = state.deck.pop(0)
    state.category_forms = forms_of(state, state.category)
    state.phase = Phase.CREATE
    state.round_players = [p.id for p in state.players if not p.left]
    state.works = {seat: Work() for seat in state.round_players}
    state.artists, state.judgements, state.judging = [], [], 0
    events.append(Event("round.started", {"round": state.round, "category": state.category}))
    set_clock(state, Clock.DRAWING, state.settings.drawing_seconds, now)


def is_done(state: State, seat: str) -> bool:
    """Finished phase B: drawing revealed and every other drawing interpreted (or its artist
    gone without revealing)."""
    work = state.works[seat]
    if work.drawing is None:
        return False
    for other in state.round_players:
        if other == seat:
            continue
        if state.works[other].drawing is not None:
            if other not in work.interpretations:
                return False
        elif present(state, other):
            return False  # still waiting for that drawing
    return True


def finish_creating_if_done(state: State, now: float, events: list[Event]) -> None:
    """ "Once everyone has finished phase B" — everyone who is here. From match version 2, a
    table where nobody is here waits (for someone back, or the clock) rather than ending
    phase B at once with nothing drawn (``EMPTY_TABLE_WAITS``)."""
    here = [p for p in state.round_players if present(state, p)]
    if not here and state.version >= EMPTY_TABLE_WAITS:
        return
    if state.phase is Phase.CREATE and all(is_done(state, p) for p in here):
        begin_judging(state, now, events)


def begin_judging(state: State, now: float, events: list[Event]) -> None:
    """ "choose who starts being the artist" then clockwise.

    Whatever a player was still typing counts: a draft is newer than any saved reading of the
    same drawing (saving one clears the draft), so it is the reading on their screen."""
    for work in state.works.values():
        for artist, text in work.drafts.items():
            work.interpretations[artist] = text
            keep_mark(work.marks, artist, work.draft_marks.get(artist))
        work.drafts, work.draft_marks = {}, {}
    order = [p for p in state.round_players if state.works[p].drawing is not None]
    if order:
        # The first artist is never a first-timer in the first round (``base.first_turn``):
        # at random, or the first in the host's order who is not new.
        random = state.settings.first_artist is FirstArtist.RANDOM
        not_first = state.newcomers if state.round == 1 else ()
        if not_first and state.version >= VOIDED_NEVER_FIRST:
            # A voided drawing is skipped, so starting there would make the one after it,
            # perhaps a first-timer, the first judged: start among the others instead.
            not_first = [*not_first, *(p for p in order if state.works[p].void)]
        first = base.first_turn(order, not_first, state.rng if random else None)
        order = order[first:] + order[:first]
    state.phase = Phase.JUDGE
    state.artists = order
    state.judging = -1
    state.judgements = []
    events.append(Event("judging.started", {"order": list(order)}))
    next_artist(state, now, events)


def next_artist(state: State, now: float, events: list[Event]) -> None:
    state.judging += 1
    while state.judging < len(state.artists) and state.works[state.artists[state.judging]].void:
        state.judging += 1
    if state.judging >= len(state.artists):
        end_round(state, now, events)
        return
    artist = state.artists[state.judging]
    at = state.round_players.index(artist)
    clockwise = state.round_players[at + 1 :] + state.round_players[:at]
    opponents = [p for p in clockwise if not has_left(state, p)]
    title = state.works[artist].title or ""
    marks = {seat: mark_at_judging(state, state.works[seat], artist) for seat in opponents}
    state.judgements.append(Judgement(artist, opponents, marks))
    events.append(Event("artist.up", {"artist": artist, "title": title}))
    set_clock(state, Clock.JUDGING, state.settings.judging_seconds, now)


def mark_of(state: State, artist: str, text: str) -> judging.Mark | None:
    """The judge's mark of ``text`` (tidied) as an interpretation of ``artist``'s drawing, or
    None if that drawing has no title to match yet. Asked when the interpretation is sent
    live: the title is final by then (a revealed drawing's title is locked), and so are the
    match's language and matching."""
    work = state.works.get(artist)
    if work is None or work.title is None:
        return None
    language = state.settings.language.value
    perfect = state.settings.matching is Matching.PERFECT
    return judging.premark(work.title, text, language, perfect)


def keep_mark(marks: dict[str, judging.Mark], artist: str, mark: judging.Mark | None) -> None:
    """Keep ``mark`` as the mark of the text just kept for ``artist``; None (a move of a log
    saved before marks were kept) forgets any older one, which was about another text."""
    if mark is None:
        marks.pop(artist, None)
    else:
        marks[artist] = mark


def mark_at_judging(state: State, work: Work, artist: str) -> judging.Mark:
    """The automatic mark of ``work``'s interpretation of ``artist``'s drawing: the one the
    judge gave when it was sent (kept in the log: a replay never asks the judge again). Only
    an interpretation from a log saved before marks were kept has none: it is judged now, as
    it was then. A blank is wrong by the rule itself, judge or not."""
    text = work.interpretations.get(artist, "")
    if not text.strip():
        return judging.Mark(False, "blank")  # "If you didn't write any interpretation ..."
    kept = work.marks.get(artist)
    if kept is not None:
        return kept
    title = state.works[artist].title or ""
    language = state.settings.language.value
    perfect = state.settings.matching is Matching.PERFECT
    return judging.premark(title, text, language, perfect)


def score_current(state: State, now: float, events: list[Event]) -> None:
    judgement = current(state)
    assert judgement is not None
    judgement.points = drawing_points(judgement.artist, judgement.marks)
    judgement.done = True
    for player in state.players:
        player.score += judgement.points.get(player.id, 0)
    events.append(
        Event("drawing.scored", {"artist": judgement.artist, "points": dict(judgement.points)})
    )
    next_artist(state, now, events)


def drawing_points(artist: str, marks: dict[str, judging.Mark]) -> dict[str, int]:
    """ "If SOME guessed right, the artist and those who guessed right gain 1 point for each
    player who didn't guess right. If EVERYONE guessed right, those who guessed right gain 1
    point each and the artist gains nothing. If NO ONE guessed right, ... the artist loses 1
    point." """
    right = [seat for seat, mark in marks.items() if mark.right]
    wrong = len(marks) - len(right)
    if not right:
        return {artist: -1}
    if not wrong:
        return {seat: 1 for seat in right}
    return {artist: wrong, **{seat: wrong for seat in right}}


def _points_this_round(state: State) -> dict[str, int]:
    """Each player's points from the drawings judged so far this round."""
    gained = {player.id: 0 for player in state.players}
    for judgement in state.judgements:
        for seat, points in judgement.points.items():
            gained[seat] += points
    return gained


def end_round(state: State, now: float, events: list[Event]) -> None:
    """ "The round ends once all drawings have been evaluated." """
    gained = _points_this_round(state)
    for player in state.players:
        player.round_scores.append(gained[player.id])
    state.history.append(state.judgements)
    state.past.append(past_round(state))
    events.append(Event("round.ended", {"round": state.round, "points": gained}))
    if state.round >= state.settings.rounds:
        end_match(state, "rounds_played", events)
        return
    state.round += 1
    begin_round(state, now, events)


def past_round(state: State, *, strokes: bool = True) -> PastRound:
    """This round as every view may show it from now on: the titles and interpretations of
    the drawings that were judged (all shown at their judging), and every revealed drawing.
    ``strokes=False`` leaves each drawing's strokes empty (a view names drawings only)."""
    judged = [j.artist for j in state.judgements]
    return PastRound(
        round=state.round,
        category=state.category,
        titles={a: state.works[a].title or "" for a in judged},
        interpretations={
            j.artist: {r: state.works[r].interpretations.get(j.artist, "") for r in j.order}
            for j in state.judgements
        },
        drawings={
            a: msgspec.msgpack.encode(w.drawing) if strokes else b""
            for a, w in state.works.items()
            if w.drawing is not None
        },
        void=[a for a, w in state.works.items() if w.void],
        judgements=list(state.judgements),
    )


def end_match(state: State, reason: str, events: list[Event]) -> None:
    """ "Whoever has the most points wins ... In case of a tie, the player who gained the most
    points in a single round wins. If the tie persists, victory is shared." """
    state.phase = Phase.ENDED
    base.finish_match(state, reason, ranking(state), events)


def ranking(state: State) -> list[base.Placing]:
    """Most points first; equal points: the best single round first; equal in both: shared.
    From match version 2 (``LEAVERS``), a round the match ended in counts as a round for the
    tie-break, and a player who left is ranked after those still in, never a winner."""
    rows = [(p.id, p.nickname, p.score) for p in state.players]
    if state.version < LEAVERS:  # matches started before end as they did
        best = {p.id: max(p.round_scores, default=0) for p in state.players}
        return base.rank(rows, tiebreak=best)
    rounds = {p.id: list(p.round_scores) for p in state.players}
    if len(state.history) < state.round:  # ended mid-round: its points so far are a round
        for seat, points in _points_this_round(state).items():
            rounds[seat].append(points)
    best = {seat: max(scores, default=0) for seat, scores in rounds.items()}
    return base.rank_leavers_last(rows, {p.id for p in state.players if p.left}, tiebreak=best)


# Who plays: 3 to 8 players; a newcomer plays from the next round (``rules.join``).
SEATS: base.Seating[State, Seat] = base.Seating(
    lambda state: state.players, MIN_PLAYERS, MAX_PLAYERS, Phase.ENDED, end_match
)
find = SEATS.find  # the player a seat names, also one who has left; None: a spectator


def present(state: State, seat: str) -> bool:
    return base.is_here(find(state, seat))


def has_left(state: State, seat: str) -> bool:
    return not base.is_playing(find(state, seat))


def current(state: State) -> Judgement | None:
    """The drawing being judged now, if any."""
    if state.phase is Phase.JUDGE and state.judgements and not state.judgements[-1].done:
        return state.judgements[-1]
    return None
