"""Pintó in Chromium, against the real server, acting only through the page.

Three players draw with real pointer events, interpret, judge and finish a 3-round game to
the final scores (which must be the rulebook's); a phone draws with a finger without the page
scrolling and keeps its drawing over a reload; a title that uses the category's name is
refused with its reason shown next to the title box; a phone and a laptop dispute marks and
vote on them, and every round is still there after a reload at the end.
"""

from __future__ import annotations

import re

from e2e_actions import LAPTOP, create_room, join_room, no_horizontal_scroll, settled, until
from pinto_steps import (
    ZIGZAG,
    accept_marks,
    category,
    dispute,
    draw,
    finish_with_blanks,
    inked_pixels,
    interpret,
    my_id,
    open_touch_phone,
    pick,
    reveal,
    scores,
    screen,
    start_pinto,
    touch_draw,
    vote,
    wait_for,
    write_title,
)
from playwright.sync_api import expect

TITLES = [
    ["lighthouse", "octopus", "volcano"],
    ["umbrella", "pyramid", "snowman"],
    ["rocket", "cactus", "teapot"],
]
# GUESSES[round][guesser][artist]: R = the title itself, W = a wrong guess, B = left blank.
GUESSES = [
    {0: {1: "R", 2: "W"}, 1: {0: "R", 2: "B"}, 2: {0: "W", 1: "R"}},
    {0: {1: "W", 2: "R"}, 1: {0: "R", 2: "W"}, 2: {0: "R", 1: "B"}},
    {0: {1: "R", 2: "B"}, 1: {0: "R", 2: "R"}, 2: {0: "W", 1: "W"}},
]
# With these, Ana and Bo end on 6 points each; Bo's best round (3) beats Ana's (2).
# In round 2 the artist of seat 1 disputes seat 0's wrong guess, and seat 2 votes it right.
FLIPS = {1: {1: {0: True}}}
PENS = [("red", 10), ("blue", 20), ("green", 5)]


def rulebook_points(artist: int, right: dict[int, bool]) -> dict[int, int]:
    """Some right: artist and right guessers +1 per wrong guesser; all right: guessers +1;
    none right: the artist -1."""
    winners = [seat for seat, ok in right.items() if ok]
    wrong = len(right) - len(winners)
    if not winners:
        return {artist: -1}
    if not wrong:
        return dict.fromkeys(winners, 1)
    return {artist: wrong, **dict.fromkeys(winners, wrong)}


def expected_scores() -> list[int]:
    total = [0, 0, 0]
    for r in range(3):
        for artist in range(3):
            right = {g: GUESSES[r][g][artist] == "R" for g in range(3) if g != artist}
            right.update(FLIPS.get(r, {}).get(artist, {}))
            for seat, points in rulebook_points(artist, right).items():
                total[seat] += points
    return total


# Does every option's text fit the select's box (its width less its padding)?
FITS = """el => {
    const cs = getComputedStyle(el);
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const room = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    return [...el.options].every((o) => ctx.measureText(o.text).width <= room);
}"""


def make_drawing(page, seat: int, round_no: int) -> None:
    colour, size = PENS[seat]
    pick(page, colour=colour, size=size)
    draw(page)
    if seat == 0 and round_no == 0:
        # One stroke too many, undone: the pad is exactly as before.
        before = inked_pixels(page)
        pick(page, colour="violet", size=40)
        draw(page, [[(100, 900), (900, 900)]])
        assert inked_pixels(page) > before
        page.locator("#pn-undo").click()
        expect(page.locator("#pn-undo")).to_be_enabled()
        until(lambda: inked_pixels(page) == before, "the undone stroke leaves the pad")


