"""What one seat may see of a Pintó match.

- A title stays on its author's screen until its drawing is judged.
- A drawing is seen by everyone once revealed (and by its artist while drawing, on their own
  device: the server never has a drawing before it is revealed).
- Interpretations of a drawing are seen only when it is judged (each author sees their own,
  and their drafts).
- Every round that is over stays whole in every view (``past_rounds``: titles, interpretations,
  marks, points, drawings), all of it revealed at its judging: a reload keeps it, and the end
  of the match can show every round (its album); a round the end of the match cut short
  is in it with the drawings judged before the end.
- A disputed mark's vote shows who has voted, not how, until it is decided.
"""

from __future__ import annotations

from collections.abc import Set
from typing import Any

import msgspec

from .. import base
from .drawing import Stroke
from .flow import past_round, present
from .marks import participants
from .rules import NAME, current, find, is_done, may_chat
from .state import Dispute, Interpret, Judgement, PastRound, Phase, PintoAction, Player, State


def view(state: State, seat: str | None) -> dict[str, Any]:
    playing = base.is_playing(find(state, seat)) and seat in state.works
    mine = state.works[seat] if playing and seat is not None else None
    judged = {j.artist for j in state.judgements}
    return {
        "game": NAME,
        "phase": state.phase.value,
        "round": state.round,
        "rounds": state.settings.rounds,
        "category": state.category,
        "players": [_player(state, p.id) for p in state.players],
        "my_title": mine.title if mine else None,
        "my_interpretations": dict(mine.interpretations) if mine else {},
        "my_drafts": dict(mine.drafts) if mine else {},
        # The strokes travel once per connection as blobs (see blobs() below).
        "drawings": {
            artist: {"blob": _blob_key(state, artist), "flags": list(work.flags), "void": work.void}
            for artist, work in state.works.items()
            if work.drawing is not None
        },
        "judging": _judgement(state, judging) if (judging := current(state)) else None,
        "judged": [_judgement(state, j) for j in state.judgements if j.done],
        "titles": {a: state.works[a].title for a in judged},
        "last_round": _past(state, state.past[-1])["judged"] if state.past else [],
        "past_rounds": [_past(state, past) for past in _rounds_over(state)],
        "host": state.host,
        "clock": state.clock.value,
        "deadline": state.deadline,
        "ranking": [
            {
                "seat": p.seat,
                "nickname": p.nickname,
                "score": p.score,
                "place": p.place,
                "winner": p.winner,
                "best_round": max(_known(state, p.seat).round_scores, default=0),
            }
            for p in state.outcome.ranking
        ]
        if state.outcome
        else None,
        "end_reason": state.end_reason or None,
        "you": _you(state, seat, playing),
    }


def blobs(state: State, seat: str | None, known: Set[str] = frozenset()) -> dict[str, Any]:
    """Revealed drawings by key: public, unchanging once revealed, and large — so the room
    sends each one once per connection instead of in every view. Only those not ``known``
    are built: the room asks at every push, and a drawing can hold 30,000 points."""
    fresh = {}
    for artist, work in state.works.items():
        if work.drawing is not None and (key := _blob_key(state, artist)) not in known:
            fresh[key] = [_stroke(s) for s in work.drawing]
    for past in state.past:  # a past round's drawings: a reload (a new connection) gets them
        for artist, encoded in past.drawings.items():
            if (key := _blob_key(state, artist, past.round)) not in known:
                strokes = _strokes_decoder.decode(encoded)
                fresh[key] = [_stroke(s) for s in strokes]
    return fresh


_strokes_decoder = msgspec.msgpack.Decoder(list[Stroke])


def _blob_key(state: State, artist: str, round_: int | None = None) -> str:
    return f"drawing:{round_ if round_ is not None else state.round}:{artist}"


def _rounds_over(state: State) -> list[PastRound]:
    """Every round that is over. A match that ends during a round (too few players left)
    ends that round too: the album of the end keeps the drawings judged in it (a drawing
    never judged keeps its title and readings hidden, as ``past_round`` does)."""
    cut_short = (
        state.phase is Phase.ENDED
        and (not state.past or state.past[-1].round != state.round)
        and any(j.done for j in state.judgements)
    )
    # Its strokes are not needed here: the view names drawings by blob key, and this round's
    # blobs are sent from its works (``blobs``).
    return [*state.past, past_round(state, strokes=False)] if cut_short else state.past


