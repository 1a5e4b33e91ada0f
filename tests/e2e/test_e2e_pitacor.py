"""Pitacor in the browser: whole matches in Chromium against the real server.

Each player is a browser context acting only through the page: the lobby settings, the
candidates, the clue box, the board's cells, the confirm and next-round buttons. What is
asserted is what a player would see (or must not see: the target, other guessers' hidden
markers). Screenshots of every step go to ``test-artifacts/pitacor-*.png``.
"""

from __future__ import annotations

import re

from e2e_actions import LAPTOP, PHONE, no_horizontal_scroll
from pitacor_steps import (
    Wire,
    assert_secret,
    board_colours,
    cell,
    choose_target,
    far_cell,
    find_giver,
    give_clue,
    join_playing_room,
    place,
    place_by_keyboard,
    ring_cell,
    select,
    snap,
    start_match,
    whose_turn,
)
from playwright.sync_api import expect

CLASSIC = (30, 16)
ULTRA = (15, 8)


def my_score(page) -> int:
    return int(page.locator("#scoreboard .score-row.is-me .score").inner_text())


def round_points(page, nickname: str):
    return page.locator("#pitacor-points li", has_text=nickname).locator(".pc-round-points")


def test_three_players_play_a_default_match_to_a_winner(player, artifacts):
    """Two rounds with default settings (goal lowered to 3): a second clue, then a pass with
    its bonus; the winner crosses the goal right away and the podium shows. The guessers'
    pages and WebSocket frames never hold the target before the reveal."""
    pages = [player(), player(), player()]
    names = ["Ana", "Bo", "Cy"]
    wires = [Wire() for _ in pages]
    for page, wire in zip(pages, wires, strict=True):
        wire.attach(page)
    start_match(pages, names, goal=3)

    # ---------------------------------------------------------------- round 1
    g = find_giver(pages)
    giver, guessers = pages[g], [p for i, p in enumerate(pages) if i != g]
    others = [names[i] for i in range(3) if i != g]
    expect(giver.locator("#pitacor-candidates .pc-candidate")).to_have_count(4)
    expect(giver.locator("#status-line")).to_have_text("Your turn: choose the target colour.")
    expect(giver.locator("#pitacor-clock")).to_have_text(re.compile(r"Clue\s*1:[23]\d"))
    expect(giver.locator("#chat-input")).to_be_disabled()
    for page in guessers:
        expect(page.locator(".pc-candidate")).to_have_count(0)
        expect(page.locator("#status-line")).to_have_text(
            f"{names[g]} is choosing the target colour."
        )
        expect(page.locator("#chat-input")).to_be_enabled()
    expect(giver.locator("#pitacor-board .pc-cell")).to_have_count(480)
    snap(giver, artifacts, "laptop-1-choose", full=False)

    target = choose_target(giver, 0)
    give_clue(giver, "ocean")
    for page in guessers:
        expect(page.locator("#pitacor-clues")).to_contain_text("ocean")
        expect(page.locator("#status-line")).to_have_text(
            re.compile("^Your turn: place your marker")
        )

    near, far = ring_cell(target, 1, *CLASSIC), far_cell(target, *CLASSIC)
    select(guessers[0], near)
    expect(guessers[0].locator("#pitacor-confirm")).to_have_text(f"Place my marker on {near}")
    snap(guessers[0], artifacts, "laptop-2-selected", full=False)
    guessers[0].locator("#pitacor-confirm").click()
    # Visible markers: the other guesser sees it land.
    expect(guessers[1].locator("#pitacor-board .pc-marker")).to_have_count(1)
    place(guessers[1], far)
    expect(giver.locator("#status-line")).to_have_text(
        re.compile("^Your turn: give a second clue or pass")
    )
    for page, wire, who in zip(
        guessers, [wires[i] for i in range(3) if i != g], others, strict=True
    ):
        assert_secret(page, wire, target, who)

    give_clue(giver, "forest floor")
    place(guessers[0], far_cell(target, *CLASSIC, skip=(far,)))
    for page, wire, who in zip(
        guessers, [wires[i] for i in range(3) if i != g], others, strict=True
    ):
        assert_secret(page, wire, target, who)
    place(guessers[1], ring_cell(target, 3, *CLASSIC, skip=(far,)))

    for page in pages:
        expect(page.locator("#pitacor-reveal-target")).to_contain_text(f"The target was {target}")
        expect(page.locator("#pitacor-board .pc-zone.ring1")).to_have_count(1)
        expect(page.locator("#pitacor-board .pc-zone.ring2")).to_have_count(1)
        expect(page.locator("#pitacor-board .pc-marker")).to_have_count(4)
    # 2 points for a neighbour; the giver 2 per close guess with exactly 3 players.
    expect(round_points(giver, others[0])).to_have_text("+2")
    expect(round_points(giver, others[1])).to_have_text("+0")
    expect(giver.locator("#pitacor-points .pc-no-marker")).to_have_count(0)  # all placed
    expect(round_points(giver, names[g])).to_have_text("+2")
    expect(giver.locator("#chat-input")).to_be_enabled()
    snap(guessers[0], artifacts, "laptop-3-reveal", full=True)

    # ---------------------------------------------------------------- round 2: a pass
    nexts = [p for p in pages if p.locator("#pitacor-next").is_visible()]
    assert len(nexts) == 1, "exactly one player may start the next round"
    nexts[0].locator("#pitacor-next").click()
    g2 = find_giver(pages)
    giver2 = pages[g2]
    assert g2 != g
    # Past rounds: folded away while playing, the last one a click away.
    history = pages[0].locator("#pitacor-history-card")
    expect(history).to_be_visible()
    expect(history.locator("summary")).to_have_text("Past rounds (1)")
    assert history.get_attribute("open") is None
    history.locator("summary").click()
    first = history.locator("li.pc-history-round[data-round='1']")
    expect(first).to_contain_text(target)
    expect(first).to_contain_text(names[g])
    expect(first.locator(".pc-history-clue")).to_have_text(["ocean", "forest floor"])
    expect(first.locator(".pc-history-points")).to_contain_text(f"{others[0]}+2")
    history.locator("summary").click()
    guessers2 = sorted((p for i, p in enumerate(pages) if i != g2), key=my_score, reverse=True)
    leader = names[pages.index(guessers2[0])]
    choose_target(giver2, 1)
    target2 = giver2.locator("#pitacor-my-target .pc-cell-name").inner_text()
    give_clue(giver2, "meadow")
    place(guessers2[0], ring_cell(target2, 1, *CLASSIC))
    # The other guesser plays with the keyboard only.
    place_by_keyboard(
        guessers2[1], ring_cell(target2, 1, *CLASSIC, skip=(ring_cell(target2, 1, *CLASSIC),))
    )
    expect(giver2.locator("#pitacor-pass")).to_have_text("Pass: your points this round ×2")
    giver2.locator("#pitacor-pass").click()

    # The leader crosses the goal first (guessers in guessing order, the giver last) and wins
    # on the spot; the giver earned 2 × 2 close guesses × 2 for passing, but nothing was added.
    for page in pages:
        expect(page.locator("#pitacor-podium")).to_be_visible()
        expect(page.locator("#status-line")).to_have_text(f"{leader} won the match!")
        expect(page.locator("#pitacor-podium .step-1")).to_contain_text(leader)
    expect(round_points(giver2, names[g2])).to_have_text("+8")
    expect(
        giver2.locator("#pitacor-points li", has_text=names[g2]).locator(".pc-awarded")
    ).to_have_text("added: 0")
    expect(pages[0].locator("#rematch")).to_be_visible()
    # Above the podium, in the first screenful (it was under the podium and the reveal).
    top = pages[0].locator("#rematch").evaluate("b => b.getBoundingClientRect().top + scrollY")
    assert top < pages[0].viewport_size["height"] / 2, top
    expect(pages[1].locator(".rematch-box")).to_contain_text("Ana")
    # On the podium the whole match is open, newest round first.
    history = pages[1].locator("#pitacor-history-card")
    expect(history).to_have_attribute("open", "")
    expect(history.locator("li.pc-history-round")).to_have_count(2)
    last = history.locator("li.pc-history-round").first
    expect(last).to_have_attribute("data-round", "2")
    expect(last).to_contain_text(target2)
    expect(last.locator(".pc-history-clue")).to_have_text(["meadow"])
    expect(last.locator(".pc-passed")).to_have_text("Passed: clue giver's points ×2")
    # What was added, not what was earned: the giver's 8 came after the winner.
    expect(last.locator(".pc-history-points")).to_contain_text(leader)
    expect(last.locator(".pc-history-points")).not_to_contain_text(names[g2])
    snap(pages[0], artifacts, "laptop-4-podium", full=False)
    snap(pages[1], artifacts, "laptop-4-podium-guest", full=True)


