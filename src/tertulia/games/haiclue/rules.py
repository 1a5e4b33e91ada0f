"""Haiclue's rules as a pure state machine (rules: ``shared/rules/haiclue-pl.txt``).

Phases: everyone builds a clue at once (BUILD); then the clues are read one at a time, each
guessed in secret by everyone but its author (GUESS) and scored (REVEAL); after the last clue
the tiles flip or pass and the next round starts, until the target stacks are empty.
Choices the rules leave open are explained in ``docs/games/haiclue.md``.
"""

from __future__ import annotations

from .. import base
from ..base import Drop, Event, Join, Leave, Outcome, Player, Return, Rng, RuleError, Timeout
from . import decks
from .settings import Settings
from .state import (
    COLOURS,
    Clock,
    ClueResult,
    Colour,
    Guess,
    Phase,
    Ready,
    Side,
    State,
    SubmitClue,
)
from .state import Player as Seat

NAME = "haiclue"
MIN_PLAYERS = 2
MAX_PLAYERS = 12
RACK_SIZE = 15  # "Each player draws 15 random word tiles"
CARDS_PER_COLOUR = 12  # the card deck: 48 cards, reshuffled when it runs out
COOP_GOAL = 6  # "the team must score six points to win"
COOP_PERFECT = 8  # "Eight points is a perfect score."

PHASE_ACTIONS: dict[Phase, frozenset[type]] = {
    Phase.BUILD: frozenset({SubmitClue}),
    Phase.GUESS: frozenset({Guess}),
    Phase.REVEAL: frozenset({Ready}),
    Phase.ENDED: frozenset(),
}

# Error codes of this game.
TILE_NOT_YOURS = "clue.not_your_tile"  # no tile of yours shows that word
WRONG_SIDE = "clue.wrong_side"  # your tile, but that word is on its other side this round
TILE_TWICE = "clue.tile_twice"  # one tile used twice in a clue
TOO_FEW_TILES = "clue.too_few_tiles"  # "A clue must contain at least two word tiles."
ALREADY_SUBMITTED = "clue.already_submitted"
OWN_CLUE = "guess.own_clue"  # "The clue's author does not guess."
ALREADY_GUESSED = "guess.already"
NO_JOINING = "seat.no_joining"  # tiles are dealt at the start: latecomers watch


def tiles_per_stack(players: int) -> int:
    """2 players: 2; 3–5: 3; 6–8: 2; 9–12: 1 ("Each stack has this many tiles")."""
    if players == 2:
        return 2
    if players <= 5:
        return 3
    if players <= 8:
        return 2
    return 1


# ---------------------------------------------------------------------------- start


def start(
    settings: Settings, players: list[Player], seed: int, now: float, *, public: bool = False
) -> State:
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise RuleError(
            "match.player_count",
            f"Haiclue needs {MIN_PLAYERS} to {MAX_PLAYERS} players.",
            min=MIN_PLAYERS,
            max=MAX_PLAYERS,
            count=len(players),
        )
    rng = Rng.from_seed(seed)
    pool = [tile.id for tile in decks.load(settings.deck.value)]
    rng.shuffle(pool)
    per_stack = tiles_per_stack(len(players))
    stacks = [pool[i * per_stack : (i + 1) * per_stack] for i in range(len(COLOURS))]
    rest = pool[len(COLOURS) * per_stack :]
    racks = {p.id: rest[i * RACK_SIZE : (i + 1) * RACK_SIZE] for i, p in enumerate(players)}
    state = State(
        settings=settings,
        rng=rng,
        players=[Seat(p.id, p.nickname) for p in players],
        stacks=stacks,
        racks=racks,
        total_rounds=2 * per_stack,
    )
    begin_round(state, now, [])
    return state


# ---------------------------------------------------------------------------- apply


def apply(
    state: State, seat: str | None, action: base.Action, now: float
) -> tuple[State, list[Event]]:
    """The new state after ``seat`` (None: the room) does ``action`` at ``now``, and its events."""
    player = find(state, seat)
    return base.check_and_apply(
        state,
        seat,
        action,
        now,
        handlers=_HANDLERS,
        allowed=PHASE_ACTIONS[state.phase],
        ended=state.phase is Phase.ENDED,
        playing=player is not None and not player.left,
    )


