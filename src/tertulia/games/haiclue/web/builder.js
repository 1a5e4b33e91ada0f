// Haiclue's clue builder: your rack of 15 tiles and the clue row.
//
// Tap a rack tile to add it to the end of the clue (tap it again to take it back). The clue
// reads as one line of tiles, as on the table; tap a tile in it to pick it, and the line under
// the clue moves it earlier or later or takes it back (44 px buttons; on the keyboard the
// picked tile also moves with Shift+← →, Delete takes it back). Tiles also drag (drag.js;
// rack tiles keep vertical swipes for scrolling).
//
// The clue being built is a draft the server keeps for this player alone: a short pause after
// each change sends it (`submit_clue` with `draft: true`), and a page that comes (a reload,
// another device) starts from the view's `my_draft`. When the clue clock runs out, a draft of
// enough tiles is the clue. A finished clue is final, so sending asks once more.

import { h, ht, label, replace, showError, tx } from "../../js/dom.js";
import { local } from "../../js/prefs.js";
import { createDrag } from "./drag.js";
import { keepFocus } from "./parts.js";

const DRAFT_PAUSE_MS = 500; // after this long without a change the draft goes to the server
const HURRY_S = 3; // this close to the clue clock's end, every change goes at once
const OLD_DRAFT_PREFIX = "tertulia.haiclue.clue."; // where this browser kept drafts before

