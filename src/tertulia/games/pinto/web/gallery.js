// Phase B, the others' part: the gallery of revealed drawings, clockwise from you. One text
// box per drawing (saved when you leave it or press Enter; blanks allowed and counted as
// wrong), a flag for a drawing that breaks the "no letters, numbers or symbols" rule, and the
// host's void button on flagged ones. "I'm done" saves what is typed and leaves the rest blank.
// While you type, a pause sends the box as a draft: it does not count as finished, but if the
// drawing time runs out first, the server counts what was in the box.

import { confirmDialog, h, ht, label, replace, showError, tx } from "../../js/dom.js";
import { drawingView } from "./canvas.js";
import { local, nicknameOf } from "./util.js";

const GUESS_PREFIX = "tertulia.pinto.guesses.";
const DRAFT_PAUSE_MS = 800; // typing pause after which the box is kept as a draft

export function createGallery(ctx) {
  const list = h("ul", { class: "pn-gallery", id: "pn-gallery", "aria-labelledby": "pn-gallery-title" });
  const note = h("p", { class: "hint", id: "pn-gallery-note" });
  const finishButton = ht("button", { type: "button", class: "secondary", id: "pn-finish" }, "game.pinto.gallery.finish");
  const finishError = h("p", { class: "field-error", id: "pn-finish-error", hidden: true, role: "alert" });
  const el = h(
    "section",
    { class: "card pn-gallery-card", id: "pn-gallery-card", "aria-labelledby": "pn-gallery-title" },
    ht("h2", { id: "pn-gallery-title", class: "pn-step" }, "game.pinto.step.interpret"),
    note,
    list,
    h("div", { class: "pn-finish-row" }, finishButton, finishError),
  );

  let push = null;
  let blobs = new Map();
  let round = null;
  let guessKey = null;
  const cards = new Map(); // artist -> parts

  function typed() {
    return (guessKey && local.get(guessKey)) || {};
  }

  function makeCard(artist) {
    const name = nicknameOf(push, artist);
    const art = h("div", { class: "pn-work-art" });
    const input = h("input", {
      type: "text",
      class: "pn-guess",
      id: `pn-guess-${artist}`,
      maxlength: 60,
      autocomplete: "off",
      spellcheck: "false",
      dataset: { artist, focus: `guess:${artist}` },
      "aria-describedby": `pn-guess-state-${artist} pn-guess-error-${artist}`,
    });
    const state = h("span", { class: "pn-guess-state", id: `pn-guess-state-${artist}`, "aria-live": "polite" });
    const error = h("p", { class: "field-error", id: `pn-guess-error-${artist}`, hidden: true });
    const inputLabel = ht("label", { for: input.id }, "game.pinto.gallery.guess_label", { name });
    const form = h("form", { class: "pn-guess-form", novalidate: true }, inputLabel, h("div", { class: "pn-guess-row" }, input, state), error);
    const flag = ht("button", { type: "button", class: "ghost pn-flag", dataset: { artist } }, "game.pinto.flag.button");
    const flags = h("span", { class: "pill pn-flags", hidden: true });
    const voidButton = ht("button", { type: "button", class: "danger pn-void", dataset: { artist }, hidden: true }, "game.pinto.void.button");
    const voidBadge = ht("span", { class: "pill pn-void-badge", hidden: true }, "game.pinto.void.badge");
    const actionError = h("p", { class: "field-error", hidden: true });
    const waiting = ht("p", { class: "pn-work-waiting hint" }, "game.pinto.gallery.still_drawing", { name });
    const head = h("div", { class: "pn-work-head" }, ctx.avatar(artist, name, { size: "sm" }), h("span", { class: "name" }, name), flags, voidBadge);
    const tools = h("div", { class: "pn-work-tools" }, flag, voidButton);
    const li = h("li", { class: "pn-work", dataset: { artist } }, head, art, waiting, form, tools, actionError);
    const parts = { li, art, input, state, error, form, flag, flags, voidButton, voidBadge, actionError, waiting, blob: null, sending: false, draftTimer: null };

    input.addEventListener("input", () => {
      showError(error, null);
      local.set(guessKey, { ...typed(), [artist]: input.value });
      clearTimeout(parts.draftTimer);
      parts.draftTimer = setTimeout(() => keepDraft(artist), DRAFT_PAUSE_MS);
      paintState(parts, artist);
    });
    input.addEventListener("change", () => save(artist));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      save(artist).then((ok) => {
        if (!ok) return;
        // On to the next box still empty, as on a paper chart.
        const next = [...cards.values()].find((c) => c.input !== input && !c.form.hidden && !c.input.disabled && !c.input.value.trim());
        next?.input.focus();
      });
    });
    flag.addEventListener("click", () => act(parts, { type: "flag_drawing", artist }));
    voidButton.addEventListener("click", async () => {
      const ok = await confirmDialog("game.pinto.void.confirm", { name: nicknameOf(push, artist) }, "game.pinto.void.button");
      if (ok) act(parts, { type: "void_drawing", artist });
    });
    return parts;
  }

  async function act(parts, action) {
    showError(parts.actionError, null);
    try {
      await ctx.send(action);
    } catch (error) {
      showError(parts.actionError, error);
    }
  }

  /** What the server would count for `artist` now: the draft if any (it is newer). */
  function kept(artist) {
    const view = push?.view;
    return view?.my_drafts?.[artist] ?? view?.my_interpretations?.[artist];
  }

  /** Send the box of `artist` as a draft unless the server already counts that text (typing
   * back to the saved reading sends it too: the server then drops the older draft). */
  async function keepDraft(artist) {
    const parts = cards.get(artist);
    if (!parts || parts.input.disabled || parts.form.hidden || !el.isConnected || el.hidden) return;
    const text = parts.input.value.trim();
    if (kept(artist) === text) return;
    try {
      // In the background: not a step the player took (it must not hush their next turn's beep).
      await ctx.send({ type: "interpret", artist, text, draft: true }, { background: true });
    } catch {
      // Not worth a message while typing (the phase may just have ended); the box itself is
      // saved on Enter or on leaving it, and that one reports its errors.
    }
    paintState(parts, artist);
  }

  /** Send the box of `artist` if it differs from what the server has; true when saved. */
  async function save(artist) {
    const parts = cards.get(artist);
    if (!parts || parts.input.disabled) return false;
    clearTimeout(parts.draftTimer);
    const text = parts.input.value.trim();
    const saved = push?.view?.my_interpretations?.[artist];
    const draft = push?.view?.my_drafts?.[artist];
    if (saved === text && draft === undefined) return true; // a draft must be cleared by a save
    parts.sending = true;
    paintState(parts, artist);
    try {
      await ctx.send({ type: "interpret", artist, text });
      showError(parts.error, null);
      return true;
    } catch (error) {
      showError(parts.error, error);
      return false;
    } finally {
      parts.sending = false;
      paintState(parts, artist);
    }
  }

  function paintState(parts, artist) {
    const saved = push?.view?.my_interpretations?.[artist];
    const draft = push?.view?.my_drafts?.[artist];
    const text = parts.input.value.trim();
    let key = "game.pinto.gallery.unsaved";
    if (parts.sending) key = "game.pinto.gallery.saving";
    // While a draft is kept the label stays put as the player types on (it is a live region:
    // a flip at every keystroke and pause would be read out each time).
    else if (draft !== undefined) key = "game.pinto.gallery.draft";
    else if (saved !== undefined && saved === text) key = text ? "game.pinto.gallery.saved" : "game.pinto.gallery.blank";
    else if (saved === undefined && !text) key = "game.pinto.gallery.empty";
    tx(parts.state, key);
    parts.state.dataset.state = key.split(".").pop();
    parts.li.classList.toggle("is-saved", key.endsWith("saved") && !key.endsWith("unsaved"));
  }

  finishButton.addEventListener("click", async () => {
    showError(finishError, null);
    const open = [...cards.entries()].filter(([, c]) => !c.form.hidden && !c.input.disabled);
    const blanks = open.filter(([artist, c]) => !c.input.value.trim() && push?.view?.my_interpretations?.[artist] === undefined);
    if (blanks.length) {
      const ok = await confirmDialog("game.pinto.gallery.finish_confirm", { count: blanks.length }, "game.pinto.gallery.finish");
      if (!ok) return;
    }
    for (const [artist] of open) {
      if (!(await save(artist))) {
        showError(finishError, { code: "interpret.unsaved", message: "Some interpretations were not saved.", params: {} });
        return;
      }
    }
  });

  function update(next, kept) {
    push = next;
    blobs = kept;
    const view = next.view || {};
    el.hidden = view.phase !== "create";
    if (el.hidden) {
      for (const parts of cards.values()) clearTimeout(parts.draftTimer); // phase B is over
      return;
    }
    if (round !== view.round) {
      round = view.round;
      guessKey = `${GUESS_PREFIX}${next.room.code}.${round}`;
      for (const other of local.keys(`${GUESS_PREFIX}${next.room.code}.`)) if (other !== guessKey) local.set(other, null);
      cards.clear();
      replace(list);
    }
    const playing = view.you?.role === "player";
    const iRevealed = Boolean(view.drawings?.[ctx.me]);
    const amHost = view.host === ctx.me;
    const seats = (view.players || []).filter((p) => p.progress);
    const at = seats.findIndex((p) => p.id === ctx.me);
    const clockwise = at >= 0 ? [...seats.slice(at + 1), ...seats.slice(0, at)] : seats;
    const artists = clockwise.map((p) => p.id);
    const draft = typed();

    for (const artist of artists) {
      let parts = cards.get(artist);
      if (!parts) {
        parts = makeCard(artist);
        cards.set(artist, parts);
        if (typeof draft[artist] === "string") parts.input.value = draft[artist];
      }
      const drawing = view.drawings?.[artist];
      const strokes = drawing ? blobs.get(drawing.blob) : null;
      parts.li.classList.toggle("revealed", Boolean(drawing));
      parts.waiting.hidden = Boolean(drawing);
      parts.art.hidden = !drawing;
      if (drawing && parts.blob !== (strokes ? drawing.blob : `missing:${drawing.blob}`)) {
        parts.blob = strokes ? drawing.blob : `missing:${drawing.blob}`;
        replace(parts.art, drawingView(strokes, { labelKey: "game.pinto.drawing.by", labelParams: { name: nicknameOf(push, artist) } }));
      }
      parts.form.hidden = !drawing || !playing;
      parts.input.disabled = !iRevealed;
      // A draft is newer than the saved reading (saving clears it).
      const kept = view.my_drafts?.[artist] ?? view.my_interpretations?.[artist];
      if (kept !== undefined && document.activeElement !== parts.input && !parts.input.value.trim()) parts.input.value = kept;
      paintState(parts, artist);
      const flaggedByMe = Boolean(drawing?.flags?.includes(ctx.me));
      parts.flag.hidden = !drawing || !playing || Boolean(drawing?.void);
      parts.flag.disabled = flaggedByMe;
      tx(parts.flag, flaggedByMe ? "game.pinto.flag.done" : "game.pinto.flag.button");
      label(parts.flag, flaggedByMe ? "game.pinto.flag.done" : "game.pinto.flag.aria", { name: nicknameOf(push, artist) });
      const count = drawing?.flags?.length || 0;
      parts.flags.hidden = !count || drawing?.void;
      if (count) tx(parts.flags, "game.pinto.flag.count", { count });
      parts.voidBadge.hidden = !drawing?.void;
      parts.voidButton.hidden = !(amHost && count && !drawing?.void);
      parts.li.classList.toggle("void", Boolean(drawing?.void));
      if (parts.li.parentNode !== list || list.children[artists.indexOf(artist)] !== parts.li) {
        list.insertBefore(parts.li, list.children[artists.indexOf(artist)] || null);
      }
    }
    for (const [artist, parts] of cards) {
      if (!artists.includes(artist)) {
        parts.li.remove();
        cards.delete(artist);
      }
    }

    const revealedOthers = artists.filter((a) => view.drawings?.[a]);
    const done = revealedOthers.filter((a) => view.my_interpretations?.[a] !== undefined).length;
    if (!playing) tx(note, "game.pinto.gallery.note_watch");
    else if (!iRevealed) tx(note, "game.pinto.gallery.note_reveal_first");
    else if (!revealedOthers.length) tx(note, "game.pinto.gallery.note_none_yet");
    else {
      // The status line's numbers (the server's progress: every other drawing of the round,
      // revealed or not yet), so the two never disagree.
      const progress = view.players?.find((p) => p.id === ctx.me)?.progress;
      tx(note, "game.pinto.gallery.note", { done: progress?.interpreted ?? done, count: progress?.of ?? revealedOthers.length });
    }
    const me = view.players?.find((p) => p.id === ctx.me);
    finishButton.hidden = !playing || !iRevealed || !revealedOthers.length || Boolean(me?.progress?.done) || done === revealedOthers.length;
    if (finishButton.hidden) showError(finishError, null);
  }

  return { el, update };
}
