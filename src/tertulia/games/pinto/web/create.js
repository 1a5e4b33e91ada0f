// Phase B, "Let's do this!", your own part: the secret title (with the server's live "why
// not" while you type), the drawing pad, and the reveal. The draft (strokes and the title
// being typed) is kept in localStorage per room and round, so a reload loses nothing; the
// server never sees a drawing before it is revealed.

import { confirmDialog, h, ht, showError, tx } from "../../js/dom.js";
import { createPad, drawingView } from "./canvas.js";
import { local } from "./util.js";

const DRAFT_PREFIX = "tertulia.pinto.draft.";
const CHECK_DELAY_MS = 350;

export function createOwnWork(ctx) {
  // ---------------------------------------------------------------- title
  const titleInput = h("input", {
    type: "text",
    id: "pn-title",
    maxlength: 60,
    autocomplete: "off",
    spellcheck: "false",
    "aria-describedby": "pn-title-note pn-title-error",
  });
  const titleSave = ht("button", { type: "submit", class: "primary", id: "pn-title-save" }, "game.pinto.title.save");
  const titleError = h("p", { class: "field-error", id: "pn-title-error", hidden: true, role: "alert" });
  const titleNote = ht("p", { class: "hint", id: "pn-title-note" }, "game.pinto.title.secret");
  const titleSaved = h("p", { class: "pn-title-saved", id: "pn-title-saved", hidden: true });
  const titleForm = h(
    "form",
    { class: "pn-title-form", novalidate: true },
    ht("label", { for: "pn-title" }, "game.pinto.title.label"),
    h("div", { class: "row" }, titleInput, titleSave),
    titleError,
    titleNote,
  );
  const titleBox = h("section", { class: "card pn-title-card", "aria-labelledby": "pn-step-title" }, ht("h2", { id: "pn-step-title", class: "pn-step" }, "game.pinto.step.title"), titleForm, titleSaved);

  // ---------------------------------------------------------------- pad and reveal
  const pad = createPad({ onChange: (strokes) => saveDraft({ strokes }) });
  const revealButton = ht("button", { type: "button", class: "primary big", id: "pn-reveal" }, "game.pinto.reveal.button");
  const revealHint = h("p", { class: "hint", id: "pn-reveal-hint" });
  const revealError = h("p", { class: "field-error", id: "pn-reveal-error", hidden: true, role: "alert" });
  const mine = h("div", { class: "pn-mine", id: "pn-mine", hidden: true });
  const padBox = h(
    "section",
    { class: "card pn-pad-card", "aria-labelledby": "pn-step-draw" },
    ht("h2", { id: "pn-step-draw", class: "pn-step" }, "game.pinto.step.draw"),
    pad.el,
    mine,
    revealButton,
    revealHint,
    revealError,
  );
  const el = h("div", { class: "pn-own", id: "pn-own" }, titleBox, padBox);

  let push = null;
  let draftKey = null;
  let checkTimer = null;
  let checkSeq = 0;
  let busy = false;
  let shownMine = null;
  let kept = null; // the room's blobs (util.keepBlobs)

  // ---------------------------------------------------------------- drafts
  function saveDraft(part) {
    if (!draftKey) return;
    const draft = local.get(draftKey) || {};
    local.set(draftKey, { ...draft, ...part, category: push?.view?.category ?? null });
  }

  function openDraft(code, round, category) {
    const key = `${DRAFT_PREFIX}${code}.${round}`;
    if (key === draftKey) return;
    draftKey = key;
    // Drafts of other rounds (or of a finished match) in this room are of no use any more.
    for (const other of local.keys(`${DRAFT_PREFIX}${code}.`)) if (other !== key) local.set(other, null);
    let draft = local.get(key);
    if (draft && draft.category !== category) draft = null; // a new match in the same room
    pad.setStrokes(Array.isArray(draft?.strokes) ? draft.strokes : []);
    titleInput.value = typeof draft?.title === "string" ? draft.title : "";
    showError(titleError, null);
    showError(revealError, null);
    shownMine = null;
  }

  // ---------------------------------------------------------------- title: live check, save
  titleInput.addEventListener("input", () => {
    showError(titleError, null);
    saveDraft({ title: titleInput.value });
    paintTitleButton();
    clearTimeout(checkTimer);
    const text = titleInput.value.trim();
    if (!text) return;
    const seq = ++checkSeq;
    checkTimer = setTimeout(() => {
      ctx.check({ type: "set_title", text }).then(
        () => {},
        (error) => {
          if (seq !== checkSeq || titleInput.value.trim() !== text) return;
          if (error.code === "title.empty" || String(error.code).startsWith("connection.")) return;
          showError(titleError, error);
        },
      );
    }, CHECK_DELAY_MS);
  });

  titleForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (busy) return;
    clearTimeout(checkTimer);
    checkSeq++;
    const text = titleInput.value.trim();
    if (!text) {
      showError(titleError, { code: "title.empty", message: "Write what you will draw.", params: {} });
      titleInput.focus();
      return;
    }
    busy = true;
    titleSave.disabled = true;
    try {
      await ctx.send({ type: "set_title", text });
      showError(titleError, null);
      ctx.announce("game.pinto.title.saved_announce");
    } catch (error) {
      showError(titleError, error);
      titleInput.focus();
    } finally {
      busy = false;
      paint();
    }
  });

  function paintTitleButton() {
    const saved = push?.view?.my_title ?? null;
    const text = titleInput.value.trim();
    titleSave.disabled = busy || !text || text === saved;
    tx(titleSave, saved ? "game.pinto.title.change" : "game.pinto.title.save");
  }

  // ---------------------------------------------------------------- reveal
  revealButton.addEventListener("click", async () => {
    if (busy) return;
    showError(revealError, null);
    const strokes = pad.strokes();
    if (!strokes.length) {
      showError(revealError, { code: "drawing.empty", message: "Draw something first.", params: {} });
      return;
    }
    const ok = await confirmDialog("game.pinto.reveal.confirm", { title: push?.view?.my_title ?? "" }, "game.pinto.reveal.do");
    if (!ok) return;
    busy = true;
    revealButton.disabled = true;
    try {
      await ctx.send({ type: "reveal_drawing", strokes });
      ctx.announce("game.pinto.reveal.done_announce");
    } catch (error) {
      showError(revealError, error);
    } finally {
      busy = false;
      paint();
    }
  });

  // ---------------------------------------------------------------- render
  function paint() {
    const blobs = kept;
    const view = push?.view || {};
    const playing = view.you?.role === "player";
    el.hidden = !playing || view.phase !== "create";
    if (el.hidden) return;
    const myTitle = view.my_title ?? null;
    const mineDrawing = view.drawings?.[ctx.me];
    const revealed = Boolean(mineDrawing);

    // Title: editable until the drawing is revealed (then it is final).
    titleForm.hidden = revealed;
    titleSaved.hidden = !myTitle;
    if (myTitle) tx(titleSaved, revealed ? "game.pinto.title.final" : "game.pinto.title.current", { title: myTitle });
    if (!revealed && document.activeElement !== titleInput && !titleInput.value.trim() && myTitle) titleInput.value = myTitle;
    paintTitleButton();
    titleBox.classList.toggle("done", Boolean(myTitle));

    // The pad until revealed; then the drawing as everyone sees it.
    pad.el.hidden = revealed;
    revealButton.hidden = revealed;
    revealHint.hidden = revealed;
    mine.hidden = !revealed;
    if (!revealed) {
      pad.setLocked(myTitle ? null : "game.pinto.pad.title_first");
      revealButton.disabled = busy || !myTitle;
      tx(revealHint, myTitle ? "game.pinto.reveal.hint" : "game.pinto.reveal.hint_title");
    } else {
      const key = mineDrawing.blob;
      const strokes = blobs?.get(key) ?? pad.strokes();
      if (shownMine !== key && strokes.length) {
        shownMine = key;
        mine.replaceChildren(
          drawingView(strokes, { labelKey: "game.pinto.drawing.yours", className: "pn-mine-art" }),
          ht("p", { class: "hint" }, "game.pinto.reveal.locked"),
        );
        if (draftKey) saveDraft({ strokes: [], revealed: true });
      }
    }
  }

  return {
    el,
    update(next, blobs) {
      push = next;
      const view = next.view || {};
      if (view.phase === "create" && typeof view.round === "number") openDraft(next.room.code, view.round, view.category);
      kept = blobs;
      paint();
    },
    destroy() {
      clearTimeout(checkTimer);
      pad.destroy();
    },
  };
}
