"""How a Haiclue round moves along: cards, reading the clues one at a time, scoring, the flip
and the pass between rounds, the end. Called by the handlers in ``rules.py`` (which work on a
copy of the state, so a refused action changes nothing)."""

from __future__ import annotations

from .. import base
from ..base import Event, set_clock
from . import decks
from .state import COLOURS, Clock, ClueResult, Colour, Phase, Side, State
from .state import Player as Seat

# Fixed facts of the game.
NAME = __package__.rpartition(".")[2]  # a game's name is its folder's name
MIN_PLAYERS = 2
MAX_PLAYERS = 12
RACK_SIZE = 15  # "Each player draws 15 random word tiles"
CARDS_PER_COLOUR = 12  # the card deck: 48 cards, reshuffled when it runs out
COOP_GOAL = 6  # "the team must score six points to win"
COOP_PERFECT = 8  # "Eight points is a perfect score."
# The match version (``rules.VERSION``) from which a player who leaves for good is ranked
# after those still in, never a winner (as in Pitacor), and the author of the clue being
# guessed leaving does not end its guessing: the others still guess it.
LEAVERS = 3


def tiles_per_stack(players: int) -> int:
    """2 players: 2; 3–5: 3; 6–8: 2; 9–12: 1 ("Each stack has this many tiles")."""
    if players == 2:
        return 2
    if players <= 5:
        return 3
    if players <= 8:
        return 2
    return 1


def still_building(state: State) -> list[str]:
    """Players the build waits for: here, playing, without a finished clue."""
    return [p.id for p in state.players if base.is_here(p) and p.id not in state.clues]


def begin_reading(state: State, now: float, events: list[Event]) -> None:
    """ "clockwise": the clues are read in seat order, from a random author each round.
    A player without a finished clue (time ran out, or they dropped) is skipped, unless their
    draft has enough tiles to be one (``take_drafts``)."""
    take_drafts(state, events)
    authors = [p.id for p in state.players if p.id in state.clues and not p.left]
    if authors:
        # The first clue read is never a first-timer's in the first round: they see how it
        # goes once before theirs is read (``base.first_turn``).
        newcomers = state.newcomers if state.round == 1 else ()
        first = base.first_turn(authors, newcomers, state.rng)
        authors = authors[first:] + authors[:first]
    state.reading_order = authors
    state.reading_index = -1
    skipped = [p.id for p in state.players if not p.left and p.id not in state.clues]
    if skipped:
        events.append(Event("clue.skipped", {"seats": skipped}))
    next_clue(state, now, events)


def take_drafts(state: State, events: list[Event]) -> None:
    """The build is over: a clue still being built with at least the minimum of tiles is
    its author's clue, as the row lies on the table. Logs from before drafts have none, so
    they fold as they did."""
    taken = []
    for player in state.players:
        draft = state.drafts.get(player.id)
        if player.left or player.id in state.clues or draft is None:
            continue
        if len(draft) >= state.settings.min_clue_tiles:
            state.clues[player.id] = list(draft)
            taken.append(player.id)
    state.drafts = {}
    if taken:
        events.append(Event("clue.taken_from_draft", {"seats": taken}))


def next_clue(state: State, now: float, events: list[Event]) -> None:
    state.reading_index += 1
    state.guesses = {}
    state.ready = []
    if state.reading_index >= len(state.reading_order):
        end_round(state, now, events)
        return
    state.phase = Phase.GUESS
    author = state.reading_order[state.reading_index]
    words = clue_words(state, author)
    events.append(Event("clue.read", {"author": author, "words": words}))
    set_clock(state, Clock.GUESS, state.settings.guess_seconds, now)
    if not still_guessing(state):
        reveal(state, now, events)


def still_guessing(state: State) -> list[str]:
    author = current_author(state)
    return [
        p.id
        for p in state.players
        if base.is_here(p) and p.id != author and p.id not in state.guesses
    ]


def reveal(state: State, now: float, events: list[Event]) -> None:
    """ "each player reveals their guess and the author reveals their card. Every player who
    guessed correctly takes a 1-point token ... The clue's author takes one point for each
    correct guess." Two players: "the team gains a point every time a player guesses
    correctly"."""
    author = current_author(state)
    assert author is not None  # a clue is revealed while it is read: it has an author
    card = state.cards[author]
    right = [seat for seat, colour in state.guesses.items() if colour is card]
    points: dict[str, int] = {}
    if state.cooperative:
        state.team_score += len(right)
        points["team"] = len(right)
    else:
        for seat in right:
            points[seat] = 1
        points[author] = len(right)
        for player in state.players:
            player.score += points.get(player.id, 0)
    state.results.append(
        ClueResult(author, clue_words(state, author), card, dict(state.guesses), points)
    )
    state.card_discard.append(card)  # "After scoring the author discards their card."
    state.phase = Phase.REVEAL
    events.append(Event("clue.scored", {"author": author, "card": card.value, "points": points}))
    set_clock(state, Clock.REVEAL, state.settings.reveal_seconds, now)