# ---------------------------------------------------------------------------- building clues


def submit_clue(state: State, seat: str, action: SubmitClue, now: float, events) -> None:
    """ "each player uses their word tiles to point at their target word. A clue must contain
    at least two word tiles." The order is the author's."""
    if seat in state.clues:
        raise RuleError(ALREADY_SUBMITTED, "Your clue is already finished.")
    if len(action.words) < state.settings.min_clue_tiles:
        raise RuleError(
            TOO_FEW_TILES,
            "A clue needs at least two of your tiles.",
            min=state.settings.min_clue_tiles,
        )
    state.clues[seat] = tiles_for_words(state, seat, action.words)
    events.append(Event("clue.finished", {"seat": seat}))
    if not _still_building(state):
        begin_reading(state, now, events)


def tiles_for_words(state: State, seat: str, words: list[str]) -> list[int]:
    """Your tiles showing ``words`` on this round's side, in order; refuses anything else."""
    deck = decks.load(state.settings.deck.value)
    side, other = state.side.value, _other(state.side).value
    chosen: list[int] = []
    for word in words:
        wanted = word.strip().casefold() if isinstance(word, str) else ""
        tile = next((t for t in state.racks[seat] if deck[t].word(side).casefold() == wanted), None)
        if tile is None:
            if any(deck[t].word(other).casefold() == wanted for t in state.racks[seat]):
                raise RuleError(WRONG_SIDE, f"'{word}' is on the other side this round.", word=word)
            raise RuleError(TILE_NOT_YOURS, f"You have no tile '{word}'.", word=word)
        if tile in chosen:
            raise RuleError(TILE_TWICE, f"You have only one '{word}'.", word=word)
        chosen.append(tile)
    return chosen


def _still_building(state: State) -> list[str]:
    """Players the build waits for: here, playing, without a finished clue."""
    return [p.id for p in state.players if p.online and not p.left and p.id not in state.clues]


# ---------------------------------------------------------------------------- reading, guessing


def begin_reading(state: State, now: float, events: list[Event]) -> None:
    """ "clockwise": the clues are read in seat order, from a random author each round.
    A player without a finished clue (time ran out, or they dropped) is skipped."""
    authors = [p.id for p in state.players if p.id in state.clues and not p.left]
    if authors:
        first = state.rng.below(len(authors))
        authors = authors[first:] + authors[:first]
    state.reading_order = authors
    state.reading_index = -1
    skipped = [p.id for p in state.players if not p.left and p.id not in state.clues]
    if skipped:
        events.append(Event("clue.skipped", {"seats": skipped}))
    next_clue(state, now, events)


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
    if not _still_guessing(state):
        reveal(state, now, events)


def guess(state: State, seat: str, action: Guess, now: float, events) -> None:
    """ "every player secretly guesses which of the four target words the clue points at"."""
    if seat == current_author(state):
        raise RuleError(OWN_CLUE, "You wrote this clue: the others guess it.")
    if seat in state.guesses:
        raise RuleError(ALREADY_GUESSED, "You have already guessed this clue.")
    state.guesses[seat] = action.colour
    events.append(Event("guess.made", {"seat": seat}))
    if not _still_guessing(state):
        reveal(state, now, events)


def _still_guessing(state: State) -> list[str]:
    author = current_author(state)
    return [
        p.id
        for p in state.players
        if p.online and not p.left and p.id != author and p.id not in state.guesses
    ]


def reveal(state: State, now: float, events: list[Event]) -> None:
    """ "each player reveals their guess and the author reveals their card. Every player who
    guessed correctly takes a 1-point token ... The clue's author takes one point for each
    correct guess." Two players: "the team gains a point every time a player guesses
    correctly"."""
    author = current_author(state)
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


def ready(state: State, seat: str, action: Ready, now: float, events) -> None:
    if seat not in state.ready:
        state.ready.append(seat)
    if not _still_reading_result(state):
        next_clue(state, now, events)


def _still_reading_result(state: State) -> list[str]:
    return [p.id for p in state.players if p.online and not p.left and p.id not in state.ready]


# ---------------------------------------------------------------------------- between rounds


