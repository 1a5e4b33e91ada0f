"""The browser shell as players meet it: in Chromium, against the real server.

Each test drives one browser context per person and asserts what that person would notice
on screen: names in the seat list, chat lines, a setting's new value, the lobby after a
reload, a page without sideways scrolling on a phone, the page in another language.
"""

from __future__ import annotations

import re

from e2e_actions import (
    LAPTOP,
    PHONE,
    create_room,
    join_room,
    my_seat,
    no_horizontal_scroll,
    set_nickname,
    settled,
)
from playwright.sync_api import expect


def test_two_players_create_and_join_by_code_and_see_each_other(player):
    ana, bo = player(), player()
    code = create_room(ana, "Ana")
    join_room(bo, "Bo", code)

    expect(ana.locator("#seats li .name")).to_have_text(["Ana", "Bo"])
    expect(bo.locator("#seats li .name")).to_have_text(["Ana", "Bo"])
    expect(bo.locator("#seats li", has_text="Ana").locator(".pill.host")).to_be_visible()
    expect(ana.locator("#seats li", has_text="Bo").locator(".presence")).to_have_text("Online")
    expect(ana.locator("#share-link")).to_have_value(re.compile(f"/r/{code}$"))
    # Each has a colour of their own, the same on both screens (the seat's, from the server).
    colours = [
        [page.locator("#seats li .avatar").nth(i).get_attribute("style") for i in (0, 1)]
        for page in (ana, bo)
    ]
    assert colours[0] == colours[1], colours
    assert "#1f6feb" in colours[0][0] and "#c2410c" in colours[0][1]  # seat colours 0 and 1
    expect(ana.locator("img.qr")).to_have_attribute("src", f"/r/{code}/qr.svg")
    ana.locator(".qr-box summary").click()
    ana.wait_for_function("() => document.querySelector('img.qr').complete")
    assert ana.locator("img.qr").evaluate("img => img.naturalWidth") > 0  # a picture, not a 🖼


def test_joining_an_unknown_code_says_so_next_to_the_code(player):
    ana = player()
    set_nickname(ana, "Ana")
    ana.locator("#room-code").fill("qqqq")
    ana.locator("#join-room").click()
    expect(ana.locator("#join-error")).to_contain_text("no room with that code")
    ana.locator("#room-code").fill("qqqx")
    expect(ana.locator("#join-error")).to_be_hidden()


def test_a_dead_room_link_says_so_before_asking_for_a_nickname(player, server):
    """A fresh browser (no nickname yet) opening a link to no room is told at once, not after
    typing a nickname; a live link asks for the nickname."""
    ana = player()
    ana.goto(f"{server.url}/r/QQQQ")
    expect(ana.locator(".problem")).to_contain_text("no room with that code")
    expect(ana.locator("#join-nickname")).to_have_count(0)
    bo = player()
    code = create_room(bo, "Bo")
    ana.goto(f"{server.url}/r/{code}")
    ana.locator("#join-nickname").fill("Ana")
    ana.locator("#join-with-nickname").click()
    expect(ana.locator("#seats li .name")).to_have_text(["Bo", "Ana"])


def test_players_chat_and_each_sees_the_others_line(player):
    ana, bo = player(), player()
    code = create_room(ana, "Ana")
    join_room(bo, "Bo", code)

    ana.locator("#chat-input").fill("good luck, Bo!")
    ana.locator("#chat-input").press("Enter")
    expect(bo.locator("#chat-log .chat-text")).to_have_text(["good luck, Bo!"])
    expect(ana.locator("#chat-input")).to_have_value("")

    bo.locator("#chat-input").fill("thanks Ana")
    bo.locator("#chat-send").click()
    expect(ana.locator("#chat-log .chat-text")).to_have_text(["good luck, Bo!", "thanks Ana"])
    expect(ana.locator("#chat-log .chat-line").last.locator(".name")).to_have_text("Bo")


