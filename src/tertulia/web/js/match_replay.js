// A finished match played again, step by step (the match page, issue 31). The page's JSON
// holds the spectator's view at the start and each step as the JSON Patch a live `patch`
// push carried (docs/protocol.md, "Match pages"): patch.js rebuilds every view, and the
// game's own screen module draws it, mounted as the shared screen mounts it (`ctx.screen`, no
// seat, nothing to send) — so the replay shows exactly what a spectator saw, and nothing a
// reveal did not show.
//
// The reader holds the pace: previous / next step (or the arrow keys on the buttons), a
// round's first step, and Play, which moves on one step every 1, 2 or 4 s, or "as it was
// played" (the steps' own gaps, each cut to 8 s so a long think is not a long wait). It opens
// on the last step: the podium with the game's recap. Stepping back mounts the screen afresh
// (a screen only ever saw a match move forward, and may keep what it drew).

import { h, ht, label, replace, tx } from "./dom.js";
import { viewerContext } from "./games/index.js";
import { applyPatch } from "./patch.js";
import { clockText } from "./view_helpers.js";

const PACES = ["1", "2", "4", "played"]; // seconds a step, or the match's own rhythm
const DEFAULT_PACE = "2";
const LONGEST_PLAYED_GAP = 8; // s: "as played" never waits longer than this for a step

/** Every view of the replay, start first: view[i] is the picture after i steps. */
export function replayViews(replay) {
  const views = [replay.start];
  for (const step of replay.steps) views.push(applyPatch(views[views.length - 1], step.view || []));
  return views;
}

/** "1:05": seconds into the match. */
function clock(seconds) {
  return clockText(Math.round(seconds || 0));
}

/**
 * The replay of `match` (the page's JSON, names already worded) drawn by `module` (the game's
 * screen). `room(status)` builds the room part of a push; `rename(view)` puts the page's own
 * words for hidden players in a view. Returns {el, destroy()}.
 */
