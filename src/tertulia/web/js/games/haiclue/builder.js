// Haiclue's clue builder: your rack of 15 tiles and the clue row.
//
// Tap a rack tile to add it to the end of the clue (tap it again, or tap it in the clue, to
// take it back); reorder with the ◀ ▶ buttons or by dragging (pointer events, so a mouse, a
// pen or a finger; rack tiles keep vertical swipes for scrolling on a phone). The draft lives
// here, across pushes, until the clue is sent or the round changes, and in localStorage, so a
// reload keeps it (UI.md: trouble "never loses what the player was typing"). A finished clue
// is final, so sending asks once more ("Send this clue?").

import { h, ht, label, replace, showError, tx } from "../../dom.js";
import { local } from "../../prefs.js";
import { keepFocus } from "./parts.js";

const DRAG_START_PX = 6;
const DRAFT_PREFIX = "tertulia.haiclue.clue.";

export function createBuilder(ctx) {
  let rack = [];
  let side = "white";
  let min = 2;
  let draft = []; // words, in clue order
  let confirming = false;
  let sending = false;
  let drag = null; // {word, from, id, x, y, started, ghost, source}
  let pendingRender = false;
  let suppressClick = false;
  let animate = null; // "flip" | "pass" for the next paint
  let draftKey = null; // where this round's draft is kept (room and round)

  const clueRow = h("ol", { class: "hc-clue-row", id: "hc-clue-row" });
  label(clueRow, "game.haiclue.build.clue_label");
  const counter = h("p", { class: "hc-counter", id: "hc-counter", "aria-live": "polite" });
  const error = h("p", { class: "field-error", id: "hc-clue-error", hidden: true });
  const submit = ht("button", { type: "button", class: "primary", id: "hc-submit" }, "game.haiclue.build.submit");
  submit.setAttribute("aria-describedby", "hc-counter hc-clue-error");
  const confirmBox = h("div", { class: "hc-confirm", id: "hc-confirm-box", hidden: true, role: "group" });
  const rackList = h("ul", { class: "hc-rack", id: "hc-rack" });
  const rackTitle = ht("h3", { class: "hc-sub", id: "hc-rack-title" }, "game.haiclue.build.rack_title");
  rackList.setAttribute("aria-labelledby", "hc-rack-title");

  const el = h(
    "section",
    { class: "card hc-builder", "aria-labelledby": "hc-builder-title" },
    ht("h2", { id: "hc-builder-title" }, "game.haiclue.build.title"),
    clueRow,
    h("div", { class: "hc-submit-line" }, counter, submit),
    confirmBox,
    error,
    rackTitle,
    rackList,
  );

  submit.addEventListener("click", () => {
    if (draft.length < min || sending) return;
    confirming = true;
    paint();
    document.getElementById("hc-confirm")?.focus();
  });

  function changed() {
    if (draftKey) local.set(draftKey, draft);
    confirming = false;
    showError(error, null);
    paint();
  }

  function add(word, at = draft.length) {
    if (draft.includes(word) || !rack.includes(word)) return;
    draft.splice(at, 0, word);
    changed();
  }

  function remove(word) {
    draft = draft.filter((w) => w !== word);
    changed();
  }

  function move(word, delta) {
    const from = draft.indexOf(word);
    const to = from + delta;
    if (from < 0 || to < 0 || to >= draft.length) return;
    [draft[from], draft[to]] = [draft[to], draft[from]];
    changed();
  }

  async function send() {
    if (sending) return;
    sending = true;
    paint();
    try {
      await ctx.send({ type: "submit_clue", words: [...draft] });
      confirming = false;
    } catch (err) {
      confirming = false;
      showError(error, err);
    } finally {
      sending = false;
      paint();
    }
  }

  // ---------------------------------------------------------------- drawing
  function tile(word, attrs, ...children) {
    return h("button", { type: "button", class: `hc-tile side-${side}`, dataset: { word }, ...attrs }, word, ...children);
  }

  function paint() {
    if (drag?.started) {
      pendingRender = true;
      return;
    }
    pendingRender = false;
    keepFocus(el, draw);
  }

  function draw() {
    const flip = animate;
    animate = null;
    replace(
      clueRow,
      draft.length
        ? draft.map((word, i) => {
            const earlier = label(
              h("button", { type: "button", class: "hc-move", disabled: i === 0, dataset: { focus: `earlier:${word}` } }, "◀"),
              "game.haiclue.build.move_earlier",
              { word },
            );
            const later = label(
              h("button", { type: "button", class: "hc-move", disabled: i === draft.length - 1, dataset: { focus: `later:${word}` } }, "▶"),
              "game.haiclue.build.move_later",
              { word },
            );
            earlier.addEventListener("click", () => move(word, -1));
            later.addEventListener("click", () => move(word, 1));
            const wordButton = label(
              tile(word, { class: `hc-tile side-${side} in-clue`, dataset: { word, focus: `clue:${word}` } }),
              "game.haiclue.build.remove",
              { word, position: i + 1, of: draft.length },
            );
            wordButton.addEventListener("click", () => {
              if (suppressClick) return;
              remove(word);
            });
            wordButton.addEventListener("pointerdown", (event) => pointerDown(event, word, "clue"));
            return h("li", { class: "hc-clue-item", dataset: { word } }, earlier, wordButton, later);
          })
        : ht("li", { class: "hc-clue-empty" }, "game.haiclue.build.empty", { min }),
    );
    replace(
      rackList,
      rack.map((word) => {
        const used = draft.includes(word);
        const button = tile(word, {
          class: `hc-tile side-${side}${used ? " used" : ""}`,
          "aria-pressed": used ? "true" : "false",
          dataset: { word, focus: `rack:${word}` },
        });
        button.addEventListener("click", () => {
          if (suppressClick) return;
          if (draft.includes(word)) remove(word);
          else add(word);
        });
        button.addEventListener("pointerdown", (event) => pointerDown(event, word, "rack"));
        return h("li", {}, button);
      }),
    );
    if (flip) {
      rackList.classList.remove("hc-anim-flip", "hc-anim-pass");
      void rackList.offsetWidth; // restart the animation
      rackList.classList.add(flip === "pass" ? "hc-anim-pass" : "hc-anim-flip");
    }
    tx(counter, "game.haiclue.build.counter", { count: draft.length, min });
    counter.classList.toggle("enough", draft.length >= min);
    submit.disabled = draft.length < min || sending;
    confirmBox.hidden = !confirming;
    if (confirming) {
      const yes = ht("button", { type: "button", class: "primary", id: "hc-confirm", disabled: sending }, "game.haiclue.build.confirm_send");
      const no = ht("button", { type: "button", class: "ghost", id: "hc-cancel" }, "game.haiclue.build.keep_editing");
      yes.addEventListener("click", send);
      no.addEventListener("click", () => {
        confirming = false;
        paint();
        submit.focus();
      });
      replace(confirmBox, ht("p", {}, "game.haiclue.build.confirm_text", { clue: draft.join(" ") }), h("div", { class: "row" }, yes, no));
    }
  }

  // ---------------------------------------------------------------- dragging
  function pointerDown(event, word, from) {
    if (event.button !== 0 || sending) return;
    drag = { word, from, id: event.pointerId, x: event.clientX, y: event.clientY, started: false, source: event.currentTarget };
    window.addEventListener("pointermove", pointerMove);
    window.addEventListener("pointerup", pointerUp);
    window.addEventListener("pointercancel", cancelDrag);
  }

  function pointerMove(event) {
    if (!drag || event.pointerId !== drag.id) return;
    if (!drag.started) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < DRAG_START_PX) return;
      drag.started = true;
      drag.ghost = h("span", { class: `hc-tile side-${side} hc-ghost`, "aria-hidden": "true" }, drag.word);
      document.body.append(drag.ghost);
      drag.source.classList.add("dragging");
      el.classList.add("is-dragging");
    }
    event.preventDefault();
    drag.ghost.style.left = `${event.clientX}px`;
    drag.ghost.style.top = `${event.clientY}px`;
    markDrop(dropIndex(event.clientX, event.clientY));
  }

  /** Where in the clue a tile dropped at (x, y) goes: an index, or null outside the row. */
  function dropIndex(x, y) {
    const box = clueRow.getBoundingClientRect();
    const slack = 24;
    if (x < box.left - slack || x > box.right + slack || y < box.top - slack || y > box.bottom + slack) return null;
    const items = [...clueRow.querySelectorAll(".hc-clue-item")].filter((li) => li.dataset.word !== drag.word);
    for (let i = 0; i < items.length; i++) {
      const r = items[i].getBoundingClientRect();
      if (y < r.top) return i;
      if (y <= r.bottom && x < r.left + r.width / 2) return i;
    }
    return items.length;
  }

  function markDrop(index) {
    for (const li of clueRow.querySelectorAll(".drop-before")) li.classList.remove("drop-before");
    clueRow.classList.toggle("drop-end", false);
    clueRow.classList.toggle("drop-target", index !== null);
    rackList.classList.toggle("drop-target", index === null && drag.from === "clue");
    if (index === null) return;
    const items = [...clueRow.querySelectorAll(".hc-clue-item")].filter((li) => li.dataset.word !== drag.word);
    if (index < items.length) items[index].classList.add("drop-before");
    else clueRow.classList.add("drop-end");
  }

  function pointerUp(event) {
    if (!drag || event.pointerId !== drag.id) return;
    const { started, word, from } = drag;
    const index = started ? dropIndex(event.clientX, event.clientY) : null;
    endDrag();
    if (!started) return;
    // The click that follows a drag is not a tap.
    suppressClick = true;
    setTimeout(() => (suppressClick = false), 0);
    if (index !== null) {
      draft = draft.filter((w) => w !== word);
      draft.splice(Math.min(index, draft.length), 0, word);
      changed();
    } else if (from === "clue") {
      remove(word);
    } else if (pendingRender) {
      paint();
    }
  }

  function cancelDrag() {
    endDrag();
    if (pendingRender) paint();
  }

  function endDrag() {
    window.removeEventListener("pointermove", pointerMove);
    window.removeEventListener("pointerup", pointerUp);
    window.removeEventListener("pointercancel", cancelDrag);
    if (drag?.ghost) drag.ghost.remove();
    drag?.source?.classList.remove("dragging");
    el.classList.remove("is-dragging");
    clueRow.classList.remove("drop-target", "drop-end");
    rackList.classList.remove("drop-target");
    for (const li of clueRow.querySelectorAll(".drop-before")) li.classList.remove("drop-before");
    const wasStarted = drag?.started;
    drag = null;
    if (wasStarted) pendingRender = true;
  }

  let signature = "";
  return {
    el,
    /** Show `words` (your rack on this round's side); keeps the draft while the rack allows. */
    update({ words, roundSide, minTiles, round, room, anim }) {
      const next = `${round}|${roundSide}|${minTiles}|${words.join(" ")}`;
      if (next === signature) return;
      const sameRound = signature.split("|")[0] === String(round);
      signature = next;
      rack = words;
      side = roundSide;
      min = minTiles;
      if (!sameRound) {
        // A new round, or a page that just came: the draft this browser kept, if any.
        draftKey = `${DRAFT_PREFIX}${room}.${round}`;
        for (const old of local.keys(`${DRAFT_PREFIX}${room}.`)) if (old !== draftKey) local.set(old, null);
        const kept = local.get(draftKey);
        draft = Array.isArray(kept) ? kept : [];
        confirming = false;
        showError(error, null);
      }
      draft = draft.filter((w, i) => rack.includes(w) && draft.indexOf(w) === i);
      if (anim) animate = anim;
      paint();
    },
    destroy() {
      endDrag();
    },
  };
}
