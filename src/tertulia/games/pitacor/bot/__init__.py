"""The Pitacor bot: a clue giver who names a thing of the target's colour, and a guesser who
pictures the clue's colour and puts a marker on it.

Giver: picks the candidate a lexicon word fits best ("The clue giver picks one of them"),
gives that word as the first clue — checked by the game's own clue checker, with every ban
on, so it is accepted whatever the host chose — and after the first markers either passes
(the markers are already on or next to the target: the pass doubles the giver's points) or
gives a second clue of one or two words that lands nearer. Guesser: reads the latest clue
into a colour (``reading``), takes the board cell of that colour, or the nearest free
one ("One cell, one marker"), selects it and confirms.

Levels: "good" plays the best it sees; "beginner" pictures colours less precisely (noise in
OKLab of about one board step), sometimes settles for its second- or third-best word and
sometimes picks a candidate at random.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from tertulia.games.base import Level
from tertulia.games.pitacor import clues

from . import aiming as pitacor_aim
from . import colours
from .colours import BoardColours, Lab
from .reading import Reading, clue_colour, read

# Beginner mistakes: how blurred its colours are (OKLab units; a board step is ~0.04 in
# lightness and ~0.03 in hue at mid chroma), and how often it settles for less. The noise
# was 0.05 (a board step) until issue 32: measured on the tuning cases that made a beginner
# score 40 % of "good" on people's words, not a person who plays less well; 0.015 gives
# about 78 % of it there.
_BEGINNER_NOISE = 0.015
_BEGINNER_SECOND_BEST = 0.5
_BEGINNER_RANDOM_TARGET = 0.4
_PAIR_POOL = 14  # second clue: two-word blends are tried among this many nearest words
# An encoder reading of one colour: aim at its expected points too (True) or at its cell.


def decide(
    view: dict[str, Any], *, language: str, level: Level, rng: random.Random
) -> dict[str, Any] | None:
    """The action this seat's player would send now, or None."""
    to_do = view["you"].get("to_do")
    if to_do == "choose_target":
        return {"type": "choose_target", "index": choose_target(view, language, level, rng)}
    if to_do == "give_clue":
        return {"type": "give_clue", "text": first_clue(view, language, level, rng)}
    if to_do == "give_clue_or_pass":
        text = second_clue(view, language, level, rng)
        return {"type": "pass_clue"} if text is None else {"type": "give_clue", "text": text}
    if to_do == "place_marker":
        return place_marker(view, level, rng)
    if to_do == "next_round" and view["deadline"] is None:
        # With no reveal clock nobody else may move the match on; with one, let people look.
        return {"type": "next_round"}
    if to_do in ("next_round", "ready") and view["you"]["seat"] in view["waiting_for"]:
        # It has seen the reveal: once the people have too, the next round starts without
        # waiting for a computer player ("Ready").
        return {"type": "ready"}
    return None


# --------------------------------------------------------------------------- the giver


def allowed_words(view: dict[str, Any], language: str) -> list[tuple[str, Lab]]:
    """Lexicon words of the room's language that the clue checker accepts now, with the
    colour guessers will read in them. Every ban is on: the view does not say which the host
    lifted, and a clue accepted with all of them is accepted with fewer."""
    return list(_allowed(language, strictest_rules(view)))


@lru_cache(maxsize=64)
def _allowed(language: str, rules: clues.ClueRules) -> tuple[tuple[str, Lab], ...]:
    words: list[tuple[str, Lab]] = []
    for thing in colours.things():
        for name in thing.names[language]:
            if not clues.clue_problems(name, 1, rules):
                lab = clue_colour(name)
                if lab is not None:
                    words.append((name, lab))
    return tuple(words)


def strictest_rules(view: dict[str, Any]) -> clues.ClueRules:
    used = [*view["clues"], *(c for r in view["history"] for c in r["clues"])]
    return clues.ClueRules(
        nicknames=tuple(p["nickname"] for p in view["players"]),
        used=tuple(clues.clue_key(c) for c in used),
    )


