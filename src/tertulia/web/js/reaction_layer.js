// Reactions as they arrive (`reaction` messages): each floats up at the screen's edge for a
// moment, the emoji and the sender's name, then fades (≤ 300 ms of motion each way; none with
// prefers-reduced-motion, css). The layer takes no taps (pointer-events: none) and is hidden
// from screen readers, which hear a polite line instead, gathered over a few seconds so a
// burst of applause is one sentence, not twelve. A muted sender (mute.js) is neither shown
// nor said. Used by the seats (room.js) and, bigger, the shared screen (tv.js).

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { isMuted } from "./mute.js";
import { EMOJI } from "./reactions.js";

const SHOWN_MS = 2600; // on screen, before it fades
const FADE_MS = 300;
const MOST = 6; // at once; the oldest goes first
const SAY_EVERY_MS = 3000;
const SAY_AT_MOST = 3; // named in one sentence; the rest are counted

export function createReactionLayer(app, { screen = false } = {}) {
  const layer = h("div", { class: `reaction-layer${screen ? " on-screen" : ""}`, id: "reaction-layer", "aria-hidden": "true" });
  const live = h("div", { class: "visually-hidden", id: "reaction-live", "aria-live": "polite", "aria-atomic": "true" });
  document.body.append(layer, live);
  let heard = []; // [{name, kind}] not yet said
  let sayTimer = null;

  function say() {
    sayTimer = null;
    if (!heard.length) return;
    const named = heard.slice(0, SAY_AT_MOST).map(({ name, kind }) => t("reactions.announce_one", { name, reaction: t(`reactions.kind.${kind}`) }));
    const more = heard.length - named.length;
    let sentence = named.join(t("reactions.announce_joiner"));
    if (more > 0) sentence += t("reactions.announce_more", { count: more });
    heard = [];
    live.textContent = "";
    setTimeout(() => (live.textContent = sentence), 50);
  }

  function show(message) {
    const room = app.push?.room;
    if (!room || !EMOJI[message.kind]) return;
    if (isMuted(room.code, message.player)) return;
    const name = room.seats.find((s) => s.id === message.player)?.nickname ?? "?";
    const bubble = h(
      "div",
      { class: "reaction-bubble", dataset: { kind: message.kind, player: message.player } },
      h("span", { class: "reaction-emoji" }, EMOJI[message.kind]),
      h("span", { class: "reaction-name" }, name), // a nickname: text, never markup
    );
    // A little sideways scatter, so a burst reads as a crowd, not a queue.
    bubble.style.setProperty("--drift", `${Math.round(Math.random() * 40 - 20)}px`);
    layer.append(bubble);
    while (layer.children.length > MOST) layer.firstElementChild.remove();
    setTimeout(() => bubble.classList.add("leaving"), SHOWN_MS);
    setTimeout(() => bubble.remove(), SHOWN_MS + FADE_MS);
    if (message.player !== app.conn.player || screen) {
      heard.push({ name, kind: message.kind });
      if (!sayTimer) sayTimer = setTimeout(say, SAY_EVERY_MS);
    }
  }

  const off = app.on("reaction", show);
  return {
    destroy() {
      off();
      clearTimeout(sayTimer);
      layer.remove();
      live.remove();
    },
  };
}
