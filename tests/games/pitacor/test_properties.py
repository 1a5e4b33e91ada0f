"""Properties over random Pitacor matches of 3–10 players (hypothesis).

Random players do random things, legal or not, in random settings, with the clock running
(and now and then extended by the room, as after a restart):
- replaying the action log rebuilds exactly the same state;
- no seat's view ever contains a secret it may not see;
- a guesser never gains more than the exact-cell value in a round;
- scores only change at reveals, and always equal the sum of what the rounds awarded;
- a refused action changes nothing;
- an action that names whose views it can change (``views_changed_by``) leaves every other
  seat's view, and the spectators', exactly as it was (the room re-sends those unbuilt);
- the clue-giver line's current index points at the round's giver, and between two turns of
  a player every other player who stayed in the match gives exactly once (issue 17: a leave
  and rejoin skipped someone);
- a running match never waits for an absent player: with no clock running, someone who is
  here can move it on (issue 17: an untimed reveal waited for a next giver who had dropped);
- folding never changes an earlier state (each move changes a fork that shares the filed
  rounds with the state before it), folds exactly as a whole copy of the state did, and a
  restart from any saved state replays to the live match.
"""

from __future__ import annotations

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from patched_views import PatchedViews
from pitacor_driver import CLUE_WORDS, Match

from tertulia.games import base
from tertulia.games.base import RuleError, Timeout
from tertulia.games.pitacor import rules
from tertulia.games.pitacor.settings import EndMode, GuessMode, MarkerVisibility, OnTimeout
from tertulia.games.pitacor.state import (
    GUESS_PHASES,
    ChooseTarget,
    Confirm,
    GiveClue,
    NextRound,
    PassClue,
    Phase,
    Ready,
    SelectCell,
    State,
)
from tertulia.games.pitacor.views import view, views_changed_by

match_settings = st.fixed_dictionaries(
    {
        "guess_mode": st.sampled_from(GuessMode),
        "markers": st.sampled_from(MarkerVisibility),
        "end_mode": st.sampled_from(EndMode),
        "on_timeout": st.sampled_from(OnTimeout),
        "ultra_hard": st.booleans(),
        "goal": st.integers(min_value=1, max_value=12),
        "clue_seconds": st.sampled_from([0, 90]),
        "guess_seconds": st.sampled_from([0, 45]),
        "reveal_seconds": st.sampled_from([0, 15]),
    }
)

CLUES = ["ocean", "lemon", "calm tide", "red", "12", "sand dune", "forest", "x", "ember glow"]


def _moves(match: Match, data: st.DataObject) -> tuple[str | None, base.Action]:
    """One plausible move: mostly what the phase expects, sometimes nonsense or a room event."""
    state = match.state
    seats = [m.id for m in state.members] + ["late1", "late2"]
    kind = data.draw(st.integers(min_value=0, max_value=19))
    anyone = data.draw(st.sampled_from(seats))
    board = rules.board_of(state.settings)
    if kind <= 1 and state.deadline is not None:
        match.now = max(match.now, state.deadline)
        return None, Timeout()
    if kind == 2:
        nick = data.draw(st.sampled_from(["Zoe", "Yan"]))
        action = data.draw(st.sampled_from([rules.Join, rules.Drop, rules.Return, rules.Leave]))
        return None, action(anyone, nick) if action is rules.Join else action(anyone)
    if kind == 3:
        match.now += data.draw(st.integers(min_value=0, max_value=30))
        if data.draw(st.booleans()):  # the room's restart grace, later or not than the clock
            return None, base.Extend(match.now + data.draw(st.integers(min_value=0, max_value=20)))
    if state.phase is Phase.CHOOSE or kind == 4:
        return state.round.giver, ChooseTarget(data.draw(st.integers(min_value=-1, max_value=4)))
    if state.phase in (Phase.CLUE1, Phase.CLUE2) or kind == 5:
        if data.draw(st.booleans()) and state.phase is Phase.CLUE2:
            return state.round.giver, PassClue()
        return state.round.giver, GiveClue(data.draw(st.sampled_from(CLUES)))
    if state.phase in GUESS_PHASES:
        turn = rules.current_turn(state)
        seat = turn if turn is not None and kind < 15 else data.draw(st.sampled_from(seats))
        if data.draw(st.booleans()):
            return seat, Confirm()
        cell = board.name(
            data.draw(st.integers(min_value=0, max_value=board.rows - 1)),
            data.draw(st.integers(min_value=0, max_value=board.cols - 1)),
        )
        return seat, SelectCell(cell)
    if state.phase is Phase.REVEAL:
        if data.draw(st.booleans()):
            return anyone, Ready()
        return (rules.upcoming_giver(state) if kind < 15 else anyone), NextRound()
    return anyone, Confirm()