def choose_target(view: dict[str, Any], language: str, level: Level, rng: random.Random) -> int:
    """The candidate some word lands nearest (beginner: sometimes any of the four)."""
    candidates = view["candidates"]
    if level is Level.BEGINNER and rng.random() < _BEGINNER_RANDOM_TARGET:
        return rng.randrange(len(candidates))
    board = colours.board(view["board"]["id"])
    words = allowed_words(view, language)
    scores = [
        _ranked(board, board.index_of(c["cell"]), words)[0][0] if words else (0, 0.0)
        for c in candidates
    ]
    return min(range(len(candidates)), key=lambda i: scores[i])


def first_clue(view: dict[str, Any], language: str, level: Level, rng: random.Random) -> str:
    """ "First clue: one word." The word whose colour lands nearest the target."""
    board = colours.board(view["board"]["id"])
    target = board.index_of(view["target"])
    words = allowed_words(view, language)
    if not words:  # every word of the language used up: try the others'
        words = [w for lang in colours.LANGUAGES for w in allowed_words(view, lang)]
    ranked = _ranked(board, target, words)
    pick = 0
    if level is Level.BEGINNER and rng.random() < _BEGINNER_SECOND_BEST:
        pick = min(len(ranked) - 1, rng.choice((1, 2)))
    return ranked[pick][1]


def second_clue(
    view: dict[str, Any], language: str, level: Level, rng: random.Random
) -> str | None:
    """ "the clue giver may write a second clue of one or two words, or pass": pass when
    the markers already hit (the pass doubles the giver's points), else the word or pair of
    words that lands nearest."""
    board = colours.board(view["board"]["id"])
    target = board.index_of(view["target"])
    guessers = len(view["guessers"])
    markers = [board.index_of(m["cell"]) for m in view["markers"] if m["guess"] == 1]
    if markers:  # visible markers: count the hits
        hits = sum(1 for m in markers if board.rings(m, target) <= 1)
        hits += _expected_hidden(board, target, view, guessers - len(markers))
    else:  # hidden: predict from where guessers read the first clue
        hits = _expected_hidden(board, target, view, guessers)
    words = allowed_words(view, language)
    options = _ranked(board, target, words) + _pairs(board, target, words, strictest_rules(view))
    options.sort()
    if not options:
        return None
    (rings, _), text = options[0]
    # A second clue can at best make every guesser a hit; passing doubles the hits already
    # made. Beginners pass less wisely: only when all hit.
    after_clue = guessers if rings <= 1 else hits
    if level is Level.BEGINNER:
        return None if hits == guessers else text
    return None if 2 * hits >= after_clue else text


def _expected_hidden(board: BoardColours, target: int, view: dict[str, Any], count: int) -> int:
    """Guessers whose markers this seat cannot see: hits if the first clue reads near."""
    lab = clue_colour(view["clues"][0]) if view["clues"] else None
    near = lab is not None and board.rings(board.nearest(lab), target) <= 1
    return count if near else 0


def _ranked(
    board: BoardColours, target: int, words: list[tuple[str, Lab]]
) -> list[tuple[tuple[int, float], str]]:
    """Words by where guessers would land: rings from the target, then colour distance."""
    target_lab = board.labs[target]
    ranked = [
        ((board.rings(board.nearest(lab), target), colours.distance(lab, target_lab)), word)
        for word, lab in words
    ]
    ranked.sort()
    return ranked


def _pairs(
    board: BoardColours, target: int, words: list[tuple[str, Lab]], rules: clues.ClueRules
) -> list[tuple[tuple[int, float], str]]:
    """Two-word clues ("mango cream"), read as the blend of their colours, among the words
    whose colours are nearest the target (a blend lies between its words)."""
    target_lab = board.labs[target]
    pool = sorted(words, key=lambda w: colours.distance(w[1], target_lab))[:_PAIR_POOL]
    found: list[tuple[tuple[int, float], str]] = []
    for i, (first, _) in enumerate(pool):
        for second, _ in pool[i + 1 :]:
            text = f"{first} {second}"
            lab = clue_colour(text)
            if lab is None or clues.clue_problems(text, 2, rules):
                continue
            rings = board.rings(board.nearest(lab), target)
            found.append(((rings, colours.distance(lab, target_lab)), text))
    return found


# --------------------------------------------------------------------------- the guesser