def test_three_players_draw_interpret_judge_and_finish_three_rounds(player, artifacts):
    pages = [player(viewport=LAPTOP) for _ in range(3)]
    start_pinto(pages, ["Ana", "Bo", "Cy"], settings={"rounds": 3})
    ids = [my_id(page) for page in pages]
    seat_of = {pid: i for i, pid in enumerate(ids)}

    for r in range(3):
        round_no = r + 1
        titles = TITLES[r]
        for page in pages:
            wait_for(page, phase="create", round=round_no, todo="write_title")
        if r:
            # The round's results wait on top until dismissed, titles and all, and a reload
            # (a fresh view) keeps them.
            if r == 1:
                pages[0].reload()
                wait_for(pages[0], phase="create", round=round_no, todo="write_title")
            results = pages[0].locator("#pn-round-results")
            expect(results).to_contain_text(f"Round {r} results")
            expect(results.locator(".pn-result")).to_have_count(3)
            for title in TITLES[r - 1]:
                expect(results.locator(".pn-result-title", has_text=title)).to_have_count(1)
            # Not scrolled off the top on a laptop (issue 19): heading and OK in sight.
            expect(results.locator("#pn-round-results-title")).to_be_in_viewport(ratio=1)
            expect(results.locator("#pn-round-results-close")).to_be_in_viewport(ratio=1)
            if r == 1:
                pages[0].screenshot(
                    path=artifacts / "pinto-round-results-1280x800.png", full_page=True
                )
            pages[0].locator("#pn-round-results-close").click()
            expect(results).to_be_hidden()

        # Ana and Bo title, draw and reveal; Ana interprets Bo's while Cy has not started.
        for seat in (0, 1):
            write_title(pages[seat], titles[seat])
            make_drawing(pages[seat], seat, r)
            reveal(pages[seat])
        ana = pages[0]
        expect(ana.locator(f"#pn-players li[data-player='{ids[2]}']")).to_have_attribute(
            "data-state", "title"
        )
        if GUESSES[r][0][1] != "B":
            interpret(ana, ids[1], titles[1] if GUESSES[r][0][1] == "R" else "qwerty")
        expect(ana.locator(f"#pn-players li[data-player='{ids[0]}']")).to_contain_text(
            "interpreting 1/2"
        )
        if r == 0:
            expect(ana.locator(f"#pn-guess-{ids[2]}")).to_be_hidden()
            cy_card = ana.locator(f"li.pn-work[data-artist='{ids[2]}']")
            expect(cy_card.locator(".pn-work-waiting")).to_contain_text("Cy is still working")
            ana.screenshot(path=artifacts / "pinto-phase-b-1280x800.png", full_page=True)

        write_title(pages[2], titles[2])
        if r == 0:
            # Titles are secret: nobody else's page holds them before the judging.
            for seat, page in enumerate(pages):
                html = page.content()
                for other, title in enumerate(titles):
                    if other != seat:
                        assert title not in html, f"{title!r} leaked to seat {seat}"
        make_drawing(pages[2], 2, r)
        reveal(pages[2])

        for g, page in enumerate(pages):
            blanks = False
            for a, guess in GUESSES[r][g].items():
                if g == 0 and a == 1:
                    continue  # done above
                if guess == "B":
                    blanks = True
                    continue
                interpret(page, ids[a], titles[a] if guess == "R" else "qwerty")
            if blanks:
                finish_with_blanks(page)

        # Phase C: one drawing at a time; a disputed mark is voted on, everyone accepts.
        for k in range(3):
            wait_for(pages[0], phase="judge", round=round_no, judged=k)
            artist = screen(pages[0]).get_attribute("data-artist")
            seat = seat_of[artist]
            artist_page = pages[seat]
            wait_for(artist_page, phase="judge", todo="check_marks", judged=k)
            watcher = pages[(seat + 1) % 3]
            expect(watcher.locator("#pn-show-title-text")).to_have_text(titles[seat])
            expect(watcher.locator("#pn-interps li")).to_have_count(2)
            expect(watcher.locator("#pn-accept")).to_be_visible()
            for g, guesses in GUESSES[r].items():
                if g == seat:
                    continue
                row = watcher.locator(f"#pn-interps li[data-seat='{ids[g]}']")
                reason = {"R": "same words", "W": "different", "B": "blank"}[guesses[seat]]
                expect(row.locator(".pn-reason")).to_have_text(reason)
            for g, right in FLIPS.get(r, {}).get(seat, {}).items():
                dispute(artist_page, ids[g])
                vote(pages[3 - seat - g], ids[g], right)  # the one who is neither
                expect(
                    watcher.locator(f"#pn-interps li[data-seat='{ids[g]}'] .pn-reason")
                ).to_have_text("the table's vote")
            if r == 0 and k == 0:
                settled(artist_page)  # the show: guesses, title, marks, one by one
                artist_page.screenshot(
                    path=artifacts / "pinto-show-artist-1280x800.png", full_page=True
                )
                watcher.screenshot(
                    path=artifacts / "pinto-show-watcher-1280x800.png", full_page=True
                )
            for page in pages:
                accept_marks(page)
            if k < 2:
                wait_for(pages[0], phase="judge", judged=k + 1)
                expect(pages[0].locator("#pn-latest")).to_be_visible()

    for page in pages:
        wait_for(page, phase="ended")
    want = expected_scores()
    got = scores(pages[0])
    assert got == {ids[i]: want[i] for i in range(3)}, (got, want)
    assert want == [6, 6, 3]
    # A tie on points, broken by the best single round, and the page says so.
    expect(pages[0].locator("#status-line")).to_have_text("Bo won the match!")
    final = pages[1].locator("#pn-final")
    expect(final).to_contain_text("Tie-break: the most points in a single round")
    expect(final.locator("#pn-tie-notes")).to_contain_text("Bo, Ana tied on 6 points")
    expect(final.locator("#pn-tie-notes")).to_contain_text("(Bo 3, Ana 2)")
    expect(final.locator("#pn-final-table tbody tr")).to_have_count(3)
    # Every round is on the final screen, also after a reload.
    pages[1].reload()
    final = pages[1].locator("#pn-final")
    expect(final.locator(".pn-past-round")).to_have_count(3)
    for r, titles in enumerate(TITLES):
        past = final.locator(f".pn-past-round[data-round='{r + 1}']")
        for title in titles:
            expect(past.locator(".pn-result-title", has_text=title)).to_have_count(1)
    settled(pages[1])
    pages[1].screenshot(path=artifacts / "pinto-final-1280x800.png", full_page=True)


