"""What the screens review of issue 19 found and fixed, in Chromium against the real server.

A host in a Pitacor lobby on a 360-px phone adds computer players and switches to pt-BR: each
bot's mark says its level in Portuguese ("Computador · Bom", not "· Good") and the mark stays
beside the name instead of running on under the ↑ button; with too few players the host's note
suggests a computer player. On a laptop the language menu shows "Português (Brasil)" whole.
"""

from __future__ import annotations

from e2e_actions import LAPTOP, PHONE, create_room, no_horizontal_scroll
from playwright.sync_api import expect

# The widest part of a seat's mark and the left of its first host button, per bot row.
PILL_AND_CONTROLS = """() => [...document.querySelectorAll('#seats li.is-bot')].map(li => ({
    pill: li.querySelector('.pill.bot').getBoundingClientRect().right,
    controls: li.querySelector('.seat-controls').getBoundingClientRect().left,
}))"""

# The language menu's inner width against its chosen option's text in the menu's own font.
MENU_FITS = """() => {
    const select = document.getElementById('language');
    const probe = document.createElement('span');
    probe.style.font = getComputedStyle(select).font;
    probe.style.whiteSpace = 'nowrap';
    probe.textContent = select.selectedOptions[0].textContent;
    document.body.append(probe);
    const text = probe.getBoundingClientRect().width;
    probe.remove();
    const style = getComputedStyle(select);
    const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
    const room = select.clientWidth - padding;
    return { text, room };
}"""


def test_bot_marks_follow_the_language_and_fit_a_phone_and_the_menu_fits_a_laptop(player):
    page = player(viewport=PHONE)
    page.locator("#game").select_option("pitacor")
    create_room(page, "Ana")
    note = page.locator("#start-note")
    expect(note).to_have_text(
        "2 more players needed (at least 3): invite friends or add computer players."
    )
    page.locator("#add-bot").click()
    expect(note).to_have_text(
        "One more player needed (at least 3): invite a friend or add a computer player."
    )
    page.locator("#add-bot").click()
    pills = page.locator("#seats li.is-bot .pill.bot")
    expect(pills).to_have_count(2)
    expect(pills.first).to_have_text("Computer · Good")

    page.locator("#language").select_option("pt-BR")
    expect(pills).to_have_text(["Computador · Bom", "Computador · Bom"])
    expect(page.locator("#start-note")).to_have_text("Todo mundo aqui? Comece quando quiser.")
    for row in page.evaluate(PILL_AND_CONTROLS):
        assert row["pill"] <= row["controls"], f"the bot's mark runs under its buttons: {row}"
    assert no_horizontal_scroll(page)
    # And in Spanish, the level is Spanish.
    page.locator("#language").select_option("es")
    expect(pills.first).to_have_text("Computadora · Bueno")

    page.locator("#language").select_option("pt-BR")
    page.set_viewport_size(LAPTOP)
    expect(page.locator("#language option:checked")).to_have_text("Português (Brasil)")
    fit = page.evaluate(MENU_FITS)
    assert fit["text"] <= fit["room"], f"'Português (Brasil)' is cut in the menu: {fit}"