def place_marker(view: dict[str, Any], level: Level, rng: random.Random) -> dict[str, Any]:
    """Select the cell, then confirm it: "Select, then confirm"."""
    board = colours.board(view["board"]["id"])
    taken = {board.index_of(m["cell"]) for m in view["markers"]}
    selection = view["selection"]
    hidden = markers_hidden(view)
    if selection is not None and board.index_of(selection) not in taken:
        # Hidden markers: a confirm can be refused for a cell someone hid a marker on, and
        # the view cannot say so. Asked again (with a new seed), move on half of the time.
        if not (hidden and rng.random() < 0.5):
            return {"type": "confirm"}
        taken.add(board.index_of(selection))
    return {"type": "select_cell", "cell": guess_cell(view, level, rng, taken, hidden)}


def markers_hidden(view: dict[str, Any]) -> bool:
    """Whether others' markers are kept from this seat: others placed some, none are shown."""
    me = view["you"]["seat"]
    others_placed = any(s != me for s in view["confirmed"]) or view["phase"] == "guess2"
    return others_placed and not any(m["seat"] != me for m in view["markers"])


def guess_cell(
    view: dict[str, Any], level: Level, rng: random.Random, taken: set[int], hidden: bool
) -> str:
    """The free cell worth most for the latest readable clue (``aim``). With hidden markers
    a cell may be taken unseen: then any of the best few, at random, so that asking again
    finds another."""
    board = colours.board(view["board"]["id"])
    me = view["you"]["seat"]
    own = [board.index_of(m["cell"]) for m in view["markers"] if m["seat"] == me]
    # Bots reading the same clue aim at the same cells, so hidden markers gather there: look
    # among more cells the more markers may be hidden, best first.
    others = sum(1 for s in view["confirmed"] if s != me)
    count = 4 + 3 * others if hidden else 1
    clue = next((c for c in reversed(view["clues"]) if read(c) is not None), None)
    near = aim(board, clue, level, rng, taken, own[0] if own else None, count)
    index = 0
    while hidden and index < len(near) - 1 and rng.random() < 0.7:
        index += 1
    return board.name(near[index])


def aim(
    board: BoardColours,
    clue: str | None,
    level: Level,
    rng: random.Random,
    taken: set[int],
    own: int | None,
    count: int = 1,
) -> list[int]:
    """The ``count`` free cells a guesser would put its marker on for ``clue``, best first.
    A clue read in the lexicon is one colour: its nearest free cell. A clue read by the
    encoder is several likely colours: the free cells of highest expected points
    (``aiming``). Nothing readable: the middle of the board, the least far from all."""
    reading = read(clue) if clue is not None else None
    if reading is None:
        wanted = (board.rows // 2) * board.cols + board.cols // 2
        return board.nearest_free_cells(wanted, taken, count)
    if level is Level.BEGINNER:  # pictures the colours blurred, all by the same mistake
        noise = [rng.gauss(0.0, _BEGINNER_NOISE) for _ in range(3)]
        labs = tuple(tuple(x + n for x, n in zip(lab, noise, strict=True)) for lab in reading.labs)
        reading = reading._replace(labs=labs)  # type: ignore[arg-type]
    return cells_for(board, reading, taken, own, count)


def cells_for(
    board: BoardColours, reading: Reading, taken: set[int], own: int | None, count: int
) -> list[int]:
    """``aim`` for a reading."""
    if reading.known:
        wanted = board.nearest(reading.best())
        if _by_the_seam(board, wanted):
            # Columns 1 and 30 are both red, 29 rings apart: a red by the seam may be meant
            # at either end, so the marker is aimed by expected points over both (a second
            # marker then covers the end the first did not).
            return pitacor_aim.ranked_cells(board, reading, taken, own, count)
        if count == 1:
            return [board.nearest_free(wanted, taken)]
        return board.nearest_free_cells(wanted, taken, count)
    return pitacor_aim.ranked_cells(board, reading, taken, own, count)


_SEAM_COLUMNS = 2  # columns at each end of the board that count as "by the seam"


def _by_the_seam(board: BoardColours, cell: int) -> bool:
    column = cell % board.cols
    return column < _SEAM_COLUMNS or column >= board.cols - _SEAM_COLUMNS