def test_a_phone_draws_with_a_finger_without_the_page_scrolling(browser, server, player, artifacts):
    errors: list[str] = []
    phone, cdp = open_touch_phone(browser, server.url, errors)
    try:
        others = [player(viewport=LAPTOP) for _ in range(2)]
        start_pinto([others[0], phone, others[1]], ["Ana", "Pia", "Cy"])
        wait_for(phone, phase="create", todo="write_title")
        assert no_horizontal_scroll(phone)
        phone.screenshot(path=artifacts / "pinto-phone-title-360x640.png")
        write_title(phone, "lighthouse")
        # "No letters, numbers or symbols" stands above the paper, readable (issue 19).
        rule = phone.locator("#pn-rule")
        expect(rule).to_be_visible()
        assert rule.evaluate("el => parseFloat(getComputedStyle(el).fontSize)") >= 14
        assert (
            rule.bounding_box()["y"] + rule.bounding_box()["height"]
            <= (phone.locator("#pn-pad").bounding_box()["y"])
        )
        pad = phone.locator("#pn-pad")
        assert pad.evaluate("el => getComputedStyle(el).touchAction") == "none"
        pick(phone, colour="blue", size=20)
        pad.evaluate("el => el.scrollIntoView({block: 'center'})")
        before = phone.evaluate("window.scrollY")
        assert before > 0, "the canvas should be below the fold on a phone"
        assert inked_pixels(phone) == 0
        # A long vertical swipe is what would scroll a page; then the usual zigzags.
        touch_draw(phone, cdp, [[(500, 950), (500, 700), (500, 400), (500, 60)], *ZIGZAG])
        assert phone.evaluate("window.scrollY") == before, "the page scrolled while drawing"
        assert no_horizontal_scroll(phone)
        inked = inked_pixels(phone)
        assert inked > 500, "the finger drew nothing"
        phone.screenshot(path=artifacts / "pinto-phone-drawing-360x640.png")
        phone.screenshot(path=artifacts / "pinto-phone-tools-360x640.png", full_page=True)

        # A reload loses nothing: the draft is kept per room and round.
        phone.reload()
        screen(phone).wait_for()
        wait_for(phone, phase="create", todo="draw")
        phone.locator("#pn-pad").scroll_into_view_if_needed()
        phone.wait_for_function("() => document.getElementById('pn-pad').width > 0")
        until(lambda: inked_pixels(phone) > 500, "the kept draft is drawn again")
        reveal(phone)
        assert no_horizontal_scroll(phone)
        phone.screenshot(path=artifacts / "pinto-phone-revealed-360x640.png", full_page=True)
        # The others see Pia's drawing in their gallery.
        expect(
            others[0].locator(f"li.pn-work[data-artist='{my_id(phone)}'] .pn-art")
        ).to_be_visible()
    finally:
        phone.context.close()
    assert not errors, errors