def begin_round(state: State, now: float, events: list[Event]) -> None:
    """ "Each player draws a card from the deck": the card names their target colour."""
    state.phase = Phase.BUILD
    state.clues = {}
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
    set_clock(state, Clock.NONE, 0, 0.0)
    state.end_reason = reason
    if state.cooperative:
        won = state.team_score >= COOP_GOAL
        ranking = [base.Placing(p.id, p.nickname, state.team_score, 1, won) for p in state.players]
    else:
        ranking = base.rank([(p.id, p.nickname, p.score) for p in state.players])
    state.outcome = Outcome(ranking=ranking, reason=reason)
    winners = [p.seat for p in ranking if p.winner]
    events.append(Event("match.ended", {"reason": reason, "winners": winners}))


# ---------------------------------------------------------------------------- clocks, seats


def set_clock(state: State, clock: Clock, seconds: float, now: float) -> None:
    state.clock = clock if seconds else Clock.NONE
    state.deadline = now + seconds if seconds else None


def deadline(state: State) -> float | None:
    return state.deadline


def timeout(state: State, seat: None, action: Timeout, now: float, events) -> None:
    """Clue clock: unfinished clues are skipped. Guess clock: missing guesses score nothing.
    Reveal clock: on to the next clue."""
    events.append(Event("clock.expired", {"clock": state.clock.value}))
    if state.phase is Phase.BUILD:
        begin_reading(state, now, events)
    elif state.phase is Phase.GUESS:
        reveal(state, now, events)
    elif state.phase is Phase.REVEAL:
        next_clue(state, now, events)


def join(state: State, seat: None, action: Join, now: float, events) -> None:
    raise RuleError(
        NO_JOINING, "Haiclue deals its tiles at the start: watch this match, play the next one."
    )


def drop(state: State, seat: None, action: Drop, now: float, events) -> None:
    _known(state, action.player).online = False
    events.append(Event("player.dropped", {"seat": action.player}))
    _move_on_if_nobody_waits(state, now, events)


def return_(state: State, seat: None, action: Return, now: float, events) -> None:
    _known(state, action.player).online = True
    events.append(Event("player.returned", {"seat": action.player}))


def leave(state: State, seat: None, action: Leave, now: float, events) -> None:
    player = _known(state, action.player)
    if player.left:
        return
    player.left, player.online = True, False
    events.append(Event("player.left", {"seat": action.player}))
    if state.phase is Phase.ENDED:
        return
    if sum(1 for p in state.players if not p.left) < MIN_PLAYERS or state.cooperative:
        end_match(state, "too_few_players", events)
        return
    if state.phase is Phase.GUESS and current_author(state) == action.player:
        reveal(state, now, events)  # their clue is still scored: the guesses stand
    else:
        _move_on_if_nobody_waits(state, now, events)


def _move_on_if_nobody_waits(state: State, now: float, events: list[Event]) -> None:
    """A player who drops is not waited for."""
    if state.phase is Phase.BUILD and not _still_building(state):
        begin_reading(state, now, events)
    elif state.phase is Phase.GUESS and not _still_guessing(state):
        reveal(state, now, events)
    elif state.phase is Phase.REVEAL and not _still_reading_result(state):
        next_clue(state, now, events)


# ---------------------------------------------------------------------------- queries


def find(state: State, seat: str | None) -> Seat | None:
    return next((p for p in state.players if p.id == seat), None)


def _known(state: State, seat: str) -> Seat:
    player = find(state, seat)
    if player is None:
        raise RuleError(base.UNKNOWN_SEAT, "No such player in this match.", seat=seat)
    return player


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


def _other(side: Side) -> Side:
    return Side.BLACK if side is Side.WHITE else Side.WHITE


def may_chat(state: State, seat: str) -> bool:
    """Guesses are secret: nobody chats while a clue is being guessed."""
    return state.phase is not Phase.GUESS


def outcome(state: State) -> Outcome | None:
    return state.outcome


def host(state: State, seat: None, action: base.Host, now: float, events) -> None:
    """Haiclue lets the host decide nothing during a match."""


_HANDLERS = {
    SubmitClue: submit_clue,
    Guess: guess,
    Ready: ready,
    Timeout: timeout,
    Join: join,
    Drop: drop,
    Return: return_,
    Leave: leave,
    base.Host: host,
}
