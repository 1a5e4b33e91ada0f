// Phase C as a show: one drawing large, the interpretations appearing one by one in clockwise
// order (each with its author's avatar), then the title, then the server's marks with their
// reasons. "The table agrees", online: every player of the round may dispute a mark
// (Dispute), the players who are neither the artist nor that guesser vote on it (Right /
// Wrong, on the row), and each accepts the marks when they have nothing to dispute; the
// host's vote decides only when nobody else can vote. Then the points, and this round's
// scored drawings so far.

import { confirmDialog, h, ht, label, replace, showError, tx } from "../../js/dom.js";
import { drawingView } from "./canvas.js";
import { mayVote, names, nicknameOf, previewPoints, signed, waitingToAccept } from "./util.js";

const STEP_MS = 650; // between two interpretations appearing

export function createShow(ctx) {
  const heading = h("h2", { id: "pn-show-title" });
  const counter = h("p", { class: "pn-show-counter muted", id: "pn-show-counter" });
  const stage = h("div", { class: "pn-stage", id: "pn-stage" });
  const el = h("section", { class: "card pn-show", id: "pn-show", "aria-labelledby": "pn-show-title" }, h("div", { class: "pn-show-head" }, heading, counter), stage);
  const latest = h("section", { class: "card pn-latest", id: "pn-latest", hidden: true, "aria-live": "polite" });

  let push = null;
  let signature = null;
  let parts = null; // the built stage of the current artist
  let lastScored = null;

  function buildStage(view, blobs) {
    const j = view.judging;
    const artist = j.artist;
    const artistName = nicknameOf(push, artist);
    const drawing = view.drawings?.[artist];
    const strokes = drawing ? blobs.get(drawing.blob) : null;
    const art = drawingView(strokes, { labelKey: "game.pinto.drawing.by", labelParams: { name: artistName }, className: "pn-show-art" });
    const rows = new Map();
    const list = h("ol", { class: "pn-interps", id: "pn-interps", "aria-labelledby": "pn-interps-title" });
    j.order.forEach((seat, i) => {
      const name = nicknameOf(push, seat);
      const text = j.interpretations?.[seat] ?? "";
      const said = text
        ? h("q", { class: "pn-said" }, text)
        : ht("span", { class: "pn-said blank" }, "game.pinto.show.blank");
      const mark = h("span", { class: "pn-mark" });
      const dispute = ht("button", { type: "button", class: "ghost pn-dispute", dataset: { seat, focus: `dispute:${seat}` } }, "game.pinto.mark.dispute");
      label(dispute, "game.pinto.mark.dispute_aria", { name });
      dispute.addEventListener("click", () => send({ type: "dispute_mark", seat }, dispute));
      const right = ht("button", { type: "button", class: "pn-vote-right", dataset: { seat, focus: `right:${seat}` } }, "game.pinto.mark.right");
      const wrong = ht("button", { type: "button", class: "pn-vote-wrong", dataset: { seat, focus: `wrong:${seat}` } }, "game.pinto.mark.wrong");
      label(right, "game.pinto.vote.right_aria", { name });
      label(wrong, "game.pinto.vote.wrong_aria", { name });
      right.addEventListener("click", () => vote(seat, true));
      wrong.addEventListener("click", () => vote(seat, false));
      const question = h("span", { class: "pn-vote-question" });
      const voteButtons = h("div", { class: "pn-vote-buttons", role: "group", "aria-label": ctx.t("game.pinto.vote.group", { name }) }, right, wrong);
      const debate = h("div", { class: "pn-debate", hidden: true, "aria-live": "polite" }, h("p", { class: "pn-debate-text" }), question, voteButtons);
      const points = h("span", { class: "pn-points" });
      const li = h(
        "li",
        { class: "pn-interp pn-appear", dataset: { seat }, style: `--delay: ${i * STEP_MS}ms` },
        ctx.avatar(seat, name, { size: "sm" }),
        h("div", { class: "pn-interp-body" }, h("span", { class: "name" }, name), said),
        h("div", { class: "pn-interp-verdict pn-appear", style: `--delay: ${(j.order.length + 1) * STEP_MS}ms` }, mark, dispute, points),
        debate,
      );
      rows.set(seat, { li, mark, dispute, right, wrong, question, voteButtons, debate, points });
      list.append(li);
    });
    const titleDelay = j.order.length * STEP_MS;
    const title = h(
      "p",
      { class: "pn-title-reveal pn-appear", id: "pn-title-reveal", style: `--delay: ${titleDelay}ms` },
      ht("span", { class: "muted" }, "game.pinto.show.title_was", { name: artistName }),
      " ",
      h("strong", { id: "pn-show-title-text" }, j.title ?? "?"),
    );
    const preview = h("p", { class: "pn-preview pn-appear", id: "pn-preview", style: `--delay: ${titleDelay + STEP_MS}ms` });
    const how = ht("p", { class: "hint pn-how", id: "pn-show-how" }, "game.pinto.show.how");
    const acceptButton = ht("button", { type: "button", class: "primary big", id: "pn-accept" }, "game.pinto.show.accept");
    const error = h("p", { class: "field-error", id: "pn-show-error", hidden: true, role: "alert" });
    const wait = h("p", { class: "pn-wait hint", id: "pn-show-wait" });
    const flagButton = ht("button", { type: "button", class: "ghost pn-flag", id: "pn-show-flag" }, "game.pinto.flag.button");
    const voidButton = ht("button", { type: "button", class: "danger pn-void", id: "pn-show-void" }, "game.pinto.void.button");
    const footer = h("div", { class: "pn-show-footer pn-appear", style: `--delay: ${titleDelay + STEP_MS}ms` }, preview, how, acceptButton, wait, error, h("div", { class: "row" }, flagButton, voidButton));
    acceptButton.addEventListener("click", () => send({ type: "accept_marks" }, acceptButton));
    flagButton.addEventListener("click", () => send({ type: "flag_drawing", artist }));
    voidButton.addEventListener("click", async () => {
      if (await confirmDialog("game.pinto.void.confirm", { name: artistName }, "game.pinto.void.button")) send({ type: "void_drawing", artist });
    });
    replace(stage, art, ht("h3", { id: "pn-interps-title", class: "visually-hidden" }, "game.pinto.show.interpretations"), list, title, footer);
    return { artist, rows, preview, acceptButton, error, wait, flagButton, voidButton };
  }

  async function send(action, button = null) {
    if (!parts) return;
    showError(parts.error, null);
    if (button) button.disabled = true;
    try {
      await ctx.send(action);
    } catch (err) {
      showError(parts.error, err);
      if (button) button.disabled = false;
    }
  }

  async function vote(seat, right) {
    const row = parts?.rows.get(seat);
    if (!row) return;
    row.right.disabled = row.wrong.disabled = true;
    await send({ type: "vote_mark", seat, right });
    row.right.disabled = row.wrong.disabled = false;
  }

  /** A disputed mark's line: who disputed it, who votes and how far, or how it ended. */
  function paintDebate(view, j, seat, row, d, inRound) {
    row.debate.hidden = !d;
    row.li.classList.toggle("disputed", Boolean(d && !d.decided));
    row.li.dataset.dispute = d ? (d.decided ? "decided" : "open") : "";
    const name = nicknameOf(push, seat);
    row.dispute.hidden = Boolean(d) || !inRound || j.done;
    row.dispute.disabled = false;
    if (!d) return;
    const text = row.debate.querySelector(".pn-debate-text");
    const by = nicknameOf(push, d.by);
    if (d.decided) {
      const changed = d.right !== null && j.marks?.[seat]?.reason === (d.host_decides ? "host" : "vote");
      const key = d.host_decides ? (changed ? "game.pinto.dispute.host_changed" : "game.pinto.dispute.host_kept") : changed ? "game.pinto.dispute.changed" : "game.pinto.dispute.kept";
      tx(text, key, { name: by, yes: d.yes ?? 0, no: d.no ?? 0, host: nicknameOf(push, view.host) });
    } else if (d.host_decides) {
      tx(text, "game.pinto.dispute.host", { name: by, host: nicknameOf(push, view.host) });
    } else {
      tx(text, "game.pinto.dispute.voting", { name: by, voters: names(push, d.voters), done: d.voted.length, of: d.voters.length });
    }
    const mine = mayVote(view, d, ctx.me);
    row.voteButtons.hidden = !mine;
    row.question.hidden = !mine;
    if (mine) tx(row.question, "game.pinto.vote.question", { name });
    else if (!d.decided && d.voted.includes(ctx.me)) {
      row.question.hidden = false;
      tx(row.question, "game.pinto.vote.cast");
    }
  }

  function paintMarks(view) {
    const j = view.judging;
    const preview = previewPoints(j.artist, j.marks);
    const inRound = view.you?.role === "player" && (j.artist === ctx.me || j.order.includes(ctx.me));
    const disputes = new Map((j.disputes || []).map((d) => [d.seat, d]));
    for (const [seat, row] of parts.rows) {
      const m = j.marks?.[seat];
      const right = Boolean(m?.right);
      row.li.classList.toggle("right", right);
      row.li.classList.toggle("wrong", !right);
      replace(
        row.mark,
        h("span", { class: "pn-mark-symbol", "aria-hidden": "true" }, right ? "✓" : "✗"),
        ht("span", { class: "pn-mark-word" }, right ? "game.pinto.mark.right" : "game.pinto.mark.wrong"),
        m?.reason ? ht("span", { class: "pn-reason" }, `game.pinto.reason.${m.reason}`) : null,
      );
      paintDebate(view, j, seat, row, disputes.get(seat), inRound);
      const p = preview.points[seat] ?? 0;
      row.points.textContent = signed(p);
      row.points.classList.toggle("zero", !p);
    }
    const artistPoints = preview.points[j.artist] ?? 0;
    tx(parts.preview, `game.pinto.show.preview.${preview.kind}`, { name: nicknameOf(push, j.artist), points: signed(artistPoints), wrong: preview.wrong });
    const accepted = (j.accepted || []).includes(ctx.me);
    parts.acceptButton.hidden = !inRound || accepted;
    if (!parts.acceptButton.hidden) parts.acceptButton.disabled = false;
    const open = (j.disputes || []).some((d) => !d.decided);
    const waiting = waitingToAccept(view);
    if (open) tx(parts.wait, "game.pinto.show.waiting_vote");
    else if (waiting.length) tx(parts.wait, accepted ? "game.pinto.show.accepted" : "game.pinto.show.waiting_accept", { names: names(push, waiting), count: waiting.length });
    else parts.wait.textContent = "";
    const drawing = view.drawings?.[j.artist];
    const playing = view.you?.role === "player";
    const flagged = Boolean(drawing?.flags?.includes(ctx.me));
    parts.flagButton.hidden = !playing || j.artist === ctx.me || !drawing;
    parts.flagButton.disabled = flagged;
    tx(parts.flagButton, flagged ? "game.pinto.flag.done" : "game.pinto.flag.button");
    parts.voidButton.hidden = !(view.host === ctx.me && drawing?.flags?.length && !drawing?.void);
  }

  function paintLatest(view, blobs) {
    const judged = view.judged || [];
    const last = judged[judged.length - 1];
    latest.hidden = !last;
    if (!last) return;
    const key = `${view.round}:${last.artist}`;
    if (lastScored === key) return;
    lastScored = key;
    const name = nicknameOf(push, last.artist);
    const strokes = blobs.get(view.drawings?.[last.artist]?.blob);
    const title = view.titles?.[last.artist] ?? last.title ?? "?";
    const entries = Object.entries(last.points || {});
    replace(
      latest,
      h(
        "div",
        { class: "pn-latest-body" },
        drawingView(strokes, { labelKey: "game.pinto.drawing.by", labelParams: { name }, className: "pn-thumb" }),
        h(
          "div",
          {},
          ht("h2", { id: "pn-latest-title" }, "game.pinto.show.scored", { name, title }),
          entries.length
            ? h("ul", { class: "pn-point-list" }, entries.map(([seat, p]) => h("li", { class: `pn-chip ${p < 0 ? "minus" : "plus"}` }, ctx.avatar(seat, nicknameOf(push, seat), { size: "sm" }), h("span", {}, nicknameOf(push, seat)), h("strong", {}, signed(p)))))
            : ht("p", { class: "hint" }, "game.pinto.show.no_points"),
        ),
      ),
    );
    latest.classList.remove("pn-pop");
    void latest.offsetWidth; // restart the little pop
    latest.classList.add("pn-pop");
  }

  function update(next, blobs) {
    push = next;
    const view = next.view || {};
    const active = view.phase === "judge" && view.judging;
    el.hidden = !active;
    if (view.phase !== "judge") {
      latest.hidden = true;
      signature = null;
      lastScored = null;
      parts = null;
      return;
    }
    paintLatest(view, blobs);
    if (!active) return;
    const j = view.judging;
    const sig = `${view.round}:${j.artist}`;
    if (sig !== signature) {
      signature = sig;
      parts = buildStage(view, blobs);
      tx(heading, j.artist === ctx.me ? "game.pinto.show.heading_yours" : "game.pinto.show.heading", { name: nicknameOf(push, j.artist) });
      const total = Object.values(view.drawings || {}).filter((d) => !d.void).length;
      tx(counter, "game.pinto.show.counter", { n: (view.judged || []).length + 1, total: Math.max(total, (view.judged || []).length + 1) });
      if (j.artist === ctx.me) ctx.announce("game.pinto.show.your_turn_announce");
    }
    paintMarks(view);
  }

  return { el, latest, update };
}