def test_a_title_with_the_category_name_is_refused_with_its_reason(player, artifacts):
    pages = [player(viewport=LAPTOP) for _ in range(3)]
    start_pinto(pages, ["Ana", "Bo", "Cy"])
    ana = pages[0]
    wait_for(ana, phase="create", todo="write_title")
    name = category(ana)
    box = ana.locator("#pn-title")
    error = ana.locator("#pn-title-error")
    # The live check while typing says why, before anything is sent.
    box.fill(f"my {name.lower()}")
    expect(error).to_be_visible()
    expect(error).to_contain_text("is the category's name")
    expect(error).to_contain_text(name)
    ana.screenshot(path=artifacts / "pinto-title-refused-1280x800.png")
    # Typing clears it; saving anyway is refused in place too, and the title is not kept.
    box.fill("")
    expect(error).to_be_hidden()
    box.fill(name)
    ana.locator("#pn-title-save").click()
    expect(error).to_contain_text(re.compile(r"“.+” is the category's name"))
    expect(screen(ana)).to_have_attribute("data-todo", "write_title")
    expect(ana.locator("#pn-pad-lock, .pn-pad-lock")).to_be_visible()
    write_title(ana, "lighthouse")
    expect(error).to_be_hidden()
    expect(ana.locator("#pn-title-saved")).to_contain_text("lighthouse")


def test_the_host_writes_custom_categories_one_per_line(player):
    """The rulebook's blank cards: the host's own categories, set in the lobby, with Pintó's
    own labels (the lobby loads the game's strings)."""
    ana, bo = player(viewport=LAPTOP), player(viewport=LAPTOP)
    code = create_room(ana, "Ana")
    ana.locator("#choose-game").select_option("pinto")
    join_room(bo, "Bo", code)
    expect(ana.locator("label[for=setting-custom_categories]")).to_have_text(
        "Your own categories (the blank cards)"
    )
    box = ana.locator("#setting-custom_categories")
    box.fill("Robots\n  Our summer holiday  \n\n")
    box.blur()
    expect(bo.locator("[data-field=custom_categories] dd")).to_have_text(
        "Robots, Our summer holiday"
    )
    expect(bo.locator("[data-field=custom_categories] dt")).to_have_text(
        "Your own categories (the blank cards)"
    )
    # The judging style's choices fit their dropdown (issue 19: the text was cut off); what
    # each means is the hint beside it.
    matching = ana.locator("#setting-matching")
    assert matching.evaluate(FITS), "a judging choice is cut off in its dropdown"
    expect(ana.locator("#setting-matching-hint")).to_contain_text("synonyms")


def test_drawing_time_up_the_reading_still_being_typed_counts(player):
    """ "missing interpretations are blanks" — but a box being typed in when the drawing time
    runs out is not missing: the page keeps it as a draft while typing, and it counts."""
    pages = [player(viewport=LAPTOP) for _ in range(3)]
    start_pinto(
        pages, ["Ana", "Bo", "Cy"], settings={"drawing_seconds": 30, "first_artist": "first_seat"}
    )
    ana, bo, _cy = pages
    ids = [my_id(page) for page in pages]
    for page, title in ((ana, "lighthouse"), (bo, "umbrella")):
        wait_for(page, phase="create", todo="write_title")
        write_title(page, title)
        draw(page)
        reveal(page)
    # Bo types Ana's title and stays in the box: no Enter, no leaving it.
    box = bo.locator(f"#pn-guess-{ids[0]}")
    box.click()
    box.press_sequentially("lighthouse", delay=30)
    expect(bo.locator(f"#pn-guess-state-{ids[0]}")).to_have_attribute("data-state", "draft")
    assert bo.evaluate("document.activeElement.id") == f"pn-guess-{ids[0]}"
    # Cy never draws; the clock ends phase B, and Ana's drawing is judged first.
    for page in pages:
        expect(screen(page)).to_have_attribute("data-phase", "judge", timeout=40_000)
    row = ana.locator(f"#pn-interps li[data-seat='{ids[1]}']")
    expect(row.locator(".pn-said")).to_have_text("lighthouse")
    expect(row.locator(".pn-reason")).to_have_text("same words")


def test_judging_time_up_the_marks_stand_and_the_next_artist_follows(player):
    """ "Judging time is up: the marks stand as they are" — an artist who never confirms does
    not hold the table: the server's marks score the drawing and the next artist's comes."""
    pages = [player(viewport=LAPTOP) for _ in range(3)]
    start_pinto(
        pages,
        ["Ana", "Bo", "Cy"],
        settings={"judging_seconds": 12, "first_artist": "first_seat", "rounds": 1},
    )
    ana, bo, cy = pages
    ids = [my_id(page) for page in pages]
    for page, title in zip(pages, ("lighthouse", "umbrella", "volcano"), strict=True):
        wait_for(page, phase="create", todo="write_title")
        write_title(page, title)
        draw(page)
        reveal(page)
    interpret(bo, ids[0], "lighthouse")  # right
    finish_with_blanks(bo)
    finish_with_blanks(ana)
    finish_with_blanks(cy)
    wait_for(cy, phase="judge", judged=0)
    assert screen(cy).get_attribute("data-artist") == ids[0]
    # Ana never confirms; the clock does it for her.
    expect(screen(cy)).to_have_attribute("data-judged", "1", timeout=20_000)
    assert screen(cy).get_attribute("data-artist") == ids[1]
    row = lambda seat: cy.locator(f"#pn-players li[data-player='{seat}'] .score")  # noqa: E731
    expect(row(ids[0])).to_have_text("1")  # one right, one wrong: the artist +1
    expect(row(ids[1])).to_have_text("1")  # and the one who was right +1
    expect(row(ids[2])).to_have_text("0")


