"""What one seat may see of a Pintó match.

- A title stays on its author's screen until its drawing is judged.
- A drawing is seen by everyone once revealed (and by its artist while drawing, on their own
  device: the server never has a drawing before it is revealed).
- Interpretations of a drawing are seen only when it is judged (each author sees their own,
  and their drafts).
"""

from __future__ import annotations

from collections.abc import Set
from typing import Any

from .. import base
from .rules import NAME, current, find, is_done, may_chat
from .state import Interpret, Judgement, Phase, PintoAction, State


def view(state: State, seat: str | None) -> dict[str, Any]:
    playing = base.is_playing(find(state, seat)) and seat in state.works
    mine = state.works.get(seat) if playing else None
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
        "judging": _judgement(state, current(state)) if current(state) else None,
        "judged": [_judgement(state, j) for j in state.judgements if j.done],
        "titles": {a: state.works[a].title for a in judged},
        "last_round": [_judgement(state, j, round_over=True) for j in state.history[-1]]
        if state.history
        else [],
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
                "best_round": max(find(state, p.seat).round_scores, default=0),
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
    return fresh


def _blob_key(state: State, artist: str) -> str:
    return f"drawing:{state.round}:{artist}"


def _player(state: State, seat: str) -> dict[str, Any]:
    player = find(state, seat)
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


def _judgement(state: State, judgement: Judgement, round_over: bool = False) -> dict[str, Any]:
    works = state.works if not round_over else {}
    title = works[judgement.artist].title if judgement.artist in works else None
    return {
        "artist": judgement.artist,
        "title": title,
        "order": list(judgement.order),
        "interpretations": {
            seat: works[seat].interpretations.get(judgement.artist, "")
            for seat in judgement.order
            if seat in works
        },
        "marks": {
            seat: {"right": m.right, "reason": m.reason} for seat, m in judgement.marks.items()
        },
        "points": dict(judgement.points),
        "done": judgement.done,
    }


def _you(state: State, seat: str | None, playing: bool) -> dict[str, Any]:
    if not playing:
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
        judgement = current(state)
        if judgement is not None and judgement.artist == seat:
            to_do = "judge"
    return base.you(seat, "player", may_chat(state, seat), to_do)


def views_changed_by(seat: str | None, action: PintoAction) -> frozenset[str] | None:
    """Whose views an accepted ``action`` by ``seat`` can change, if not everyone's.

    A draft is seen by its author alone and counts for nothing until phase B ends, and it is
    sent while somebody types: the other seats' views stay exactly as they were."""
    if isinstance(action, Interpret) and action.draft and seat is not None:
        return frozenset({seat})
    return None
