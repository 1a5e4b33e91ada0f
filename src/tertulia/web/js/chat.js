// The chat panel: the room's recent lines and an input. A side column on wide screens, a
// drawer behind a "Chat" button on a phone. Lines are text, never HTML. What the player typed
// stays in the box until the server has accepted it (a refusal is shown under the box and
// goes away as soon as the text changes). "Mute for me" (mute.js): a muted person's lines
// are not shown on this screen; the panel's foot lists the people here to mute or unmute.

import { avatar } from "./avatar.js";
import { h, ht, label, replace, showError, tx } from "./dom.js";
import { language } from "./i18n.js";
import { isMuted, muteButton, onMuteChange } from "./mute.js";

const MAX_LENGTH = 300;
const WARN_WHEN_LEFT = 40;

export function createChat(app) {
  // A log of lines, not a list: role "log" on an <ol> took its list away, and its items were
  // list items without a list (axe: listitem). Focusable, so a keyboard scrolls it.
  const log = h("div", { class: "chat-log", id: "chat-log", role: "log", "aria-live": "polite", "aria-labelledby": "chat-title", tabindex: "0" });
  const input = h("input", {
    type: "text",
    id: "chat-input",
    name: "chat",
    maxlength: MAX_LENGTH,
    autocomplete: "off",
    enterkeyhint: "send",
    "aria-describedby": "chat-error",
  });
  tx(input, "chat.placeholder", null, "placeholder");
  const error = h("p", { class: "field-error", id: "chat-error", hidden: true });
  // Why the chat is closed, in full (a placeholder cannot wrap, and phones cut it short).
  const closedWhy = h("p", { class: "hint chat-closed-why", id: "chat-closed-why", hidden: true });
  // Near the limit the box says how much is left, rather than cutting the text without a word.
  const left = h("p", { class: "hint chat-left", id: "chat-left", "aria-live": "polite", hidden: true });
  const send = ht("button", { type: "submit", class: "primary", id: "chat-send" }, "chat.send");
  const form = h(
    "form",
    { class: "chat-form", novalidate: true },
    ht("label", { for: "chat-input", class: "visually-hidden" }, "chat.label"),
    input,
    send,
  );
  const close = label(h("button", { type: "button", class: "icon-button chat-close" }, "×"), "chat.close");
  const peopleList = h("ul", { class: "chat-people", id: "chat-people" });
  const people = h("details", { class: "chat-mute", id: "chat-mute", hidden: true }, ht("summary", {}, "mute.title"), peopleList);
  const el = h(
    "aside",
    { class: "chat", id: "chat", "aria-labelledby": "chat-title" },
    h("div", { class: "chat-head" }, ht("h2", { id: "chat-title" }, "chat.title"), close),
    log,
    form,
    closedWhy,
    left,
    error,
    people,
  );

  // The phone's drawer button, with a count of lines that arrived while it was closed.
  const badge = h("span", { class: "badge", hidden: true });
  const toggle = h(
    "button",
    { type: "button", class: "chat-toggle", "aria-controls": "chat", "aria-expanded": "false" },
    h("span", { class: "chat-toggle-icon", "aria-hidden": "true" }),
    ht("span", { class: "chat-toggle-text" }, "chat.title"),
    badge,
  );
  let unread = 0;
  let open = false;
  const narrow = matchMedia("(max-width: 959px)");

  function setOpen(value) {
    open = value;
    el.classList.toggle("open", open);
    document.body.classList.toggle("chat-open", open && narrow.matches);
    toggle.setAttribute("aria-expanded", String(open));
    if (open) {
      unread = 0;
      paintBadge();
      log.scrollTop = log.scrollHeight;
      // Focus inside the drawer (Escape closes it from there); the box may be off for now (a
      // Pitacor clue giver), then the close button.
      if (narrow.matches) (input.disabled ? close : input).focus({ preventScroll: true });
    } else if (narrow.matches) {
      toggle.focus({ preventScroll: true });
    }
  }
  function paintBadge() {
    badge.hidden = unread === 0;
    badge.textContent = unread > 99 ? "99+" : String(unread);
    if (unread) label(toggle, "chat.toggle_unread", { count: unread });
    else label(toggle, "chat.open");
  }
  toggle.addEventListener("click", () => setOpen(!open));
  close.addEventListener("click", () => setOpen(false));
  el.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && open && narrow.matches) setOpen(false);
  });
  paintBadge();

  function line(l) {
    const mine = l.player === app.conn.player;
    const time = typeof l.at === "number"
      ? new Date(l.at * 1000).toLocaleTimeString(language(), { hour: "2-digit", minute: "2-digit" })
      : "";
    return h(
      "div",
      { class: `chat-line${mine ? " mine" : ""}` },
      avatar(l.player, l.nickname, { size: "sm" }),
      h(
        "div",
        { class: "chat-bubble" },
        h("span", { class: "chat-meta" }, h("span", { class: "name" }, l.nickname), " ", h("time", { class: "muted" }, time)),
        h("span", { class: "chat-text" }, l.text),
      ),
    );
  }

  function nearBottom() {
    return log.scrollHeight - log.scrollTop - log.clientHeight < 60;
  }

  const muted = (l) => isMuted(app.push?.room?.code, l.player);

  function showHistory(lines) {
    const shown = lines.filter((l) => !muted(l));
    if (!shown.length) replace(log, ht("p", { class: "empty" }, "chat.empty"));
    else replace(log, shown.map(line));
    log.scrollTop = log.scrollHeight;
  }

  function addLine(l) {
    if (muted(l)) return;
    const stick = nearBottom();
    log.querySelector(".empty")?.remove();
    log.append(line(l));
    if (stick || l.player === app.conn.player) log.scrollTop = log.scrollHeight;
    const hidden = narrow.matches && !open;
    if (hidden && l.player !== app.conn.player) {
      unread += 1;
      paintBadge();
    }
  }

  input.addEventListener("input", () => {
    showError(error, null);
    paintLeft();
  });

  function paintLeft() {
    const remaining = MAX_LENGTH - input.value.length;
    left.hidden = remaining > WARN_WHEN_LEFT;
    if (!left.hidden) tx(left, "chat.chars_left", { count: remaining });
  }
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = input.value;
    if (!text.trim()) {
      input.focus();
      return;
    }
    send.disabled = true;
    try {
      await app.conn.request("chat", { text });
      // Clear only what was sent: the player may have kept typing meanwhile.
      if (input.value === text) input.value = "";
      paintLeft();
      showError(error, null);
    } catch (err) {
      showError(error, err);
    } finally {
      send.disabled = false;
      if (!narrow.matches || open) input.focus();
    }
  });

  /**
   * Open or close the chat box; a game may say why it is closed (an i18n key, Pitacor's clue
   * giver): the input then says "Chat closed" and the line under it says why.
   */
  function setAllowed(allowed, reasonKey = null) {
    input.disabled = !allowed;
    send.disabled = !allowed;
    closedWhy.hidden = allowed;
    if (allowed) {
      tx(input, "chat.placeholder", null, "placeholder");
      return;
    }
    tx(input, "chat.closed_short", null, "placeholder");
    tx(closedWhy, reasonKey || "chat.not_now_placeholder");
  }

  // The people here, each with a "mute for me" toggle (never oneself, never a computer
  // player: they neither chat nor react).
  let peopleSig = null;
  function setPeople(room) {
    if (!room) return;
    const others = room.seats.filter((s) => s.id !== app.conn.player && !s.bot);
    const sig = JSON.stringify([room.code, others.map((s) => [s.id, s.nickname])]);
    if (sig === peopleSig) return;
    peopleSig = sig;
    people.hidden = !others.length;
    replace(
      peopleList,
      others.map((seat) => h("li", { class: "chat-person" }, avatar(seat.id, seat.nickname, { size: "sm" }), h("span", { class: "name" }, seat.nickname), muteButton(room.code, seat).el)),
    );
  }

  const offs = [
    app.on("chat_line", addLine),
    app.on("chat_history", showHistory),
    onMuteChange(() => showHistory(app.chat)),
  ];
  showHistory(app.chat);

  return {
    el,
    toggle,
    setAllowed,
    setPeople,
    destroy() {
      for (const off of offs) off();
      toggle.remove(); // it lives outside the room's screen (the status bar)
      document.body.classList.remove("chat-open");
    },
  };
}