def test_host_changes_a_setting_and_the_other_player_sees_it(player):
    ana, bo = player(), player()
    code = create_room(ana, "Ana")
    join_room(bo, "Bo", code)
    # Bo is not the host: he sees values, not controls.
    expect(bo.locator("#setting-guess_mode")).to_have_count(0)
    guess_mode = bo.locator("[data-field=guess_mode] dd")
    expect(guess_mode).to_have_text("Everyone at once")

    ana.locator("#setting-guess_mode").select_option("turns")
    expect(guess_mode).to_have_text("In turns")

    ana.locator("details.advanced summary").click()
    ana.locator("#setting-goal").fill("15")
    ana.locator("#setting-goal").press("Enter")
    bo.locator("details.advanced summary").click()
    expect(bo.locator("[data-field=goal] dd")).to_have_text("15")

    # A value the server refuses is explained next to the field, and nothing changes.
    ana.locator("#setting-goal").fill("500")
    ana.locator("#setting-goal").press("Enter")
    expect(ana.locator("#setting-goal-error")).to_be_visible()
    expect(bo.locator("[data-field=goal] dd")).to_have_text("15")

    ana.locator("#restore-defaults").click()
    expect(bo.locator("[data-field=goal] dd")).to_have_text("25")
    expect(guess_mode).to_have_text("Everyone at once")


def test_a_reloaded_tab_is_back_in_its_seat(player):
    """Its socket names the room in its address (``/ws?room=CODE``): a proxy that routes by
    room sends it to the node the room's players are on (docs/cluster.md); the home page's
    names none."""
    ana, bo = player(), player()
    sockets: list[str] = []
    bo.on("websocket", lambda socket: sockets.append(socket.url))
    code = create_room(ana, "Ana")
    join_room(bo, "Bo", code)
    before = my_seat(bo)

    bo.reload()
    bo.locator("#seats li.is-me").wait_for()
    assert my_seat(bo) == before
    assert sockets[0].endswith("/ws") and sockets[-1].endswith(f"/ws?room={code}"), sockets
    expect(bo).to_have_url(re.compile(f"/r/{code}$"))
    expect(bo.locator("#seats li .name")).to_have_text(["Ana", "Bo"])
    expect(ana.locator("#seats li", has_text="Bo").locator(".presence")).to_have_text("Online")


def test_phone_and_laptop_layouts_have_no_sideways_scrolling(player, artifacts):
    phone = player(viewport=PHONE)
    set_nickname(phone, "Ana")
    phone.locator("#public-rooms li").first.wait_for()
    assert no_horizontal_scroll(phone), "home scrolls sideways at 360×640"
    phone.screenshot(path=artifacts / "home-360x640.png", full_page=True)

    code = create_room(phone, "Ana", public=True)
    phone.locator("[data-field=goal]").wait_for(state="attached")
    assert no_horizontal_scroll(phone), "lobby scrolls sideways at 360×640"
    phone.screenshot(path=artifacts / "lobby-360x640.png", full_page=True)

    # On a phone the chat is a drawer behind a button.
    expect(phone.locator("#chat-input")).to_be_hidden()
    phone.locator(".chat-toggle").click()
    expect(phone.locator("#chat-input")).to_be_visible()
    assert no_horizontal_scroll(phone), "open chat drawer scrolls sideways at 360×640"
    settled(phone)  # the drawer's slide (250 ms)
    phone.screenshot(path=artifacts / "lobby-chat-360x640.png")
    phone.locator(".chat-close").click()
    phone.locator("#theme-toggle").click()
    expect(phone.locator("#theme-toggle")).to_have_attribute("aria-pressed", "true")
    settled(phone)
    phone.screenshot(path=artifacts / "lobby-dark-360x640.png")

    laptop = player(viewport=LAPTOP)
    # The public room is listed on everyone's home page, with its game and players.
    listed = laptop.locator("#public-rooms li", has_text=code)
    expect(listed).to_contain_text("Pitacor")
    expect(listed).to_contain_text("Players: 1/10")
    laptop.screenshot(path=artifacts / "home-1280x800.png", full_page=True)
    join_room(laptop, "Bo", code)
    expect(laptop.locator("#chat-input")).to_be_visible()
    assert no_horizontal_scroll(laptop)
    laptop.screenshot(path=artifacts / "lobby-1280x800.png", full_page=True)