def test_turns_and_hidden_markers_on_phones(player, artifacts):
    """Turns + hidden on 360×640 phones: a refused clue explained next to the box, whose turn
    it is and the order flipped on the second pass, hidden markers absent from the other
    guessers' pages and frames, a reloaded tab back in place with its marker; every step
    playable without sideways scrolling (screenshots of each)."""
    pages = [player(viewport=PHONE) for _ in range(3)]
    names = ["Ana", "Bo", "Cy"]
    wires = [Wire() for _ in pages]
    for page, wire in zip(pages, wires, strict=True):
        wire.attach(page)
    start_match(pages, names, guess_mode="turns", markers="hidden")

    g = find_giver(pages)
    giver = pages[g]
    snap(giver, artifacts, "phone-1-choose")
    snap(pages[(g + 1) % 3], artifacts, "phone-1-waiting")
    target = choose_target(giver, 2)

    # A refused clue: the live check says why while typing, and so does the refusal.
    clue, verdict = giver.locator("#pitacor-clue"), giver.locator("#pitacor-clue-error")
    clue.fill("reddish")
    expect(verdict).to_have_text("Not allowed: “reddish” is a colour name.")
    snap(giver, artifacts, "phone-2-clue-refused")
    giver.locator("#pitacor-give").click()
    expect(verdict).to_contain_text("colour name")
    expect(giver.locator("#pitacor-clues")).to_contain_text("No clue yet")
    clue.fill("ocean")
    expect(verdict).to_have_text("This clue is allowed.")
    giver.locator("#pitacor-give").click()
    giver.locator("#pitacor-clues .pc-clue-text", has_text="ocean").wait_for()
    expect(giver.locator("#chat-input")).to_have_attribute("placeholder", "Chat closed")
    # The reason in full, on a line that wraps (a placeholder is cut short on a phone).
    giver.locator(".chat-toggle").click()
    why = giver.locator("#chat-closed-why")
    expect(why).to_have_text("Clue givers can't chat until the reveal")
    giver.keyboard.press("Escape")

    # First pass, in seat order from the giver's left.
    first = whose_turn(pages)
    second = 3 - g - first
    order = pages[second].locator("#pitacor-turns li .name").all_inner_texts()
    assert order == [names[first], names[second]]
    expect(pages[second].locator("#status-line")).to_have_text(
        f"{names[first]}'s turn to place a marker."
    )
    snap(pages[second], artifacts, "phone-3-turn-of-other")
    near = ring_cell(target, 1, *CLASSIC)
    select(pages[first], near)
    snap(pages[first], artifacts, "phone-4-selected", full=False)
    pages[first].locator("#pitacor-confirm").click()
    expect(pages[second].locator("#status-line")).to_have_text(
        re.compile("^Your turn: place your marker")
    )

    # Hidden: only the owner has the marker, in the DOM and on the wire.
    expect(cell(pages[first], near).locator(".pc-marker.mine")).to_be_visible()
    for i in (second, g):
        expect(pages[i].locator("#pitacor-board .pc-marker")).to_have_count(0)
        assert f'"{near}"' not in pages[i].content()
        assert not wires[i].mentions(f'"{near}"'), f"{names[i]} received a hidden marker"

    # A reloaded tab comes back in its seat, with its marker.
    pages[first].reload()
    expect(cell(pages[first], near).locator(".pc-marker.mine")).to_be_visible()
    expect(pages[first].locator("#pitacor-picked")).to_have_text(f"Your marker is on {near}.")
    expect(pages[first].locator("#status-line")).to_have_text(
        f"{names[second]}'s turn to place a marker."
    )
    snap(pages[first], artifacts, "phone-5-reloaded")

    place(pages[second], far_cell(target, *CLASSIC))
    snap(giver, artifacts, "phone-6-second-clue")
    give_clue(giver, "tropical lagoon")

    # Second pass: the order flips.
    expect(pages[second].locator("#status-line")).to_have_text(
        "Your turn: place your second marker."
    )
    expect(pages[first].locator("#pitacor-turns-title")).to_contain_text("reversed")
    order2 = pages[first].locator("#pitacor-turns li .name").all_inner_texts()
    assert order2 == [names[second], names[first]]
    place(pages[second], far_cell(target, *CLASSIC, skip=(far_cell(target, *CLASSIC),)))
    snap(pages[first], artifacts, "phone-7-second-pass")
    for i in (first, second):
        assert_secret(pages[i], wires[i], target, names[i])
    place(pages[first], ring_cell(target, 2, *CLASSIC))

    for page in pages:
        expect(page.locator("#pitacor-board .pc-marker")).to_have_count(4)
        expect(page.locator("#pitacor-reveal-target")).to_contain_text(target)
    snap(pages[first], artifacts, "phone-8-reveal")
    pages[first].locator("#pitacor-edges").check()
    expect(pages[first].locator("#pitacor-board.edges .pc-edge-row")).to_have_count(16)
    snap(pages[first], artifacts, "phone-9-edge-labels", full=False)