def test_a_disputed_mark_is_decided_by_a_vote_on_a_phone_and_a_laptop(
    browser, server, player, artifacts
):
    """ "the automatic mark stands unless disputed; any player may dispute a mark; a dispute
    is decided by a quick vote of the players who are neither the artist nor that
    interpreter" — Pia disputes on a phone (360×640), Cy votes on a laptop, then Ana disputes
    and Pia votes on the phone."""
    errors: list[str] = []
    phone, _cdp = open_touch_phone(browser, server.url, errors)
    try:
        ana, cy = player(viewport=LAPTOP), player(viewport=LAPTOP)
        pages = [ana, phone, cy]
        start_pinto(
            pages, ["Ana", "Pia", "Cy"], settings={"rounds": 1, "first_artist": "first_seat"}
        )
        ids = [my_id(page) for page in pages]
        for page, title in zip(pages, ("lighthouse", "umbrella", "volcano"), strict=True):
            wait_for(page, phase="create", todo="write_title")
            write_title(page, title)
            draw(page)
            reveal(page)
        interpret(phone, ids[0], "tall tower")  # marked wrong by the server
        interpret(cy, ids[0], "lighthouse")  # marked right
        for page in pages:
            finish_with_blanks(page)
        for page in pages:
            wait_for(page, phase="judge", judged=0, todo="check_marks")
        assert screen(ana).get_attribute("data-artist") == ids[0]
        pia_row = lambda page: page.locator(f"#pn-interps li[data-seat='{ids[1]}']")  # noqa: E731
        cy_row = lambda page: page.locator(f"#pn-interps li[data-seat='{ids[2]}']")  # noqa: E731
        expect(pia_row(cy).locator(".pn-reason")).to_have_text("different")

        # Pia disputes her own mark on the phone; Cy, neither artist nor Pia, votes.
        dispute(phone, ids[1])
        expect(pia_row(phone).locator(".pn-vote-buttons")).to_be_hidden()  # she doesn't vote
        expect(pia_row(ana).locator(".pn-vote-buttons")).to_be_hidden()  # nor the artist
        expect(cy.locator("#pn-clock")).to_be_visible()
        expect(cy.locator(".pn-clock-label")).to_have_text("Time to vote")
        cy.screenshot(path=artifacts / "pinto-vote-laptop-1280x800.png", full_page=True)
        vote(cy, ids[1], True)
        expect(pia_row(phone).locator(".pn-reason")).to_have_text("the table's vote")
        expect(pia_row(phone)).to_have_class(re.compile(r"\bright\b"))
        expect(pia_row(ana).locator(".pn-debate-text")).to_contain_text("the vote changed the mark")

        # Ana (the artist) disputes Cy's right guess; Pia votes on the phone; a 1-0 majority.
        dispute(ana, ids[2])
        wait_for(phone, phase="judge", todo="vote")
        buttons = cy_row(phone).locator(".pn-vote-buttons button")
        cy_row(phone).scroll_into_view_if_needed()
        for i in range(2):
            box = buttons.nth(i).bounding_box()
            assert box and box["height"] >= 44 and box["x"] + box["width"] <= 360, box
        assert no_horizontal_scroll(phone)
        phone.screenshot(path=artifacts / "pinto-vote-phone-360x640.png")
        vote(phone, ids[2], False)
        expect(cy_row(cy)).to_have_class(re.compile(r"\bwrong\b"))
        expect(cy_row(cy).locator(".pn-reason")).to_have_text("the table's vote")

        # Nothing more to dispute: once all three accept, the drawing is scored.
        for page in pages:
            accept_marks(page)
        wait_for(cy, phase="judge", judged=1)
        score = lambda seat: cy.locator(f"#pn-players li[data-player='{seat}'] .score")  # noqa: E731
        expect(score(ids[0])).to_have_text("1")  # Pia right, Cy wrong: Ana and Pia +1
        expect(score(ids[1])).to_have_text("1")
        expect(score(ids[2])).to_have_text("0")
    finally:
        phone.context.close()
    assert not errors, errors