def test_switching_language_changes_the_page_text(player):
    ana = player()
    expect(ana.locator("#nickname-title")).to_have_text("Your nickname")
    ana.locator("#language").select_option("pl")
    expect(ana.locator("#nickname-title")).to_have_text("Twój pseudonim")
    expect(ana.locator("#create-room")).to_have_text("Załóż pokój")
    assert ana.evaluate("document.documentElement.lang") == "pl"

    ana.reload()  # the choice is remembered
    expect(ana.locator("#create-room")).to_have_text("Załóż pokój")
    ana.locator("#language").select_option("pt-BR")
    expect(ana.locator("#create-room")).to_have_text("Criar sala")
    # The menu names the language in full on a laptop, by its short code on a phone (where
    # "Português (Brasil)" was cut to "Portug…").
    chosen = ana.locator("#language option:checked")
    expect(chosen).to_have_text("Português (Brasil)")
    ana.set_viewport_size(PHONE)
    expect(chosen).to_have_text("PT-BR")


def test_the_browser_language_is_used_when_nothing_was_chosen(player):
    ana = player(locale="es-ES")
    expect(ana.locator("#create-room")).to_have_text("Crear sala")


def test_html_in_a_nickname_or_chat_is_shown_as_text(player):
    ana, bo = player(), player()
    code = create_room(ana, "<b>x</b>")
    join_room(bo, "Bo", code)
    expect(bo.locator("#seats li .name").first).to_have_text("<b>x</b>")
    assert bo.locator("#seats b").count() == 0

    ana.locator("#chat-input").fill('<img src=x onerror="document.title=1">hi')
    ana.locator("#chat-input").press("Enter")
    expect(bo.locator("#chat-log .chat-text")).to_have_text(
        ['<img src=x onerror="document.title=1">hi']
    )
    assert bo.locator("#chat-log img").count() == 0


def test_a_started_match_replaces_the_lobby_with_the_game_area(player, artifacts):
    ana, bo, cy = player(), player(), player()
    code = create_room(ana, "Ana")
    join_room(bo, "Bo", code)
    expect(ana.locator("#start-match")).to_be_disabled()
    join_room(cy, "Cy", code)
    expect(ana.locator("#start-match")).to_be_enabled()

    ana.locator("#start-match").click()
    for page in (ana, bo, cy):
        expect(page.locator("#scoreboard li")).to_have_count(3)
        expect(page.locator("#seats")).to_have_count(0)
        expect(page.locator("#status-line")).not_to_be_empty()
    # Somebody has something to do, and their status line says it is them.
    lines = [page.locator("#status-line").inner_text() for page in (ana, bo, cy)]
    assert any(line.startswith("Your turn") for line in lines), lines

    ana.set_viewport_size(PHONE)
    settled(ana)  # the chat slides into its drawer
    assert no_horizontal_scroll(ana)
    ana.screenshot(path=artifacts / "game-generic-360x640.png", full_page=True)


def test_the_host_removes_a_player_only_after_confirming(player):
    ana, bo = player(), player()
    code = create_room(ana, "Ana")
    join_room(bo, "Bo", code)

    ana.get_by_role("button", name="Remove Bo").click()
    ana.get_by_role("dialog").get_by_role("button", name="Cancel").click()
    expect(ana.locator("#seats li .name")).to_have_text(["Ana", "Bo"])

    bo.reload()  # the server's welcome now names the room Bo has a seat in
    expect(bo.locator("#seats li .name")).to_have_text(["Ana", "Bo"])
    ana.get_by_role("button", name="Remove Bo").click()
    ana.get_by_role("dialog").get_by_role("button", name="Remove").click()
    expect(ana.locator("#seats li .name")).to_have_text(["Ana"])
    expect(bo).to_have_url(re.compile(r"/$"))
    expect(bo.locator(".flash")).to_contain_text("The host removed you from the room.")
    expect(bo.locator(".back-card")).to_be_hidden()  # no way "back" into a room that refuses


