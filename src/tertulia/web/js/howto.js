// "How to play": each game's short rules card, a few steps with a picture each, in the
// player's language. Reachable from the home page (beside the game list), the room's head (in
// the lobby and during a match), and offered once to a player meeting a game for the first time.
//
// A game is a folder, and its card too: the words are its web/i18n/howto.<lang>.json,
//   {"title": "...", "intro": "...", "steps": [{"picture": "pick", "title": "...", "text": "..."}]}
// and each step's picture is its web/img/howto/<picture>.svg (language-free: the words
// are in the text beside it). /api/games says whether a game has a card (client.howto), so
// nothing is fetched for a game without one. Language missing → the English card.

import { h, ht, replace } from "./dom.js";
import { language, onLanguageChange, t } from "./i18n.js";
import { prefs } from "./prefs.js";

const cards = new Map(); // "<game>/<lang>" -> the card's promise

function fetchCard(game, lang) {
  const key = `${game}/${lang}`;
  if (!cards.has(key)) {
    const job = fetch(`/static/games/${encodeURIComponent(game)}/i18n/howto.${lang}.json`).then((r) => {
      if (!r.ok) throw new Error(`howto ${key}: HTTP ${r.status}`);
      return r.json();
    });
    job.catch(() => cards.delete(key)); // asked again next time
    cards.set(key, job);
  }
  return cards.get(key);
}

/** The card of `game` in the current language (English when that one is missing). */
export async function loadCard(game) {
  const lang = language();
  try {
    return await fetchCard(game, lang);
  } catch (err) {
    if (lang === "en") throw err;
    return fetchCard(game, "en");
  }
}

/** Does `info` (an entry of /api/games) have a card? */
export function hasCard(info) {
  return Boolean(info?.client?.howto);
}

function picture(game, name) {
  // Decorative: the step's text says what it shows.
  return h("img", { class: "howto-picture", src: `/static/games/${encodeURIComponent(game)}/img/howto/${encodeURIComponent(name)}.svg`, alt: "", width: 160, height: 100, loading: "lazy" });
}

function paintCard(body, title, game, card) {
  replace(title, card.title || game);
  replace(
    body,
    card.intro ? h("p", { class: "howto-intro" }, card.intro) : null,
    h(
      "ol",
      { class: "howto-steps" },
      (card.steps || []).map((step, i) =>
        h(
          "li",
          { class: "howto-step", dataset: { step: i + 1 } },
          picture(game, step.picture),
          h("div", { class: "howto-words" }, h("h3", {}, h("span", { class: "howto-no", "aria-hidden": "true" }, String(i + 1)), step.title), h("p", {}, step.text)),
        ),
      ),
    ),
  );
}

/** Open `game`'s card in a dialog; resolves when it is closed. */
export function openCard(game) {
  markMet(game); // opened once: no need to offer it again
  return new Promise((resolve) => {
    const title = h("h2", { id: "howto-title" });
    // It scrolls on a phone: focusable, so the keyboard can scroll it too.
    const body = h("div", { class: "howto-body", id: "howto-body", tabindex: "0", role: "region", "aria-labelledby": "howto-title" }, ht("p", { class: "loading" }, "howto.loading"));
    const close = ht("button", { type: "submit", class: "primary", id: "howto-close", value: "close" }, "howto.close");
    const form = h("form", { method: "dialog", class: "howto-form" }, h("div", { class: "howto-head" }, title), body, h("div", { class: "row end howto-foot" }, close));
    const dialog = h("dialog", { class: "howto", id: "howto", "aria-labelledby": "howto-title", dataset: { game } }, form);
    const opener = document.activeElement;
    let alive = true;
    async function paint() {
      try {
        const card = await loadCard(game);
        if (alive) paintCard(body, title, game, card);
      } catch (err) {
        console.error(err);
        if (alive) replace(body, ht("p", { class: "field-error" }, "howto.unavailable"));
      }
    }
    const stop = onLanguageChange(paint);
    dialog.addEventListener("close", () => {
      alive = false;
      stop();
      dialog.remove();
      if (opener && opener.isConnected && typeof opener.focus === "function") opener.focus();
      resolve();
    });
    // A click on the backdrop (outside the form) closes it too.
    dialog.addEventListener("click", (event) => {
      if (event.target === dialog) dialog.close();
    });
    document.body.append(dialog);
    dialog.showModal();
    close.focus();
    paint();
  });
}

/** A "How to play" button for the game `getInfo()` gives (hidden when it has no card). */
export function cardButton(getInfo, attrs = {}) {
  const button = h("button", { type: "button", class: "ghost howto-button", ...attrs }, h("span", { class: "howto-icon", "aria-hidden": "true" }, "?"), ht("span", { class: "howto-label" }, "howto.open"));
  button.addEventListener("click", () => {
    const info = getInfo();
    if (hasCard(info)) openCard(info.name);
  });
  return {
    el: button,
    /** Show it only for a game with a card. */
    update() {
      button.hidden = !hasCard(getInfo());
    },
  };
}

/** Has this browser met `game`'s card (opened it, or answered its offer)? */
export function wasMet(game) {
  return Boolean(prefs.get(`howto.seen.${game}`));
}

/** This browser has met `game` (its card need not be offered again). */
export function markMet(game) {
  prefs.set(`howto.seen.${game}`, "1");
}

/**
 * The first time this browser meets `info`'s game (no card opened, no offer answered): a
 * small card offering the rules, or null. Answering either way is remembered.
 */
export function offerCard(info, onDone) {
  if (!hasCard(info)) return null;
  if (prefs.get(`howto.seen.${info.name}`)) return null;
  const done = (open) => {
    markMet(info.name);
    el.remove();
    onDone?.();
    if (open) openCard(info.name);
  };
  const yes = ht("button", { type: "button", class: "primary", id: "howto-offer-open" }, "howto.offer_open");
  const no = ht("button", { type: "button", class: "ghost", id: "howto-offer-dismiss" }, "howto.offer_dismiss");
  yes.addEventListener("click", () => done(true));
  no.addEventListener("click", () => done(false));
  const el = h(
    "section",
    { class: "card howto-offer", id: "howto-offer", role: "region", "aria-labelledby": "howto-offer-text" },
    h("span", { class: "howto-icon big", "aria-hidden": "true" }, "?"),
    ht("p", { id: "howto-offer-text" }, "howto.offer", { game: t(`games.${info.name}.name`, {}, info.name) }),
    h("div", { class: "row" }, yes, no),
  );
  return el;
}
