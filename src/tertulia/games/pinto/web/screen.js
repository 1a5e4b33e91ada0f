// Pintó's screen. Each round: the category, big; then, at your own pace, your secret title,
// your drawing (canvas.js draws with pointer events: mouse, pen or finger), the reveal, and the
// gallery of the others' drawings to interpret (phase B). Then the interpretation phase as a
// show, one drawing at a time (phase C), the round's results, and the final scores.
//
// Renders the latest push (views.py); the local state is only what the player is making (the
// drawing and the texts being typed, kept in localStorage) and the drawings themselves, which
// arrive once per connection as `push.blobs` and are kept per room (util.keepBlobs).
// The root carries data-phase / data-round / data-todo / data-artist for the tests.

import { bringIntoView, h, ht, tx } from "../../js/dom.js";
import { paintCountdown } from "../../js/view_helpers.js";
import { createOwnWork } from "./create.js";
import { createGallery } from "./gallery.js";
import { createFinal, createPlayers, createRoundResults } from "./scores.js";
import { createShow } from "./show.js";
import { keepBlobs, keepFocus, names, nicknameOf, showTop, waitingToAccept } from "./util.js";

// The table's moments that make a sound (sound.js): a drawing up for interpretation, a
// drawing turned round, a drawing's title revealed and scored.
export const soundEvents = { "artist.up": "clue", "drawing.revealed": "land", "drawing.scored": "reveal" };

// The line at the top, as tables: (view, push, me) → [i18n key, params]. What this seat has to
// do now (view.you.to_do) comes first; with nothing to do, what the phase is waiting for. The
// end, a spectator and a latecomer waiting for the next round are the exceptions (status()).
const TO_DO_STATUS = {
  write_title: (view) => ["game.pinto.to_do.write_title", { category: view.category }],
  draw: () => ["game.pinto.to_do.draw"],
  interpret: (view, push, me) => {
    const mine = view.players?.find((p) => p.id === me)?.progress;
    return ["game.pinto.to_do.interpret", { done: mine?.interpreted ?? 0, of: mine?.of ?? 0 }];
  },
  check_marks: (view, push, me) => [view.judging?.artist === me ? "game.pinto.to_do.check_own_marks" : "game.pinto.to_do.check_marks"],
  vote: (view, push, me) => {
    const d = (view.judging?.disputes || []).find((x) => !x.decided && !x.voted.includes(me));
    return [d?.host_decides ? "game.pinto.to_do.vote_host" : "game.pinto.to_do.vote", { name: nicknameOf(push, d?.seat) }];
  },
};

const PHASE_STATUS = {
  create: (view, push, me) => {
    const waiting = (view.players || []).filter((p) => p.progress && !p.progress.done && !p.left && p.online !== false && p.id !== me).map((p) => p.id);
    return waiting.length ? ["game.pinto.status.waiting_for", { names: names(push, waiting), count: waiting.length }] : ["game.pinto.status.wrapping_up"];
  },
  judge: (view, push) => {
    if (!view.judging) return ["game.status.playing"];
    const open = (view.judging.disputes || []).find((d) => !d.decided);
    if (open) return ["game.pinto.status.voting", { name: nicknameOf(push, open.seat) }];
    const waiting = waitingToAccept(view);
    return waiting.length ? ["game.pinto.status.checking_marks", { names: names(push, waiting), count: waiting.length }] : ["game.status.playing"];
  },
};