def still_reading_result(state: State) -> list[str]:
    return [p.id for p in state.players if base.is_here(p) and p.id not in state.ready]


def begin_round(state: State, now: float, events: list[Event]) -> None:
    """ "Each player draws a card from the deck": the card names their target colour."""
    state.phase = Phase.BUILD
    state.clues = {}
    state.drafts = {}
    state.results = []
    state.cards = {}
    for player in state.players:
        if not player.left:
            state.cards[player.id] = draw_card(state)
    events.append(Event("round.started", {"round": state.round, "side": state.side.value}))
    set_clock(state, Clock.CLUE, state.settings.clue_seconds, now)


def draw_card(state: State) -> Colour:
    if not state.card_deck:
        state.card_deck = state.card_discard or [
            c for c in COLOURS for _ in range(CARDS_PER_COLOUR)
        ]
        state.card_discard = []
        state.rng.shuffle(state.card_deck)
    return state.card_deck.pop()


def end_round(state: State, now: float, events: list[Event]) -> None:
    """ "After a white round, flip." "After a black round, discard, flip and pass."
    "When the stacks are empty, the game ends." """
    state.history.append(state.results)
    state.round_targets.append([stack[0] for stack in state.stacks])
    state.results = []
    # Cards of authors who were skipped go back too.
    state.card_discard.extend(c for seat, c in state.cards.items() if seat not in state.clues)
    if state.side is Side.WHITE:
        state.side = Side.BLACK
        events.append(Event("tiles.flipped", {"side": "black"}))
    else:
        for stack in state.stacks:
            stack.pop(0)
        state.side = Side.WHITE
        events.append(Event("tiles.flipped", {"side": "white"}))
        if any(state.stacks):
            pass_tiles_left(state)
            events.append(Event("tiles.passed", {}))
    if state.round >= state.total_rounds or not all(state.stacks):
        end_match(state, "stacks_empty", events)
        return
    state.round += 1
    begin_round(state, now, events)


def pass_tiles_left(state: State) -> None:
    """ "each player passes their 15 word tiles to the player on their left" (two players
    swap, which is the same thing). Only players still in the match pass and receive."""
    seated = [p.id for p in state.players if not p.left]
    racks = [state.racks[seat] for seat in seated]
    for index, seat in enumerate(seated):
        state.racks[seat] = racks[index - 1]  # from the player on your right


def end_match(state: State, reason: str, events: list[Event]) -> None:
    """ "the player with the most points wins. In a tie, all tied players win together."
    Two players: the team wins with six points."""
    state.phase = Phase.ENDED
    if state.cooperative:
        won = state.team_score >= COOP_GOAL
        ranking = [base.Placing(p.id, p.nickname, state.team_score, 1, won) for p in state.players]
    else:
        rows = [(p.id, p.nickname, p.score) for p in state.players]
        if state.version >= LEAVERS:
            ranking = base.rank_leavers_last(rows, {p.id for p in state.players if p.left})
        else:  # matches started before version 3 end as they did
            ranking = base.rank(rows)
    base.finish_match(state, reason, ranking, events)


# Who plays: 2 to 12 players, all from the start ("seat.no_joining"). When one leaves a game of
# two (a team), one is too few: the match ends.
SEATS: base.Seating[State, Seat] = base.Seating(
    lambda state: state.players, MIN_PLAYERS, MAX_PLAYERS, Phase.ENDED, end_match
)
find = SEATS.find  # the player a seat names, also one who has left; None: a spectator


def current_author(state: State) -> str | None:
    if state.phase in (Phase.GUESS, Phase.REVEAL) and 0 <= state.reading_index < len(
        state.reading_order
    ):
        return state.reading_order[state.reading_index]
    return None


def clue_words(state: State, author: str) -> list[str]:
    deck = decks.load(state.settings.deck.value)
    return [deck[t].word(state.side.value) for t in state.clues[author]]


def target_words(state: State) -> list[str | None]:
    deck = decks.load(state.settings.deck.value)
    return [deck[s[0]].word(state.side.value) if s else None for s in state.stacks]