def _assert_the_line_points_at_the_giver(state) -> None:
    """ "the line's current index points at the current giver" """
    if state.phase is not Phase.ENDED:
        assert state.giver_line[state.giver_index] == state.round.giver
        assert sorted(state.giver_line) == sorted({m.id for m in state.members})


def _assert_everyone_gives_once_per_cycle(
    state, in_line_since: dict[str, int], away_in: dict[str, set[int]]
) -> None:
    """ "The turn goes around everyone": between two turns of X, every Y who was in the line
    by then and never left meanwhile (nor X) gives exactly once. A dropped player keeps their
    turns (a skipped turn counts as one); a player who left and came back starts afresh at
    the end of the line, so the pairs that span their absence say nothing."""
    rounds = [*state.history]
    if state.round.number and state.round not in rounds:
        rounds.append(state.round)
    givers = [rnd.giver for rnd in rounds]
    numbers = [rnd.number for rnd in rounds]
    for start, giver in enumerate(givers):
        if giver not in givers[start + 1 :]:
            continue
        end = givers.index(giver, start + 1)
        span = set(range(numbers[start], numbers[end] + 1))
        if away_in.get(giver, set()) & span:
            continue
        between = givers[start + 1 : end]
        for other, since in in_line_since.items():
            if other != giver and since <= numbers[start] and not away_in.get(other, set()) & span:
                assert between.count(other) == 1, (giver, other, givers)


def _someone_here_can_move_on(state) -> bool:
    """Whether a player who is here has a move the rules accept that moves the match on."""
    rnd = state.round
    board = rules.board_of(state.settings)
    taken = {m.cell for m in rnd.markers}
    free = next(cell for cell in board.cells() if cell not in taken)
    clue = next(c for c in CLUE_WORDS if c not in state.used_clues)
    tries: list[list[base.Action]] = [
        [ChooseTarget(0)],
        [GiveClue(clue)],
        [PassClue()],
        [NextRound()],
        [SelectCell(free), Confirm()],
    ]
    for member in state.members:
        if not base.is_here(member):
            continue
        for moves in tries:
            current = state
            try:
                for move in moves:
                    current, _ = rules.apply(current, member.id, move, 0.0)
            except RuleError:
                continue
            return True
    return False


def _assert_never_stalls(state) -> None:
    """A running match with no clock either has someone here who can act, or nobody here."""
    if state.phase is Phase.ENDED or state.deadline is not None:
        return
    if any(base.is_here(m) for m in state.members):
        assert _someone_here_can_move_on(state), (state.phase, state.clock)


