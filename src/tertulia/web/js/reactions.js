// Quick reactions (issue 29): six emoji any player or spectator sends during a match, at its
// reveals and at the podium (docs/protocol.md, "Reactions"). Not chat and not a move: the
// server passes each to everyone in the room, screens included, and the sender sees theirs
// come back like everyone else's (reaction_layer.js shows them).
//
// The bar sits in the sticky status bar on a wide screen, the six buttons in a row; on a
// phone it is one round button in the corner that opens them, there while the player has
// nothing to do but look (a reveal, the podium, someone else's turn): the status bar keeps
// its width for the status (two lines at most, issue 30), and a busy player's taps nothing. It is closed where chat is closed (`view.you.may_chat`: a
// reaction is a hint as much as a line), and a refusal (too fast) is said quietly beside it.

import { h, label, showError } from "./dom.js";

export const REACTIONS = [
  ["clap", "👏"],
  ["laugh", "😂"],
  ["wow", "😮"],
  ["love", "😍"],
  ["think", "🤔"],
  ["fire", "🔥"],
];
export const EMOJI = Object.fromEntries(REACTIONS);
const NOTE_MS = 2500;
const CLOSE_AFTER_MS = 4000; // a phone's open row closes itself after this long untouched

export function createReactionBar(app) {
  const note = h("p", { class: "reaction-note", id: "reaction-note", role: "status", hidden: true });
  const buttons = REACTIONS.map(([kind, emoji]) => {
    const button = h("button", { type: "button", class: "reaction-button", dataset: { kind } }, h("span", { "aria-hidden": "true" }, emoji));
    label(button, `reactions.send.${kind}`);
    button.addEventListener("click", () => send(kind));
    return button;
  });
  const row = h("div", { class: "reaction-row", id: "reaction-row", role: "group" }, buttons, note);
  label(row, "reactions.title");
  const toggle = h(
    "button",
    { type: "button", class: "reaction-toggle", id: "reaction-toggle", "aria-expanded": "false", "aria-controls": "reaction-row" },
    h("span", { "aria-hidden": "true" }, "👏"),
  );
  label(toggle, "reactions.open");
  const el = h("div", { class: "reactions", id: "reactions", hidden: true }, toggle, row);
  let noteTimer = null;
  let closeTimer = null;

  function setOpen(open) {
    el.classList.toggle("open", open);
    toggle.setAttribute("aria-expanded", String(open));
    clearTimeout(closeTimer);
    if (open) closeTimer = setTimeout(() => setOpen(false), CLOSE_AFTER_MS);
  }
  toggle.addEventListener("click", () => {
    const open = !el.classList.contains("open");
    setOpen(open);
    if (open) buttons[0].focus({ preventScroll: true });
  });
  el.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && el.classList.contains("open")) {
      setOpen(false);
      toggle.focus({ preventScroll: true });
    }
  });
  const outside = (event) => {
    if (!el.contains(event.target)) setOpen(false);
  };
  document.addEventListener("pointerdown", outside);

  async function send(kind) {
    if (el.classList.contains("open")) setOpen(true); // still in use: keep it open a while
    try {
      await app.conn.request("react", { kind });
      showError(note, null);
    } catch (error) {
      // Quietly, in place: "slow down a little", gone by itself.
      showError(note, error);
      clearTimeout(noteTimer);
      noteTimer = setTimeout(() => showError(note, null), NOTE_MS);
    }
  }

  return {
    el,
    /** Offer the reactions or not (a match on screen, and chat open for this seat);
     * `busy`: this seat has something to do now (a phone keeps its bar for the status). */
    setAllowed(allowed, { busy = false } = {}) {
      el.hidden = !allowed;
      el.classList.toggle("busy", busy);
      if (!allowed || (busy && el.classList.contains("open") && !el.contains(document.activeElement))) setOpen(false);
    },
    destroy() {
      clearTimeout(noteTimer);
      clearTimeout(closeTimer);
      document.removeEventListener("pointerdown", outside);
      el.remove();
    },
  };
}