def test_ultra_hard_round_with_a_late_joiner_and_a_warned_clock(player, artifacts):
    """Ultra Hard: hex codes and no colours for everyone (the giver too) until the reveal.
    A fourth player joins mid-round and plays from the next one. The guess clock (warn mode)
    turns urgent in its last 10 s, then shows the overtime.

    The guess clock is short (11 s) so that it runs out within the test; what must be seen
    before it does, the urgent clock, is checked first thing after the clue, and the rest
    waits on the page (warn mode waits as long as it takes). The reveal has a long clock:
    nothing here needs it to run out, and a slow machine must not see the next round start
    by itself before the test clicks it."""
    pages = [player(), player(), player()]
    names = ["Ana", "Bo", "Cy"]
    code = start_match(
        pages, names, ultra_hard=True, guess_seconds=11, on_timeout="warn", reveal_seconds=120
    )
    for page in pages:
        drawn = board_colours(page)
        assert drawn["count"] == 120
        assert all(re.fullmatch(r"#[0-9A-F]{6}", text) for text in drawn["hexes"])
        assert drawn["backgrounds"] == 1, "Ultra Hard shows colours before the reveal"

    g = find_giver(pages)
    giver, guessers = pages[g], [p for i, p in enumerate(pages) if i != g]
    swatches = giver.locator("#pitacor-candidates .pc-swatch-hex").all_inner_texts()
    assert len(swatches) == 4 and all(re.fullmatch(r"#[0-9A-F]{6}", s) for s in swatches)
    snap(giver, artifacts, "ultra-1-choose", full=False)
    target = choose_target(giver, 0)
    give_clue(giver, "lagoon")
    # From 1 s after the clue until the clock runs out: 10 s to see it.
    expect(guessers[1].locator("#pitacor-clock.urgent")).to_be_visible(timeout=10_000)
    snap(guessers[1], artifacts, "ultra-2-urgent-clock", full=False)

    late = player(viewport=PHONE)
    join_playing_room(late, "Dee", code)
    expect(late.locator("#pitacor-notice")).to_have_text(
        "You joined during this round: you play from the next round."
    )
    expect(late.locator("#status-line")).to_have_text(
        "You joined mid-round: you play from the next round."
    )
    expect(pages[0].locator("#scoreboard li", has_text="Dee")).to_contain_text("from next round")
    assert no_horizontal_scroll(late)
    snap(late, artifacts, "ultra-3-late-joiner")

    place(guessers[0], ring_cell(target, 1, *ULTRA))  # in overtime too, on a slow machine
    expect(guessers[1].locator("#pitacor-overtime")).to_be_visible(timeout=15_000)
    expect(guessers[1].locator("#pitacor-clock")).to_be_hidden()
    place(guessers[1], far_cell(target, *ULTRA))
    giver.locator("#pitacor-pass").click()

    for page in [*pages, late]:
        expect(page.locator("#pitacor-reveal-target")).to_contain_text(target)
        assert board_colours(page)["backgrounds"] > 100, "the colours appear at the reveal"
    snap(giver, artifacts, "ultra-4-reveal", full=False)
    snap(late, artifacts, "ultra-4-reveal-phone")

    nexts = [p for p in pages if p.locator("#pitacor-next").is_visible()]
    nexts[0].locator("#pitacor-next").click()
    expect(late.locator("#pitacor-notice")).to_be_hidden()
    expect(late.locator("#status-line")).not_to_contain_text("next round")