def test_after_a_server_restart_the_tab_reconnects_and_keeps_what_was_typed(player, server):
    ana, bo = player(), player()
    code = create_room(ana, "Ana")
    join_room(bo, "Bo", code)
    ana.locator("#chat-input").fill("typed while the server was away")

    server.stop()  # SIGTERM: the server says why before it goes
    expect(ana.locator("#connection-banner")).to_have_text(
        "The server is restarting; you will be reconnected."
    )
    server.start()
    expect(ana.locator("#connection-banner")).to_be_hidden(timeout=20_000)
    expect(bo.locator("#connection-banner")).to_be_hidden(timeout=20_000)

    expect(ana.locator("#seats li .name")).to_have_text(["Ana", "Bo"])
    expect(ana.locator("#chat-input")).to_have_value("typed while the server was away")
    ana.locator("#chat-input").press("Enter")
    expect(bo.locator("#chat-log .chat-text")).to_have_text(["typed while the server was away"])


def test_a_phone_that_loses_its_network_says_so_and_comes_back_to_its_seat(player):
    """ "automatic reconnection with visible status": with the network gone, a socket's closing
    handshake never ends; the page must not sit there looking online on a frozen screen."""
    ana, bo = player(), player(viewport=PHONE)
    code = create_room(ana, "Ana")
    join_room(bo, "Bo", code)
    bo.context.set_offline(True)
    expect(bo.locator("#connection-banner")).to_have_text("Reconnecting…", timeout=5_000)
    bo.context.set_offline(False)
    expect(bo.locator("#connection-banner")).to_be_hidden(timeout=20_000)
    ana.locator("#chat-input").fill("welcome back")
    ana.locator("#chat-input").press("Enter")
    bo.locator(".chat-toggle").click()
    expect(bo.locator("#chat-log .chat-text")).to_have_text(["welcome back"])
    expect(bo.locator("#seats li .name")).to_have_text(["Ana", "Bo"])


def test_the_home_page_opened_afresh_offers_the_way_back_to_ones_room(player):
    ana, bo = player(), player()
    code = create_room(ana, "Ana")
    join_room(bo, "Bo", code)
    bo.goto(bo.url.split("/r/")[0] + "/")  # a fresh page load of home
    expect(bo.locator(".back-card")).to_contain_text(code)
    bo.get_by_role("button", name="Back to the room").click()
    expect(bo).to_have_url(re.compile(f"/r/{code}$"))
    expect(bo.locator("#seats li .name")).to_have_text(["Ana", "Bo"])


def test_a_new_screen_starts_at_its_top_and_a_wrong_path_shows_home_at_home(player):
    ana = player(viewport=PHONE)
    set_nickname(ana, "Ana")
    ana.locator("#game option").first.wait_for(state="attached")  # the games have loaded
    ana.wait_for_function("() => document.documentElement.scrollHeight > innerHeight + 100")
    ana.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    ana.wait_for_function("() => scrollY > 0")
    ana.get_by_role("button", name="Create room").click()
    expect(ana).to_have_url(re.compile(r"/r/[A-Z0-9]{4,6}$"))
    assert ana.evaluate("window.scrollY") == 0
    # Whatever the browser scrolls into view lands below the sticky status bar.
    ana.wait_for_function(
        "() => getComputedStyle(document.documentElement).scrollPaddingTop"
        " === `${document.getElementById('status-bar').offsetHeight + 8}px`"
    )
    ana.goto(ana.url.split("/r/")[0] + "/r/ab")
    expect(ana).to_have_url(re.compile(r"/$"))


def test_a_setting_a_public_room_forces_is_shown_locked(player):
    """Pitacor's profanity filter is "Always on in public rooms": the form shows it on and
    does not let the host switch it off there; in a private room it is the host's choice."""
    ana = player()
    create_room(ana, "Ana", public=True)
    ana.locator("#choose-game").select_option("pitacor")
    box = ana.locator("[data-field=ban_profanity] input")
    expect(box).to_be_checked()
    expect(box).to_be_disabled()
    bo = player()
    create_room(bo, "Bo")
    bo.locator("#choose-game").select_option("pitacor")
    expect(bo.locator("[data-field=ban_profanity] input")).to_be_enabled()