def _past(state: State, past: PastRound) -> dict[str, Any]:
    """A round that is over: everything in it was revealed when it was judged."""
    return {
        "round": past.round,
        "category": past.category,
        "drawings": {
            artist: {"blob": _blob_key(state, artist, past.round), "void": artist in past.void}
            for artist in past.drawings
        },
        "judged": [
            _judgement(
                state,
                j,
                title=past.titles.get(j.artist),
                interpretations=past.interpretations.get(j.artist, {}),
            )
            for j in past.judgements
            if j.done
        ],
    }


def _known(state: State, seat: str) -> Player:
    """A player the match has had (the ranking's, the players' list's)."""
    player = find(state, seat)
    assert player is not None  # every seat ranked or listed is one of its players
    return player


def _player(state: State, seat: str) -> dict[str, Any]:
    player = _known(state, seat)
    work = state.works.get(seat)
    others = [p for p in state.round_players if p != seat]
    progress = None
    if work is not None:
        progress = {
            "titled": work.title is not None,
            "revealed": work.drawing is not None,
            "interpreted": sum(1 for p in others if p in work.interpretations),
            "of": len(others),
            "done": is_done(state, seat),
        }
    return base.seat_view(player, round_scores=list(player.round_scores), progress=progress)


def _stroke(stroke) -> dict[str, Any]:
    return {"colour": stroke.colour, "size": stroke.size, "points": stroke.points}


def _judgement(
    state: State,
    judgement: Judgement,
    *,
    title: str | None = None,
    interpretations: dict[str, str] | None = None,
) -> dict[str, Any]:
    """One drawing being judged or judged (this round's from its works; a past round's from
    what it kept)."""
    if interpretations is None:
        works = state.works
        title = works[judgement.artist].title if judgement.artist in works else None
        interpretations = {
            seat: works[seat].interpretations.get(judgement.artist, "")
            for seat in judgement.order
            if seat in works
        }
    return {
        "artist": judgement.artist,
        "title": title,
        "order": list(judgement.order),
        "interpretations": dict(interpretations),
        "marks": {
            seat: {"right": m.right, "reason": m.reason} for seat, m in judgement.marks.items()
        },
        "points": dict(judgement.points),
        "done": judgement.done,
        "disputes": [_dispute(state, d) for d in judgement.disputes],
        "accepted": list(judgement.accepted),
    }


def _dispute(state: State, dispute: Dispute) -> dict[str, Any]:
    """Who may vote and who has; how they voted only once it is decided."""
    votes = list(dispute.votes.values())
    return {
        "seat": dispute.seat,
        "by": dispute.by,
        "voters": list(dispute.voters),
        "host_decides": not dispute.voters,
        "voted": list(dispute.votes),
        "decided": dispute.decided,
        "right": dispute.right,
        "yes": sum(votes) if dispute.decided else None,
        "no": len(votes) - sum(votes) if dispute.decided else None,
    }


def _you(state: State, seat: str | None, playing: bool) -> dict[str, Any]:
    if not playing or seat is None:  # (a spectator's seat is None)
        return base.you(seat, "waiting" if find(state, seat) is not None else "spectator")
    work = state.works[seat]
    to_do = None
    if state.phase is Phase.CREATE:
        if work.title is None:
            to_do = "write_title"
        elif work.drawing is None:
            to_do = "draw"
        elif not is_done(state, seat):
            to_do = "interpret"
    elif state.phase is Phase.JUDGE:
        to_do = _judging_to_do(state, seat)
    return base.you(seat, "player", may_chat(state, seat), to_do)


def _judging_to_do(state: State, seat: str) -> str | None:
    """ "vote": a disputed mark waits for this seat's vote; "check_marks": this seat has not
    yet accepted the marks (or disputed what it disagrees with)."""
    judgement = current(state)
    if judgement is None or seat not in participants(state, judgement):
        return None
    for dispute in judgement.disputes:
        if dispute.decided or seat in dispute.votes:
            continue
        if seat in dispute.voters or (not dispute.voters and seat == state.host):
            return "vote"
    if seat not in judgement.accepted and present(state, seat):
        return "check_marks"
    return None


def views_changed_by(seat: str | None, action: PintoAction) -> frozenset[str] | None:
    """Whose views an accepted ``action`` by ``seat`` can change, if not everyone's.

    A draft is seen by its author alone and counts for nothing until phase B ends, and it is
    sent while somebody types: the other seats' views stay exactly as they were."""
    if isinstance(action, Interpret) and action.draft and seat is not None:
        return frozenset({seat})
    return None