export function mount(element, ctx) {
  const roundText = h("p", { class: "pn-round", id: "pn-round" });
  const categoryText = h("p", { class: "pn-category", id: "pn-category" });
  const categoryBox = h("div", { class: "pn-category-box" }, ht("span", { class: "pn-category-label" }, "game.pinto.category"), categoryText);
  const clockLabel = h("span", { class: "pn-clock-label" });
  const clock = h("span", { class: "countdown", role: "timer", id: "pn-clock" });
  const clockBox = h("span", { class: "pn-clock", hidden: true }, clockLabel, clock);
  const head = h("div", { class: "pn-head card" }, h("div", { class: "pn-head-text" }, roundText, categoryBox), clockBox);

  const own = createOwnWork(ctx);
  const gallery = createGallery(ctx);
  const show = createShow(ctx);
  const players = createPlayers(ctx);
  const results = createRoundResults(ctx);
  const final = createFinal(ctx);
  const waitNote = h("p", { class: "card pn-wait-note", id: "pn-wait-note", hidden: true });

  const main = h("div", { class: "pn-main" }, final.el, results.el, waitNote, own.el, show.latest, show.el, gallery.el);
  const side = h("div", { class: "pn-side" }, players.el);
  const root = h("div", { class: "pinto", id: "pinto" }, head, h("div", { class: "pn-columns" }, main, side));
  element.append(root);

  let push = null;
  let deadline = null;
  let lastTodo = null;
  let lastStep = null; // round|phase: a new one brings the screen's top into view on a phone
  let lastStage = null; // round|ended: a new one brings it into view on a laptop too
  const titlesByRound = new Map(); // round -> {artist: title}, kept for the round's results
  const ticker = setInterval(tick, 250);

  function tick() {
    paintCountdown(clock, deadline, ctx.now(), { box: clockBox });
  }

  function keepTitles(view) {
    if (typeof view.round !== "number") return;
    const titles = { ...(titlesByRound.get(view.round) || {}), ...(view.titles || {}) };
    if (view.judging?.title) titles[view.judging.artist] = view.judging.title;
    titlesByRound.set(view.round, titles);
  }

  function paintHead(view, status) {
    if (typeof view.round === "number") tx(roundText, "game.pinto.round", { round: view.round, total: view.rounds });
    categoryText.textContent = view.category || "";
    categoryBox.hidden = !view.category || status === "ended";
    roundText.hidden = status === "ended";
    head.hidden = status === "ended";
    deadline = status === "playing" ? view.deadline ?? null : null;
    if (view.clock === "drawing") tx(clockLabel, "game.pinto.clock.drawing");
    else if (view.clock === "judging") tx(clockLabel, "game.pinto.clock.judging");
    else if (view.clock === "voting") tx(clockLabel, "game.pinto.clock.voting");
    tick();
  }

  function status(view, status) {
    if (status === "ended" || view.phase === "ended") {
      const winners = (view.ranking || []).filter((p) => p.winner).map((p) => p.nickname);
      waitNote.hidden = true;
      if (winners.length) return ctx.setStatus("game.status.winners", { names: winners.join(", "), count: winners.length });
      return ctx.setStatus("game.status.ended");
    }
    const you = view.you || {};
    const todo = you.to_do || null;
    let key;
    let params = {};
    // A spectator is told they watch; the shared screen, what the table is doing.
    if (you.role === "spectator" && !ctx.screen) key = "game.pinto.status.watching";
    else if (you.role === "waiting") key = "game.pinto.status.next_round";
    else {
      const say = (todo && TO_DO_STATUS[todo]) || PHASE_STATUS[view.phase];
      [key, params = {}] = say?.(view, push, ctx.me) ?? ["game.status.playing"];
    }
    const announceKey = `${key}|${todo}`;
    if (todo && announceKey !== lastTodo) ctx.announce(key, params);
    lastTodo = announceKey;
    ctx.setStatus(key, params);
    // On the page too: who we wait for, under the header, when there is nothing to do.
    const waiting = view.phase === "create" && you.role === "player" && !todo;
    waitNote.hidden = !waiting;
    if (waiting) tx(waitNote, key, params);
  }

  return {
    update(next) {
      push = next;
      const blobs = keepBlobs(next);
      const view = next.view || {};
      const roomStatus = next.room.status;
      keepTitles(view);
      root.dataset.phase = roomStatus === "ended" ? "ended" : view.phase || "";
      root.dataset.round = String(view.round ?? "");
      root.dataset.todo = view.you?.to_do || "";
      root.dataset.artist = view.judging?.artist || "";
      root.dataset.judged = String((view.judged || []).length);
      paintHead(view, roomStatus);
      keepFocus(root, () => {
        final.update(next, blobs);
        results.update(next, blobs, titlesByRound);
        own.update(next, blobs);
        show.update(next, blobs);
        gallery.update(next, blobs);
        players.update(next);
      });
      if (roomStatus === "ended") {
        own.el.hidden = true;
        gallery.el.hidden = true;
        show.el.hidden = true;
        show.latest.hidden = true;
        players.el.hidden = true; // the final scores say it all
      }
      status(view, roomStatus);
      if (view.you && typeof view.you.may_chat === "boolean") ctx.setChatAllowed(view.you.may_chat);
      // A new round (its results and the title box on top), the next drawing judged, the end.
      // A new round or the end: its results on top, on every screen size.
      const step = `${view.round}|${root.dataset.phase}|${root.dataset.artist}`;
      const stage = `${view.round}|${root.dataset.phase === "ended"}`;
      if (lastStep !== null && stage !== lastStage) showTop(root);
      else if (lastStep !== null && step !== lastStep) bringIntoView(root);
      lastStep = step;
      lastStage = stage;
    },
    unmount() {
      clearInterval(ticker);
      own.destroy();
      ctx.setChatAllowed(true);
    },
  };
}
