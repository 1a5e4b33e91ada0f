"""Haiclue's rules as a pure state machine (rules: ``shared/rules/haiclue-pl.txt``).

Phases: everyone builds a clue at once (BUILD); then the clues are read one at a time, each
guessed in secret by everyone but its author (GUESS) and scored (REVEAL); after the last clue
the tiles flip or pass and the next round starts, until the target stacks are empty.
Choices the rules leave open are explained in ``docs/games/haiclue.md``.
"""

from __future__ import annotations

from .. import base
from ..base import (
    Drop,
    Event,
    Join,
    Leave,
    Player,
    Return,
    Rng,
    RuleError,
    Timeout,
    deadline,
    outcome,
)
from . import decks
from .flow import (
    COOP_GOAL,
    COOP_PERFECT,
    LEAVERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NAME,
    RACK_SIZE,
    SEATS,
    begin_reading,
    begin_round,
    clue_words,
    current_author,
    find,
    next_clue,
    reveal,
    still_building,
    still_guessing,
    still_reading_result,
    target_words,
    tiles_per_stack,
)
from .settings import Settings
from .state import (
    COLOURS,
    Guess,
    Phase,
    Ready,
    Side,
    State,
    SubmitClue,
)
from .state import Player as Seat

__all__ = [  # what views, the room and the tests use from here
    "COOP_GOAL",
    "COOP_PERFECT",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NAME",
    "VERSION",
    "apply",
    "clue_words",
    "current_author",
    "deadline",
    "find",
    "may_chat",
    "outcome",
    "start",
    "target_words",
    "tiles_per_stack",
]

# The version of how a match starts (games/base.py, ``VERSION``): the room logs it with the
# start, so a change here applies to new matches only and old logs deal as they did.
CONNECTORS_NOT_TARGETS = 1  # from 1, connector tiles are never drawn as target words
NEWCOMERS_WATCH_FIRST = 2  # from 2, a first-timer's clue is not the first read in round 1
VERSION = LEAVERS  # from 3, leaving for good: ``flow.LEAVERS``

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


def start(
    settings: Settings,
    players: list[Player],
    seed: int,
    now: float,
    *,
    public: bool = False,
    version: int = VERSION,
) -> State:
    """``version``: the room's logged one (``VERSION`` when the match started; 0 for matches
    started before versions), so an old log deals exactly as it did."""
    base.require_players(len(players), "Haiclue", MIN_PLAYERS, MAX_PLAYERS)
    rng = Rng.from_seed(seed)
    deck = decks.load(settings.deck.value)
    pool = [tile.id for tile in deck]
    rng.shuffle(pool)
    per_stack = tiles_per_stack(len(players))
    stacks, rest = deal_stacks(pool, per_stack, deck, version)
    racks = {p.id: rest[i * RACK_SIZE : (i + 1) * RACK_SIZE] for i, p in enumerate(players)}
    state = State(
        settings=settings,
        rng=rng,
        players=[Seat(p.id, p.nickname) for p in players],
        stacks=stacks,
        racks=racks,
        total_rounds=2 * per_stack,
        version=version,
        newcomers=[p.id for p in players if p.new] if version >= NEWCOMERS_WATCH_FIRST else [],
    )
    begin_round(state, now, [])
    return state


def deal_stacks(
    pool: list[int], per_stack: int, deck: tuple[decks.Tile, ...], version: int
) -> tuple[list[list[int]], list[int]]:
    """The four target stacks from the top of the shuffled ``pool``, and the tiles left for
    the racks, in order. From version 1 small connector tiles ("and", "too", "z") are never
    targets: the stacks take the first tiles that are not connectors and the racks get the
    rest. Version 0 (matches started before) took the top tiles, whatever they were."""
    count = len(COLOURS) * per_stack
    if version >= CONNECTORS_NOT_TARGETS:
        targets = [t for t in pool if not deck[t].connector][:count]
        chosen = set(targets)
        rest = [t for t in pool if t not in chosen]
    else:
        targets, rest = pool[:count], pool[count:]
    return [targets[i * per_stack : (i + 1) * per_stack] for i in range(len(COLOURS))], rest