def test_a_visible_wait_when_the_clue_giver_drops(player):
    """ "If the clue giver drops, the clock waits about a minute": the others see whom they wait
    for and how long, and the giver who comes back finds the round where it was."""
    pages = [player(viewport=LAPTOP) for _ in range(3)]
    start_match(pages, ["Ana", "Bo", "Cy"])
    giver = pages[find_giver(pages)]
    name = next(n for n, p in zip(["Ana", "Bo", "Cy"], pages, strict=True) if p is giver)
    choose_target(giver)
    url = giver.url
    giver.goto("about:blank")  # the giver's phone drops off the network
    watcher = next(p for p in pages if p is not giver)
    wait = watcher.locator("#pitacor-clock")
    expect(wait).to_contain_text(f"Waiting for {name} to come back", timeout=15_000)
    expect(watcher.locator("#status-line")).to_contain_text(re.compile(r"\d:\d\d"))
    giver.goto(url)  # back in time: the round goes on, the target still chosen
    giver.locator("#pitacor-clue").wait_for()
    expect(wait).not_to_contain_text("come back", timeout=15_000)


def test_a_guesser_whose_clock_runs_out_is_told_no_marker_was_placed(player):
    """ "the game forces the move": a guesser who selected nothing gets no marker; they are
    told when it happens, and the reveal says so on their row rather than a bare +0."""
    pages = [player(), player(), player()]
    names = ["Ana", "Bo", "Cy"]
    start_match(pages, names, guess_seconds=6)
    g = find_giver(pages)
    giver = pages[g]
    busy, idle = [i for i in range(3) if i != g]
    target = choose_target(giver, 0)
    give_clue(giver, "ocean")
    place(pages[busy], ring_cell(target, 1, *CLASSIC))
    # Nobody waits for the idle guesser past the clock; the giver passes the second clue.
    expect(giver.locator("#pitacor-pass")).to_be_visible(timeout=15_000)
    # The idle guesser is told at once, not only at the reveal.
    expect(pages[idle].locator("#pitacor-notice")).to_contain_text("no marker for you")
    expect(pages[busy].locator("#pitacor-notice")).to_be_hidden()
    giver.locator("#pitacor-pass").click()
    for page in pages:
        expect(page.locator("#pitacor-reveal-target")).to_contain_text(target)
    for page in pages:
        row = page.locator("#pitacor-points li", has_text=names[idle])
        expect(row.locator(".pc-no-marker")).to_have_text("no marker placed")
        expect(row.locator(".pc-round-points")).to_have_text("+0")
        busy_row = page.locator("#pitacor-points li", has_text=names[busy])
        expect(busy_row.locator(".pc-no-marker")).to_have_count(0)