def _assert_no_secrets(match: Match) -> None:
    state = match.state
    rnd = state.round
    revealed = state.phase in (Phase.REVEAL, Phase.ENDED)
    hidden = state.settings.markers is MarkerVisibility.HIDDEN and not revealed
    for seat in [m.id for m in state.members] + [None]:
        seen = view(state, seat)
        # Past rounds are public; look for leaks in the rest of the view.
        raw = msgspec.json.encode({k: v for k, v in seen.items() if k != "history"})
        if seat != rnd.giver and not revealed:
            assert seen["target"] is None and seen["candidates"] is None
            shown = {m["cell"] for m in seen["markers"]} | {seen["selection"]}
            for cell in rnd.candidates:
                if cell not in shown:
                    assert f'"{cell}"'.encode() not in raw
        if hidden:
            assert all(m["seat"] == seat for m in seen["markers"])
        shown = {m["cell"] for m in seen["markers"]} | {seen["selection"]}
        for other, cell in rnd.selections.items():
            if other != seat and cell not in shown and cell not in rnd.candidates:
                assert f'"{cell}"'.encode() not in raw
        if state.settings.ultra_hard and not revealed:
            assert seen["board"]["show_colours"] is False


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    count=st.integers(min_value=3, max_value=10),
    seed=st.integers(min_value=0, max_value=2**32),
    options=match_settings,
    data=st.data(),
)
def test_random_matches_keep_every_promise(count, seed, options, data):
    match = Match(count, seed=seed, **options)
    exact = match.state.settings.exact_points
    # "applying every patch to the first view gives exactly the full view at every version"
    pictures = PatchedViews(lambda who: view(match.state, who))
    pictures.follow([m.id for m in match.state.members] + ["late1", None])
    in_line_since = {seat: 1 for seat in match.state.giver_line}
    away_in: dict[str, set[int]] = {}
    for _ in range(data.draw(st.integers(min_value=20, max_value=120))):
        seat, action = _moves(match, data)
        before = match.state
        snapshot = base.clone(before)
        scores_before = match.scores()
        onlookers = [m.id for m in before.members] + ["late1", None]
        views_before = {who: view(before, who) for who in onlookers}
        try:
            events = match.act(seat, action)
        except RuleError:
            assert match.state == snapshot == before  # refused: nothing changed
            continue
        pictures.follow(onlookers)
        changed = views_changed_by(seat, action)
        if changed is not None:
            for who in onlookers:
                if who not in changed:
                    assert view(match.state, who) == views_before[who], who
        kinds = [e.kind for e in events]
        if any(match.score(who) != points for who, points in scores_before.items()):
            assert "round.revealed" in kinds  # scores only change at reveals
        _assert_no_secrets(match)
        state = match.state
        for member in state.members:
            in_line_since.setdefault(member.id, state.round.number)
            if member.left:
                away_in.setdefault(member.id, set()).add(state.round.number)
        _assert_the_line_points_at_the_giver(state)
        _assert_everyone_gives_once_per_cycle(state, in_line_since, away_in)
        _assert_never_stalls(state)
        for rnd in [*match.state.history, match.state.round]:
            for guesser in rnd.guessers:
                assert rnd.points.get(guesser, 0) <= exact
        awarded: dict[str, int] = {}
        rounds = list(match.state.history)
        if match.state.round not in rounds:
            rounds.append(match.state.round)
        for rnd in rounds:
            for who, gained in rnd.awarded.items():
                awarded[who] = awarded.get(who, 0) + gained
        assert {k: v for k, v in match.scores().items() if v} == {
            k: v for k, v in awarded.items() if v
        }
        if match.phase is Phase.ENDED:
            break
    assert match.replay() == match.state


# Pitacor's rules folded as before forks: every move on a whole copy (``base.clone``).
_apply_on_a_whole_copy = base.apply_with(
    rules._HANDLERS, rules.PHASE_ACTIONS, rules.SEATS, judging={GiveClue}
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    count=st.integers(min_value=3, max_value=10),
    seed=st.integers(min_value=0, max_value=2**32),
    options=match_settings,
    data=st.data(),
)
def test_a_fold_never_changes_an_earlier_state(count, seed, options, data):
    """ "A game is pure: apply(state, seat, action, now) returns a new state ... and leaves the
    state exactly as it was" (games/base.py). After a whole random match, refused moves and
    moves past its end included, every state it went through is still byte for byte what it
    was when it was made; folding the log on whole copies gives the very same states; and a
    restart from any of them (its saved bytes, then the rest of the log replayed without
    judging text, as the room does) ends where the live match is."""
    match = Match(count, seed=seed, **options)
    encode = msgspec.msgpack.encode
    states = [(match.state, encode(match.state))]  # the state after each accepted move
    for _ in range(data.draw(st.integers(min_value=20, max_value=150))):
        seat, action = _moves(match, data)
        try:
            match.act(seat, action)
        except RuleError:
            continue
        states.append((match.state, encode(match.state)))
    for number, (state, made) in enumerate(states):
        assert encode(state) == made, f"the state after move {number} changed later"
    whole = rules.start(match.settings, match.players, match.seed, 1000.0, public=match.public)
    for (seat, action, now), (state, _) in zip(match.log, states[1:], strict=True):
        whole, _ = _apply_on_a_whole_copy(whole, seat, action, now)
        assert whole == state
    saved = data.draw(st.integers(min_value=0, max_value=len(match.log)))
    restarted = msgspec.msgpack.decode(states[saved][1], type=State)
    for seat, action, now in match.log[saved:]:
        restarted, _ = rules.apply(restarted, seat, action, now, judge_text=False)
    assert restarted == match.state