export function createBuilder(ctx) {
  let rack = [];
  let side = "white";
  let min = 2;
  let draft = []; // words, in clue order
  let confirming = false;
  let sending = false;
  let animate = null; // "flip" | "pass" for the next paint
  let picked = null; // the clue tile the move buttons act on
  let deadline = null; // the clue clock's end (server seconds): the draft counts then
  let kept = "[]"; // the draft the server has (as JSON), so an unchanged one is not sent
  let inFlight = null; // the draft on its way there
  let draftTimer = null;

  const clueRow = h("ol", { class: "hc-clue-row", id: "hc-clue-row" });
  label(clueRow, "game.haiclue.build.clue_label");
  const counter = h("p", { class: "hc-counter", id: "hc-counter", "aria-live": "polite" });
  const error = h("p", { class: "field-error", id: "hc-clue-error", hidden: true });
  const submit = ht("button", { type: "button", class: "primary", id: "hc-submit" }, "game.haiclue.build.submit");
  submit.setAttribute("aria-describedby", "hc-counter hc-clue-error");
  const confirmBox = h("div", { class: "hc-confirm", id: "hc-confirm-box", hidden: true, role: "group" });
  const tools = h("div", { class: "hc-clue-tools", id: "hc-clue-tools" });
  const draftNote = ht("p", { class: "hint hc-draft-note", id: "hc-draft-note", hidden: true }, "game.haiclue.build.draft_note");
  const rackList = h("ul", { class: "hc-rack", id: "hc-rack" });
  const rackTitle = ht("h3", { class: "hc-sub", id: "hc-rack-title" }, "game.haiclue.build.rack_title");
  rackList.setAttribute("aria-labelledby", "hc-rack-title");

  const el = h(
    "section",
    { class: "card hc-builder", "aria-labelledby": "hc-builder-title" },
    ht("h2", { id: "hc-builder-title" }, "game.haiclue.build.title"),
    clueRow,
    tools,
    h("div", { class: "hc-submit-line" }, counter, submit),
    draftNote,
    confirmBox,
    error,
    rackTitle,
    rackList,
  );

  const drag = createDrag({
    root: () => el,
    clueRow,
    rackList,
    side: () => side,
    busy: () => sending,
    paint: () => paint(),
    // A tile let go over the clue goes in at that place; one from the clue let go elsewhere
    // is taken back.
    dropped(word, index, from) {
      if (index !== null) {
        draft = draft.filter((w) => w !== word);
        draft.splice(Math.min(index, draft.length), 0, word);
        changed();
      } else if (from === "clue") {
        remove(word);
      } else {
        return false;
      }
      return true;
    },
  });

  submit.addEventListener("click", () => {
    if (draft.length < min || sending) return;
    confirming = true;
    paint();
    document.getElementById("hc-confirm")?.focus();
  });

  function changed() {
    if (!draft.includes(picked)) picked = null;
    confirming = false;
    showError(error, null);
    paint();
    clearTimeout(draftTimer);
    // With the clock nearly out there is no time to wait for a pause.
    const hurry = deadline !== null && deadline - ctx.now() < HURRY_S;
    draftTimer = setTimeout(keepDraft, hurry ? 0 : DRAFT_PAUSE_MS);
  }

  /** Send the clue row as a draft, unless the server has it already. */
  async function keepDraft() {
    clearTimeout(draftTimer);
    const words = JSON.stringify(draft);
    if (words === kept || words === inFlight || sending || el.hidden || !el.isConnected) return;
    inFlight = words;
    try {
      // In the background: not a step the player took (it must not hush their next beep).
      await ctx.send({ type: "submit_clue", words: [...draft], draft: true }, { background: true });
      kept = words;
    } catch {
      // Not worth a message while building (the build may just have ended); the next change
      // sends it again.
    } finally {
      if (inFlight === words) inFlight = null;
      markKept();
    }
  }

  /** data-draft="kept" once the server holds exactly the row on screen (tests wait on it). */
  function markKept() {
    el.dataset.draft = kept === JSON.stringify(draft) ? "kept" : "pending";
  }

  // A page going away sends what is pending at once (a reload keeps the latest row).
  const flushOnHide = () => {
    if (document.visibilityState === "hidden") keepDraft();
  };
  document.addEventListener("visibilitychange", flushOnHide);
  window.addEventListener("pagehide", keepDraft);

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
    clearTimeout(draftTimer); // the clue itself goes now
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
    if (drag.busy()) return drag.later(); // not under the player's finger: after the drop
    drag.painted();
    keepFocus(el, draw);
  }

  function draw() {
    const flip = animate;
    animate = null;
    replace(
      clueRow,
      draft.length
        ? draft.map((word, i) => {
            const chosen = picked === word;
            const button = label(
              tile(word, {
                class: `hc-tile side-${side} in-clue${chosen ? " picked" : ""}`,
                "aria-pressed": chosen ? "true" : "false",
                "aria-keyshortcuts": "Shift+ArrowLeft Shift+ArrowRight Delete",
                dataset: { word, focus: `clue:${word}` },
              }),
              "game.haiclue.build.clue_tile",
              { word, position: i + 1, of: draft.length },
            );
            button.addEventListener("click", () => {
              if (drag.justDropped()) return;
              picked = chosen ? null : word;
              paint();
            });
            button.addEventListener("keydown", (event) => clueKey(event, word));
            button.addEventListener("pointerdown", (event) => drag.start(event, word, "clue"));
            return h("li", { class: "hc-clue-item", dataset: { word } }, button);
          })
        : ht("li", { class: "hc-clue-empty" }, "game.haiclue.build.empty", { min }),
    );
    drawTools();
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
          if (drag.justDropped()) return;
          if (draft.includes(word)) remove(word);
          else add(word);
        });
        button.addEventListener("pointerdown", (event) => drag.start(event, word, "rack"));
        return h("li", {}, button);
      }),
    );
    if (flip) {
      rackList.classList.remove("hc-anim-flip", "hc-anim-pass");
      void rackList.offsetWidth; // restart the animation
      rackList.classList.add(flip === "pass" ? "hc-anim-pass" : "hc-anim-flip");
    }
    markKept();
    tx(counter, "game.haiclue.build.counter", { count: draft.length, min });
    counter.classList.toggle("enough", draft.length >= min);
    submit.disabled = draft.length < min || sending;
    draftNote.hidden = deadline === null || draft.length < min;
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

  /** Under the clue: the picked tile's moves, or how to pick one. */
  function drawTools() {
    tools.hidden = !draft.length;
    if (!picked) {
      tools.classList.remove("active");
      return void replace(tools, draft.length ? ht("p", { class: "hint" }, "game.haiclue.build.pick_hint") : null);
    }
    const at = draft.indexOf(picked);
    const word = picked;
    const button = (name, text, key, disabled, act) => {
      const b = label(ht("button", { type: "button", class: `hc-move hc-${name}`, id: `hc-${name}`, disabled, dataset: { focus: `${name}:${word}` } }, text), key, { word });
      b.addEventListener("click", act);
      return b;
    };
    tools.classList.add("active");
    const group = h(
      "div",
      { class: "hc-tools-row", role: "group" },
      button("earlier", "game.haiclue.build.earlier", "game.haiclue.build.move_earlier", at === 0, () => move(word, -1)),
      button("later", "game.haiclue.build.later", "game.haiclue.build.move_later", at === draft.length - 1, () => move(word, 1)),
      button("take-back", "game.haiclue.build.take_back", "game.haiclue.build.take_back_label", false, () => remove(word)),
    );
    label(group, "game.haiclue.build.tools_label", { word });
    replace(tools, group);
  }

  /** Keys on a clue tile: Shift+← → move it, Delete or Backspace takes it back, ← → go to the
   * tile before or after. */
  function clueKey(event, word) {
    const at = draft.indexOf(word);
    let handled = true;
    if (event.shiftKey && (event.key === "ArrowLeft" || event.key === "ArrowRight")) {
      picked = word;
      move(word, event.key === "ArrowLeft" ? -1 : 1);
    } else if (event.key === "Delete" || event.key === "Backspace") {
      remove(word);
    } else if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      const next = draft[at + (event.key === "ArrowLeft" ? -1 : 1)];
      if (next) clueRow.querySelector(`[data-focus="${CSS.escape(`clue:${next}`)}"]`)?.focus();
    } else {
      handled = false;
    }
    if (handled) event.preventDefault();
  }

  let signature = "";
  return {
    el,
    /** Show `words` (your rack on this round's side); keeps the draft while the rack allows.
     * `myDraft`: the draft the server keeps for you (the view's), taken when a page comes or
     * a round starts. `clockEnds`: when the clue clock runs out (null: no clock), at which
     * the draft counts. */
    update({ words, roundSide, minTiles, round, anim, myDraft, clockEnds }) {
      const next = `${round}|${roundSide}|${minTiles}|${words.join(" ")}`;
      if (deadline !== clockEnds) {
        deadline = clockEnds;
        if (next === signature) paint();
      }
      if (next === signature) return;
      const sameRound = signature.split("|")[0] === String(round);
      signature = next;
      rack = words;
      side = roundSide;
      min = minTiles;
      if (!sameRound) {
        // A new round, or a page that just came: the draft the server kept, if any.
        clearTimeout(draftTimer);
        draft = Array.isArray(myDraft) ? [...myDraft] : [];
        kept = JSON.stringify(draft);
        picked = null;
        confirming = false;
        showError(error, null);
        for (const old of local.keys(OLD_DRAFT_PREFIX)) local.set(old, null); // the server keeps them now
      }
      draft = draft.filter((w, i) => rack.includes(w) && draft.indexOf(w) === i);
      if (!draft.includes(picked)) picked = null;
      if (anim) animate = anim;
      paint();
    },
    destroy() {
      drag.stop();
      keepDraft();
      document.removeEventListener("visibilitychange", flushOnHide);
      window.removeEventListener("pagehide", keepDraft);
    },
  };
}