def giver_target_on_board(page) -> list[str]:
    """The cells the board rings as the target, by their coordinate (the cell's text)."""
    return [
        text.split()[0] if text.split() else ""
        for text in page.locator("#pitacor-board .pc-cell.target .pc-coord").all_inner_texts()
    ]


def short_status_bar(page, step: str) -> None:
    """19.6: on a phone the sticky status bar is at most two lines (it was often three,
    ~90 of 640 px)."""
    if page.viewport_size != PHONE:
        return
    height = page.locator("#status-bar").evaluate("el => el.getBoundingClientRect().height")
    assert height <= 56, f"the status bar is {height} px tall during {step}"


def test_the_clue_giver_sees_their_target_on_the_board_throughout(player, artifacts):
    """Issue 19.1: "Show the target on the giver's board throughout (and only on the
    giver's)". Through both clues and both guesses the giver's board rings the target and
    says it under the board; the guessers' boards ring nothing, and no byte they receive or
    hold names the target. Also 19.8: one marker missing is "a marker", singular, and the
    pill beside the giver says what we wait for them to do, not a bare "Waiting"."""
    pages = [player(viewport=PHONE), player(viewport=PHONE), player(viewport=LAPTOP)]
    names = ["Ana", "Bo", "Cy"]
    wires = [Wire() for _ in pages]
    for page, wire in zip(pages, wires, strict=True):
        wire.attach(page)
    start_match(pages, names)
    g = find_giver(pages)
    giver, guessers = pages[g], [p for i, p in enumerate(pages) if i != g]
    guesser_wires = [w for i, w in enumerate(wires) if i != g]
    giver_row = guessers[0].locator(f"#scoreboard .score-row:has-text('{names[g]}') .pill.waiting")
    expect(giver_row).to_have_text("choosing a colour")
    target = choose_target(giver, 1)
    expect(giver_row).to_have_text("writing a clue")

    def only_the_giver_sees_it(step: str) -> None:
        assert giver_target_on_board(giver) == [target], step
        for page in pages:
            short_status_bar(page, step)
        expect(giver.locator("#pitacor-target-note")).to_contain_text(f"Your target: {target}")
        expect(giver.locator("#pitacor-board .pc-zone.ring1")).to_have_count(1)
        for page, wire in zip(guessers, guesser_wires, strict=True):
            expect(page.locator("#pitacor-board .pc-cell.target")).to_have_count(0)
            expect(page.locator("#pitacor-board .pc-zone")).to_have_count(0)
            expect(page.locator("#pitacor-target-note")).to_be_hidden()
            assert_secret(page, wire, target, f"a guesser during {step}")

    only_the_giver_sees_it("the first clue")
    give_clue(giver, "ocean")
    only_the_giver_sees_it("the first guesses")
    # The giver's panel is gone while people guess: the board alone shows the target.
    expect(giver.locator("#pitacor-giver")).to_be_hidden()
    snap(giver, artifacts, "target-giver-guessing", full=False)
    first = guessers[0]
    place(first, far_cell(target, *CLASSIC))
    last = names[pages.index(guessers[1])]
    expect(first.locator("#status-line")).to_have_text(f"Marker placed. Waiting for {last}.")
    expect(giver.locator("#status-line")).to_have_text(f"Waiting for {last} to place a marker.")
    expect(first.locator(f"#scoreboard .score-row:has-text('{last}') .pill.waiting")).to_have_text(
        "placing a marker"
    )
    place(guessers[1], ring_cell(target, 2, *CLASSIC))
    expect(giver.locator("#pitacor-pass")).to_be_visible()
    only_the_giver_sees_it("the choice of a second clue")
    snap(giver, artifacts, "target-giver-second-clue", full=False)
    give_clue(giver, "tide")
    only_the_giver_sees_it("the second guesses")
    place(guessers[0], ring_cell(target, 1, *CLASSIC))
    place(guessers[1], ring_cell(target, 1, *CLASSIC, skip=(ring_cell(target, 1, *CLASSIC),)))
    # At the reveal everyone's board rings the same target.
    for page in pages:
        expect(page.locator("#pitacor-reveal-target")).to_contain_text(target)
        assert giver_target_on_board(page) == [target]
    expect(giver.locator("#pitacor-target-note")).to_be_hidden()
    # 19.2: the reveal magnified around the target, every marker with what it scored (the
    # far first markers either in the window at +0 or listed under it).
    phone = guessers[0] if guessers[0].viewport_size == PHONE else guessers[1]
    inset = phone.locator("#pitacor-inset")
    expect(inset).to_be_visible()
    expect(inset.locator(".pc-inset-cell.target")).to_have_count(1)
    expect(inset.locator(".pc-inset-marker[data-points='2'] .pc-inset-points")).to_have_text(
        ["+2", "+2"]
    )
    expect(inset.locator(".pc-inset-marker[data-points='1'] .pc-inset-points")).to_have_text(["+1"])
    shown = inset.locator(".pc-inset-marker").count() + inset.locator(".pc-inset-far li").count()
    assert shown == 4
    cell_width = inset.locator(".pc-inset-cell").first.bounding_box()["width"]
    assert cell_width >= 36, f"magnified cells are {cell_width} px wide on a phone"
    expect(inset.locator(".pc-inset-legend li")).to_have_text(
        ["target+3", "next to it+2", "the ring after+1"]
    )
    snap(phone, artifacts, "target-reveal-phone")
    for page in pages:
        short_status_bar(page, "the reveal")