def test_a_long_chat_line_says_how_much_is_left_before_it_is_cut(player):
    ana = player()
    create_room(ana, "Ana")
    ana.locator("#chat-input").fill("x" * 250)
    expect(ana.locator("#chat-left")).to_be_hidden()
    ana.locator("#chat-input").press_sequentially("y" * 49)
    expect(ana.locator("#chat-left")).to_have_text("1 character left")
    ana.locator("#chat-input").press("Enter")
    expect(ana.locator("#chat-log .chat-text")).to_have_text(["x" * 250 + "y" * 49])
    expect(ana.locator("#chat-left")).to_be_hidden()


# Records what the page plays instead of listening: every oscillator started (its pitch) and
# every vibration asked for.
RECORD_SOUNDS = """
window.__tones = [];
window.__buzzes = [];
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) {
  window.__tones.push(this.frequency.value);
  return start.apply(this, args);
};
navigator.vibrate = (pattern) => { window.__buzzes.push(pattern); return true; };
"""
TURN_HZ, HURRY_HZ = 880, 660


def test_sounds_on_your_turn_and_when_time_is_almost_up_off_by_default(player):
    """UI.md: "Optional short sounds for 'your turn' and 'time almost up', off by default, a
    mute toggle; navigator.vibrate on your turn where available." """
    from pitacor_steps import choose_target, find_giver, give_clue, start_match

    pages = [player(), player(), player()]
    for page in pages:
        page.add_init_script(RECORD_SOUNDS)
        page.reload()
    start_match(pages, ["Ana", "Bo", "Cy"], clue_seconds=25)
    g = find_giver(pages)
    giver = pages[g]
    hearing, deaf = [page for i, page in enumerate(pages) if i != g]
    tones = lambda page: page.evaluate("window.__tones")  # noqa: E731
    buzzes = lambda page: page.evaluate("window.__buzzes")  # noqa: E731

    for page in pages:
        expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "false")
    expect(giver.locator("#sound-toggle")).to_have_attribute("aria-label", "Sounds")
    for page in (giver, hearing):
        page.locator("#sound-toggle").click()
        expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "true")
        assert tones(page) == [TURN_HZ]  # a sample, on the click
        page.evaluate("window.__tones = []; window.__buzzes = []")

    # Ten seconds before the clue clock runs out, the giver hears two lower beeps.
    giver.wait_for_function("window.__tones.length >= 2", timeout=20_000)
    assert tones(giver) == [HURRY_HZ, HURRY_HZ]
    choose_target(giver, 0)
    give_clue(giver, "ocean")
    # The guessers' turn: a beep and a buzz for the one who turned sounds on; silence for the
    # one who did not.
    hearing.wait_for_function(f"window.__tones.includes({TURN_HZ})", timeout=5_000)
    assert buzzes(hearing) == [120] and HURRY_HZ not in tones(hearing)
    assert TURN_HZ not in tones(giver)  # the giver's own clue brought it no turn
    hearing.reload()  # the turn was there before this page: no news, no beep
    expect(hearing.locator("#sound-toggle")).to_have_attribute("aria-pressed", "true")
    expect(hearing.locator("#pitacor-clues")).to_contain_text("ocean")
    # Silence is checked over a second: no page event says "nothing played" (the pushes of
    # the reload have arrived: the clue is on the screen).
    hearing.wait_for_timeout(1000)
    assert tones(hearing) == []
    assert tones(deaf) == [] and buzzes(deaf) == []