export function createReplay({ match, module, staticData, room, rename }) {
  const steps = match.replay.steps;
  const views = replayViews(match.replay).map(rename);
  const last = steps.length;
  const started = match.started_at;
  let at = last;
  let handle = null;
  let shown = -1;
  let timer = null;

  const screenLine = h("p", { class: "replay-status", id: "replay-status" });
  const position = h("p", { class: "replay-position", id: "replay-position", "aria-live": "polite" });
  const stage = h("div", { class: "game-screen replay-screen", id: "match-replay", dataset: { game: match.game } });

  const button = (id, glyph, key) => label(h("button", { type: "button", class: "secondary replay-button", id }, h("span", { "aria-hidden": "true" }, glyph)), key);
  const first = button("replay-start", "«", "match.replay.first");
  const prev = button("replay-prev", "◀", "match.replay.previous");
  const play = ht("button", { type: "button", class: "primary replay-play", id: "replay-play", "aria-pressed": "false" }, "match.replay.play");
  const next = button("replay-next", "▶", "match.replay.next");
  const end = button("replay-end", "»", "match.replay.last");
  const pace = h("select", { id: "replay-pace" }, PACES.map((value) => ht("option", { value }, `match.replay.pace.${value}`)));
  pace.value = DEFAULT_PACE;
  const rounds = [...new Set(steps.map((s) => s.round).filter((r) => typeof r === "number"))];
  const round = h("select", { id: "replay-round" }, rounds.map((r) => ht("option", { value: String(r) }, "match.replay.round", { round: r })));
  const roundBox = h("label", { class: "replay-choice", for: "replay-round", hidden: rounds.length < 2 }, ht("span", {}, "match.replay.round_label"), round);

  const controls = h(
    "div",
    { class: "replay-controls", role: "group", "aria-labelledby": "replay-title" },
    h("div", { class: "replay-buttons" }, first, prev, play, next, end),
    h("div", { class: "replay-choices" }, h("label", { class: "replay-choice", for: "replay-pace" }, ht("span", {}, "match.replay.pace_label"), pace), roundBox),
  );
  const el = h(
    "section",
    { class: "card replay-card", id: "replay", "aria-labelledby": "replay-title" },
    ht("h2", { id: "replay-title" }, "match.replay.title"),
    ht("p", { class: "hint" }, "match.replay.hint"),
    controls,
    position,
    screenLine,
    stage,
  );

  function ctx() {
    return viewerContext({
      staticData,
      // The clocks as they stood at that step (a view's deadline is on the match's clock).
      now: () => (at === 0 ? started : steps[at - 1].at),
      setStatus: (key, params) => {
        screenLine.hidden = !key;
        if (key) tx(screenLine, key, params);
      },
      announce: () => {}, // the position line speaks for the replay
      message: "A match page only shows the match.",
    });
  }

  function mountScreen() {
    try {
      handle?.unmount();
    } catch (err) {
      console.error(err);
    }
    replace(stage);
    const element = h("div", { class: "replay-game" });
    stage.append(element);
    handle = module.mount(element, ctx());
  }

  function show() {
    if (at < shown || !handle) mountScreen();
    shown = at;
    const step = at ? steps[at - 1] : null;
    handle.update({
      type: "room",
      version: at,
      room: room(at === last ? "ended" : "playing"),
      view: views[at],
      events: step?.events || [],
      blobs: match.blobs || {},
    });
    const params = { step: at, of: last, round: step?.round ?? views[at]?.round ?? 1, time: clock(step ? step.t : 0) };
    tx(position, at === last ? "match.replay.at_end" : at === 0 ? "match.replay.at_start" : "match.replay.position", params);
    first.disabled = prev.disabled = at === 0;
    next.disabled = end.disabled = at === last;
    if (rounds.length) round.value = String(params.round);
    if (at === last) stop();
  }

  function go(to) {
    at = Math.max(0, Math.min(last, to));
    show();
  }

  function wait() {
    if (pace.value !== "played") return Number(pace.value) * 1000;
    const gap = at < last ? steps[at].t - (at ? steps[at - 1].t : 0) : 1;
    return Math.min(LONGEST_PLAYED_GAP, Math.max(0.4, gap)) * 1000;
  }

  function tick() {
    go(at + 1);
    if (timer !== null) timer = setTimeout(tick, wait());
  }

  function start() {
    if (at === last) go(0); // Play at the end plays it from the start
    play.setAttribute("aria-pressed", "true");
    tx(play, "match.replay.pause");
    timer = setTimeout(tick, wait());
  }

  function stop() {
    clearTimeout(timer);
    timer = null;
    play.setAttribute("aria-pressed", "false");
    tx(play, "match.replay.play");
  }

  play.addEventListener("click", () => (timer === null ? start() : stop()));
  first.addEventListener("click", () => (stop(), go(0)));
  prev.addEventListener("click", () => (stop(), go(at - 1)));
  next.addEventListener("click", () => (stop(), go(at + 1)));
  end.addEventListener("click", () => (stop(), go(last)));
  pace.addEventListener("change", () => {
    if (timer === null) return;
    clearTimeout(timer);
    timer = setTimeout(tick, wait());
  });
  // From the step buttons, the arrow keys step too (not from a menu, whose arrows choose).
  controls.addEventListener("keydown", (event) => {
    if (event.target.tagName === "SELECT" || event.altKey || event.ctrlKey || event.metaKey) return;
    const delta = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
    if (!delta) return;
    event.preventDefault();
    stop();
    go(at + delta);
  });
  round.addEventListener("change", () => {
    stop();
    const index = steps.findIndex((s) => String(s.round) === round.value);
    // A step's round is its view's: the first step of a round is the one that began it (the
    // first round began at the start).
    go(index <= 0 ? (index < 0 ? at : 0) : index + 1);
  });

  show();

  return {
    el,
    destroy() {
      stop();
      try {
        handle?.unmount();
      } catch (err) {
        console.error(err);
      }
      handle = null;
    },
  };
}
