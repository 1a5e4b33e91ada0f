// The clue giver's panel: the four candidates (large swatches with their coordinates), the
// target once chosen, the clue box with a live "is this allowed?" check while typing (a dry
// run on the server, debounced), and the second-clue step with "pass" and its bonus.
// The panel is built once and only shown/hidden: what the giver is typing survives every push.

import { h, ht, replace, showError, tx } from "../../js/dom.js";
import { inkFor } from "./util.js";

const CHECK_DELAY_MS = 350;

export function createGiver(ctx) {
  const title = h("h2", { id: "pitacor-giver-title" });
  const candidates = h("div", { class: "pc-candidates", id: "pitacor-candidates" });
  const targetBox = h("div", { class: "pc-target-box", id: "pitacor-my-target", hidden: true });
  const chooseError = h("p", { class: "field-error", id: "pitacor-choose-error", hidden: true, role: "alert" });

  const input = h("input", {
    type: "text",
    id: "pitacor-clue",
    autocomplete: "off",
    autocapitalize: "off",
    spellcheck: "false",
    maxlength: 60,
    enterkeyhint: "send",
    "aria-describedby": "pitacor-clue-hint pitacor-clue-error",
  });
  const clueLabel = h("label", { for: "pitacor-clue" });
  const clueHint = h("span", { class: "hint", id: "pitacor-clue-hint" });
  const give = ht("button", { type: "submit", class: "primary", id: "pitacor-give" }, "game.pitacor.giver.give");
  // The live check and the refusal share one slot, next to the box.
  const verdict = h("p", { class: "pc-verdict", id: "pitacor-clue-error", "aria-live": "polite", hidden: true });
  const form = h(
    "form",
    { class: "pc-clue-form", novalidate: true, id: "pitacor-clue-form" },
    clueLabel,
    h("div", { class: "row" }, input, give),
    clueHint,
    verdict,
  );
  const pass = h("button", { type: "button", class: "secondary pc-pass", id: "pitacor-pass" });
  const chatNote = ht("p", { class: "hint pc-chat-note" }, "game.pitacor.giver.no_chat");
  const el = h(
    "section",
    { class: "card pc-giver", id: "pitacor-giver", "aria-labelledby": "pitacor-giver-title", hidden: true },
    title,
    candidates,
    chooseError,
    targetBox,
    form,
    pass,
    chatNote,
  );

  let view = null;
  let checkTimer = null;
  let checkSeq = 0;
  let sending = false;
  let shownCandidates = "";

  function setVerdict(kind, key, params) {
    verdict.hidden = false;
    verdict.className = `pc-verdict ${kind}`;
    tx(verdict, key, params);
  }

  function clearVerdict() {
    verdict.hidden = true;
    verdict.textContent = "";
    delete verdict.dataset.i18n;
  }

  function refusal(error) {
    const params = { ...(error.params || {}), __message: error.message || error.code };
    setVerdict("bad", "game.pitacor.giver.not_allowed", { reason: ctx.tError(error), ...params });
  }

  input.addEventListener("input", () => {
    clearVerdict();
    clearTimeout(checkTimer);
    const text = input.value;
    if (!text.trim()) return;
    checkTimer = setTimeout(() => liveCheck(text), CHECK_DELAY_MS);
  });

  async function liveCheck(text) {
    const seq = ++checkSeq;
    try {
      await ctx.check({ type: "give_clue", text });
      if (seq === checkSeq && input.value === text) setVerdict("ok", "game.pitacor.giver.allowed");
    } catch (error) {
      if (seq === checkSeq && input.value === text) refusal(error);
    }
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = input.value;
    if (!text.trim() || sending) {
      input.focus();
      return;
    }
    clearTimeout(checkTimer);
    checkSeq++;
    sending = true;
    give.disabled = true;
    try {
      await ctx.send({ type: "give_clue", text });
      if (input.value === text) input.value = "";
      clearVerdict();
    } catch (error) {
      refusal(error);
      input.focus();
    } finally {
      sending = false;
      give.disabled = false;
    }
  });

  pass.addEventListener("click", async () => {
    pass.disabled = true;
    try {
      await ctx.send({ type: "pass_clue" });
      clearVerdict();
    } catch (error) {
      refusal(error);
    } finally {
      pass.disabled = false;
    }
  });

  function swatch(candidate, showColours, big) {
    const style = showColours ? `background: ${candidate.hex}; color: ${inkFor(candidate.hex)}` : null;
    return h(
      "span",
      { class: `pc-swatch${big ? " big" : ""}${showColours ? "" : " hex-only"}`, style },
      showColours ? null : h("span", { class: "pc-swatch-hex" }, candidate.hex),
    );
  }

  async function choose(index, button) {
    showError(chooseError, null);
    for (const b of candidates.querySelectorAll("button")) b.disabled = true;
    try {
      await ctx.send({ type: "choose_target", index });
    } catch (error) {
      showError(chooseError, error);
      button.focus();
    } finally {
      for (const b of candidates.querySelectorAll("button")) b.disabled = false;
    }
  }

  function paintCandidates(v) {
    const showColours = Boolean(v.board.show_colours);
    const key = JSON.stringify([v.candidates, showColours]);
    if (key === shownCandidates) return;
    shownCandidates = key;
    replace(
      candidates,
      (v.candidates || []).map((candidate, index) => {
        const button = h(
          "button",
          { type: "button", class: "pc-candidate", id: `pitacor-candidate-${index}` },
          swatch(candidate, showColours, true),
          h("span", { class: "pc-candidate-text" }, h("span", { class: "pc-candidate-no" }, String(index + 1)), " ", h("strong", { class: "pc-cell-name" }, candidate.cell)),
        );
        button.addEventListener("click", () => choose(index, button));
        return button;
      }),
    );
  }

  function paintTarget(v) {
    const candidate = (v.candidates || []).find((c) => c.cell === v.target) || { cell: v.target, hex: "" };
    replace(
      targetBox,
      swatch(candidate, Boolean(v.board.show_colours), false),
      h("span", {}, ht("span", { class: "muted" }, "game.pitacor.giver.your_target"), " ", h("strong", { class: "pc-cell-name" }, v.target)),
    );
  }

  /** Show the panel for this push (only for the giver during the clue steps). */
  function update(v, push) {
    view = v;
    const phase = v.phase;
    const mine = v.you?.role === "giver";
    const clueStep = mine && (phase === "choose" || phase === "clue1" || phase === "clue2");
    el.hidden = !clueStep;
    if (!clueStep) {
      shownCandidates = "";
      return;
    }
    const choosing = phase === "choose";
    candidates.hidden = !choosing;
    if (choosing) paintCandidates(v);
    targetBox.hidden = choosing || !v.target;
    if (!choosing && v.target) paintTarget(v);
    form.hidden = choosing;
    pass.hidden = phase !== "clue2";
    tx(title, choosing ? "game.pitacor.giver.choose_title" : phase === "clue1" ? "game.pitacor.giver.clue1_title" : "game.pitacor.giver.clue2_title");
    tx(clueLabel, phase === "clue2" ? "game.pitacor.giver.clue2_label" : "game.pitacor.giver.clue1_label");
    tx(clueHint, phase === "clue2" ? "game.pitacor.giver.clue2_hint" : "game.pitacor.giver.clue1_hint", { clue: v.clues?.[0] ?? "" });
    const multiplier = push.room.settings?.pass_multiplier ?? 2;
    tx(pass, "game.pitacor.giver.pass", { multiplier });
    if (!form.hidden && !input.dataset.phase) input.dataset.phase = phase;
    if (input.dataset.phase !== phase) {
      // A new clue step: the old verdict no longer applies.
      input.dataset.phase = phase;
      clearVerdict();
    }
  }

  return { el, update, input, get view() { return view; } };
}