def test_a_rooms_words_default_to_the_hosts_language_and_the_lobby_says_so(player, artifacts):
    """Issue 19.3: "Default the deck and category language to the host's interface language,
    show the choice plainly in the lobby." A Polish host's Haiclue room deals Polish tiles and
    a pt-BR guest is told so in Portuguese; picking Pintó, its categories are Polish too, and
    "restore defaults" keeps them Polish. The host may still choose another language."""
    ana, bo = player(locale="pl-PL"), player(viewport=PHONE, locale="pt-BR")
    ana.locator("#game").select_option("haiclue")
    code = create_room(ana, "Ana")
    join_room(bo, "Bo", code)
    expect(ana.locator("#setting-deck")).to_have_value("pl")
    # Said once (issue 30): the host's own control, the guest's line (not also in the list).
    expect(ana.locator("#room-language")).to_have_count(0)
    expect(bo.locator("#room-language")).to_have_text("Peças de palavras em: Polski")
    expect(bo.locator("[data-field=deck]")).to_have_count(0)
    bo.screenshot(path=artifacts / "lobby-room-language-phone.png", full_page=True)

    ana.locator("#choose-game").select_option("pinto")
    expect(ana.locator("#setting-language")).to_have_value("pl")
    expect(bo.locator("#room-language")).to_have_attribute("data-lang", "pl")
    expect(bo.locator("#room-language")).to_contain_text("Polonês")
    ana.locator("#setting-language").select_option("es")
    expect(bo.locator("#room-language")).to_contain_text("Espanhol")
    ana.locator("#restore-defaults").click()
    expect(ana.locator("#setting-language")).to_have_value("pl")
    expect(bo.locator("#room-language")).to_contain_text("Polonês")
    ana.screenshot(path=artifacts / "lobby-room-language-laptop.png", full_page=True)


def test_an_english_host_keeps_english_words(player):
    """Nothing to change for a host whose interface is English: the default stays."""
    ana = player()
    ana.locator("#game").select_option("pinto")
    create_room(ana, "Ana")
    expect(ana.locator("#setting-language")).to_have_value("en")
    expect(ana.locator("#setting-language option:checked")).to_have_text("English")


def test_the_lobbys_chat_lines_up_with_the_other_cards_and_its_box_is_on_screen(player):
    """Issue 19.8: "the lobby's Chat heading sits above the other card titles and the chat
    input is clipped" on a 1280×800 laptop."""
    ana = player(viewport=LAPTOP)
    create_room(ana, "Ana")

    def box_on_screen() -> None:
        box = ana.locator("#chat-input").bounding_box()
        assert box["y"] + box["height"] <= LAPTOP["height"], box

    # The first-timer's rules-card offer heads the lobby's column, and leaves the chat alone.
    offer = ana.locator("#howto-offer").bounding_box()
    chat = ana.locator("#chat").bounding_box()
    assert abs(offer["y"] - chat["y"]) <= 2, (offer, chat)
    box_on_screen()
    ana.locator("#howto-offer-dismiss").click()
    chat_title = ana.locator("#chat-title").bounding_box()
    # The host's second column opens with "Invite friends" (issue 30), the settings under it.
    for other in ("#seats-title", "#share-title"):
        title = ana.locator(other).bounding_box()
        assert abs(chat_title["y"] - title["y"]) <= 2, (other, chat_title, title)
    box_on_screen()


def test_a_new_step_scrolled_into_view_lands_wholly_under_the_status_bar(player):
    """Issue 19.6: "scrolling a new step into view leaves text half under it". A push that
    makes the status line longer (the bar grows) and brings the next step into view in the
    same moment: the step's top ends below the bar, not under it."""
    ana = player(viewport=PHONE)
    ana.emulate_media(reduced_motion="reduce")
    create_room(ana, "Ana")
    top, bar = ana.evaluate(
        """async () => {
            const { bringIntoView } = await import('/static/js/dom.js');
            const step = document.querySelector('.settings-card');
            window.scrollTo(0, 0);
            document.getElementById('status-line').textContent =
                'A much longer status line than before, which takes two lines on a phone';
            bringIntoView(step);
            await new Promise((done) => setTimeout(done, 600));
            return [step.getBoundingClientRect().top,
                    document.getElementById('status-bar').getBoundingClientRect().bottom];
        }"""
    )
    assert bar <= top <= bar + 16, (top, bar)
