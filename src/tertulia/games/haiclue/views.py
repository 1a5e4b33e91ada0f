"""What one seat may see of a Haiclue match.

Secrets and when they open:
- your card: yours alone until your clue is scored (then it is in that clue's result);
- your rack, your draft and your clue: yours alone; a clue becomes public when it is read
  (a draft never is: it is your clue only if the build ends before you finish);
- guesses: who has guessed is public, what they guessed only at that clue's reveal.

The finished match's view also carries its recap (``recap``: every round's targets and the
clues as they were scored), which repeats only what the reveals showed.
"""

from __future__ import annotations

from typing import Any

from .. import base
from ..base import podium
from . import decks
from .rules import (
    COOP_GOAL,
    COOP_PERFECT,
    NAME,
    clue_words,
    current_author,
    find,
    may_chat,
    target_words,
)
from .state import COLOURS, SYMBOLS, ClueResult, HaiclueAction, Phase, Side, State, SubmitClue


def view(state: State, seat: str | None) -> dict[str, Any]:
    playing = base.is_playing(find(state, seat))
    me = seat if playing else None  # a player's own seat (None: a spectator's view)
    author = current_author(state)
    return {
        "game": NAME,
        "phase": state.phase.value,
        "round": state.round,
        "total_rounds": state.total_rounds,
        "side": state.side.value,
        "cooperative": state.cooperative,
        "targets": [
            {"colour": c.value, "symbol": SYMBOLS[c], "word": word, "left": len(stack)}
            for c, word, stack in zip(COLOURS, target_words(state), state.stacks, strict=True)
        ],
        "players": [base.seat_view(p, finished=p.id in state.clues) for p in state.players],
        "team_score": state.team_score,
        "team_goal": COOP_GOAL,
        "team_perfect": COOP_PERFECT,
        "min_clue_tiles": state.settings.min_clue_tiles,  # the host's "fewest tiles in a clue"
        "rack": _rack(state, me) if me is not None else None,
        "card": state.cards[me].value if me is not None and _card_secret(state, me) else None,
        "my_clue": clue_words(state, me) if me is not None and me in state.clues else None,
        "my_draft": _draft(state, me) if me is not None else None,
        "reading": {
            "author": author,
            "words": clue_words(state, author),
            "index": state.reading_index,
            "of": len(state.reading_order),
        }
        if author is not None
        else None,
        "guessed": sorted(state.guesses) if state.phase is Phase.GUESS else [],
        "my_guess": state.guesses[seat].value if seat in state.guesses else None,
        "results": [_result(r) for r in state.results],
        "last_round": [_result(r) for r in state.history[-1]] if state.history else [],
        "recap": _recap(state) if state.phase is Phase.ENDED else None,
        "ready": list(state.ready),
        "clock": state.clock.value,
        "deadline": state.deadline,
        "winners": [p.seat for p in state.outcome.ranking if p.winner] if state.outcome else [],
        "ranking": podium(state.outcome),
        "end_reason": state.end_reason or None,
        "you": _you(state, seat, playing, author),
    }


def _rack(state: State, seat: str) -> list[str]:
    deck = decks.load(state.settings.deck.value)
    return [deck[t].word(state.side.value) for t in state.racks[seat]]


def _draft(state: State, seat: str) -> list[str] | None:
    """The clue you are still building: yours alone, and only while the build lasts."""
    tiles = state.drafts.get(seat) if state.phase is Phase.BUILD else None
    if not tiles:
        return None
    deck = decks.load(state.settings.deck.value)
    return [deck[t].word(state.side.value) for t in tiles]


def views_changed_by(seat: str | None, action: HaiclueAction) -> frozenset[str] | None:
    """Whose views an accepted ``action`` by ``seat`` can change, if not everyone's.

    A draft is seen by its author alone and finishes nothing, and it is sent while somebody
    builds: the other seats' views stay exactly as they were."""
    if isinstance(action, SubmitClue) and action.draft and seat is not None:
        return frozenset({seat})
    return None


def _card_secret(state: State, seat: str) -> bool:
    """The card is still the player's secret (its clue not yet scored this round)."""
    return seat in state.cards and not any(r.author == seat for r in state.results)


def _result(result: ClueResult) -> dict[str, Any]:
    return {
        "author": result.author,
        "words": list(result.words),
        "card": result.card.value,
        "guesses": {seat: colour.value for seat, colour in result.guesses.items()},
        "points": dict(result.points),
    }


def _recap(state: State) -> list[dict[str, Any]]:
    """Every round of the finished match, for its recap: the side, the four target words and
    each clue as it was read and scored (its words, the author's card, who guessed what).
    Only what each reveal showed: a card whose clue was never read, the tiles left in the
    racks and the drafts are nowhere in it. A round the end cut short (too few players left)
    is there with the clues scored before it."""
    deck = decks.load(state.settings.deck.value)
    rounds = list(zip(state.history, state.round_targets, strict=False))
    if len(rounds) < state.round and state.results:
        rounds.append((state.results, [stack[0] for stack in state.stacks]))
    recap = []
    for number, (results, tiles) in enumerate(rounds, start=1):
        side = Side.WHITE if number % 2 else Side.BLACK  # "After a white round, flip."
        recap.append(
            {
                "round": number,
                "side": side.value,
                "targets": [deck[tile].word(side.value) for tile in tiles],
                "clues": [_result(r) for r in results],
            }
        )
    return recap


def _you(state: State, seat: str | None, playing: bool, author: str | None) -> dict[str, Any]:
    if not playing or seat is None:  # (a spectator's seat is None)
        return base.you(seat)
    to_do = None
    if state.phase is Phase.BUILD and seat not in state.clues:
        to_do = "build_clue"
    elif state.phase is Phase.GUESS and seat != author and seat not in state.guesses:
        to_do = "guess"
    elif state.phase is Phase.REVEAL and seat not in state.ready:
        to_do = "ready"
    return base.you(seat, "player", may_chat(state, seat), to_do)