def submit_clue(state: State, seat: str, action: SubmitClue, now: float, events) -> None:
    """ "each player uses their word tiles to point at their target word. A clue must contain
    at least two word tiles." The order is the author's."""
    if seat in state.clues:
        raise RuleError(ALREADY_SUBMITTED, "Your clue is already finished.")
    if action.draft:  # kept for its author; finishes nothing (see ``take_drafts``)
        tiles = tiles_for_words(state, seat, action.words)
        if tiles:
            state.drafts[seat] = tiles
        else:
            state.drafts.pop(seat, None)
        return
    if len(action.words) < state.settings.min_clue_tiles:
        raise RuleError(
            TOO_FEW_TILES,
            f"A clue needs at least {state.settings.min_clue_tiles} of your tiles.",
            min=state.settings.min_clue_tiles,
        )
    state.clues[seat] = tiles_for_words(state, seat, action.words)
    state.drafts.pop(seat, None)
    events.append(Event("clue.finished", {"seat": seat}))
    if not still_building(state):
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


def guess(state: State, seat: str, action: Guess, now: float, events) -> None:
    """ "every player secretly guesses which of the four target words the clue points at"."""
    if seat == current_author(state):
        raise RuleError(OWN_CLUE, "You wrote this clue: the others guess it.")
    if seat in state.guesses:
        raise RuleError(ALREADY_GUESSED, "You have already guessed this clue.")
    state.guesses[seat] = action.colour
    events.append(Event("guess.made", {"seat": seat}))
    if not still_guessing(state):
        reveal(state, now, events)


def ready(state: State, seat: str, action: Ready, now: float, events) -> None:
    if seat not in state.ready:
        state.ready.append(seat)
    if not still_reading_result(state):
        next_clue(state, now, events)


def timeout(state: State, seat: None, action: Timeout, now: float, events) -> None:
    """Clue clock: a draft of enough tiles is taken as its author's clue, other unfinished
    clues are skipped (``begin_reading``). Guess clock: missing guesses score nothing.
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
    SEATS.drop(state, action, events)
    _move_on_if_nobody_waits(state, now, events)


def return_(state: State, seat: None, action: Return, now: float, events) -> None:
    SEATS.return_(state, action, events)


def leave(state: State, seat: None, action: Leave, now: float, events) -> None:
    """Not waited for any more; a game of two (a team) ends, being one short (``SEATS``)."""
    if SEATS.leave(state, action, events) is None:
        return
    author_left = state.phase is Phase.GUESS and current_author(state) == action.player
    if author_left and state.version < LEAVERS:
        reveal(state, now, events)  # (before 3: at once, with the guesses made so far)
    else:  # their clue is still read and scored: everyone still in guesses it
        _move_on_if_nobody_waits(state, now, events)


def _move_on_if_nobody_waits(state: State, now: float, events: list[Event]) -> None:
    """A player who drops is not waited for."""
    if state.phase is Phase.BUILD and not still_building(state):
        begin_reading(state, now, events)
    elif state.phase is Phase.GUESS and not still_guessing(state):
        reveal(state, now, events)
    elif state.phase is Phase.REVEAL and not still_reading_result(state):
        next_clue(state, now, events)


def _other(side: Side) -> Side:
    return Side.BLACK if side is Side.WHITE else Side.WHITE


def may_chat(state: State, seat: str) -> bool:
    """Guesses are secret: nobody chats while a clue is being guessed."""
    return state.phase is not Phase.GUESS


_HANDLERS: dict[type, base.Handler] = {
    SubmitClue: submit_clue,
    Guess: guess,
    Ready: ready,
    Timeout: timeout,
    Join: join,
    Drop: drop,
    Return: return_,
    Leave: leave,
    base.Host: base.ignore,  # Haiclue lets the host decide nothing during a match
}

# "apply(state, seat, action, now) -> (State, events)": the contract's entry point (base.py).
apply = base.apply_with(_HANDLERS, PHASE_ACTIONS, SEATS)