@settings(max_examples=25, deadline=None)
@given(count=st.integers(min_value=3, max_value=10), seed=st.integers(min_value=0, max_value=2**32))
def test_a_simple_match_always_ends_with_a_winner(count, seed):
    match = Match(count, seed=seed, goal=8)
    for _ in range(200):
        if match.phase is Phase.ENDED:
            break
        target = match.choose(seed % 4)
        match.clue(match.fresh_clue())
        first, *others = match.guessers
        aims = match.around(target, 1, seats=[first])
        aims |= match.around(target, 5, seats=others)
        match.guess_all(aims)
        match.pass_clue()
        if match.phase is Phase.REVEAL:
            match.next_round()
    assert match.phase is Phase.ENDED and match.state.winners
    assert max(match.scores().values()) >= 8


def _advance(match: Match) -> None:
    """The move the phase waits for, by whoever it waits for (or the clock)."""
    state = match.state
    if state.deadline is not None and state.clock.value in ("giver_away", "guess"):
        match.timeout()
    elif state.phase is Phase.CHOOSE:
        match.choose()
    elif state.phase in (Phase.CLUE1, Phase.CLUE2):
        if state.phase is Phase.CLUE2:
            match.pass_clue()
        else:
            match.clue(match.fresh_clue())
    elif state.phase in GUESS_PHASES:
        match.timeout()
    elif state.phase is Phase.REVEAL:
        movers = rules.who_may_start_next_round(state)
        if movers:
            match.act(movers[0], NextRound())
        elif state.deadline is not None:
            match.timeout()
        # else: an untimed reveal with everyone away waits for whoever comes back first


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    count=st.integers(min_value=4, max_value=8),
    seed=st.integers(min_value=0, max_value=2**32),
    reveal_seconds=st.sampled_from([0, 15]),
    clue_seconds=st.sampled_from([0, 90]),
    data=st.data(),
)
def test_the_turn_goes_around_everyone_through_leaves_and_rejoins(
    count, seed, reveal_seconds, clue_seconds, data
):
    """ "The turn goes around everyone in lobby order": players leave, come back, drop and
    join at any point of a round, and still nobody is skipped or gives twice before the others
    have given; the index always points at the giver; and nothing ever waits for someone who
    is not here."""
    match = Match(
        count, seed=seed, goal=200, reveal_seconds=reveal_seconds, clue_seconds=clue_seconds
    )
    in_line_since = {seat: 1 for seat in match.state.giver_line}
    away_in: dict[str, set[int]] = {}
    newcomers = iter(["late1", "late2", "late3"])
    for _ in range(data.draw(st.integers(min_value=10, max_value=50))):
        state = match.state
        members = [m.id for m in state.members]
        event = data.draw(st.integers(min_value=0, max_value=5))
        seat = data.draw(st.sampled_from(members))
        member = rules.find_member(state, seat)
        playing = sum(1 for m in state.members if not m.left)
        if event == 0 and not member.left and playing > 3:
            match.leave(seat)
        elif event == 1 and member.left and playing < rules.MAX_PLAYERS:
            match.join(seat, member.nickname)
        elif event == 2 and member.online and not member.left:
            match.drop(seat)
        elif event == 3 and not member.online and not member.left:
            match.back(seat)
        elif event == 4 and playing < rules.MAX_PLAYERS:
            newcomer = next(newcomers, None)
            if newcomer is not None:
                match.join(newcomer, newcomer.title())
        else:
            _advance(match)
        state = match.state
        assert state.phase is not Phase.ENDED
        for m in state.members:
            in_line_since.setdefault(m.id, state.round.number)
            if m.left:
                away_in.setdefault(m.id, set()).add(state.round.number)
        _assert_the_line_points_at_the_giver(state)
        _assert_everyone_gives_once_per_cycle(state, in_line_since, away_in)
        _assert_never_stalls(state)
    assert match.replay() == match.state
