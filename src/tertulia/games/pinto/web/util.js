// Pintó's small shared pieces: the blob store, names, the rulebook's
// scoring formula (for the preview while the marks may still be disputed), who judges a
// drawing and may vote, and keeping the keyboard focus across a re-render.

import { keepFocus, nicknameOf } from "../../js/view_helpers.js";

// ------------------------------------------------------------------ blobs
//
// A revealed drawing reaches a connection once, as `push.blobs[key]`; the view names it by
// key (view.drawings[artist].blob). The store lives at module level, per room, so that a
// screen mounted again in the same room (home and back, same connection: the server does not
// send the blobs again) still has them. A new match in the room starts a fresh store: it can
// only follow a push with room.status "ended".

let store = { code: null, blobs: new Map(), ended: false };

/** Keep the blobs of `push`; returns the map of every blob kept for its room. */
export function keepBlobs(push) {
  const code = push?.room?.code ?? null;
  if (store.code !== code) store = { code, blobs: new Map(), ended: false };
  if (push?.room?.status === "playing" && store.ended) {
    store.blobs = new Map();
    store.ended = false;
  }
  if (push?.room?.status === "ended") store.ended = true;
  const fresh = push?.blobs;
  if (fresh && typeof fresh === "object") {
    for (const [key, value] of Object.entries(fresh)) store.blobs.set(key, value);
  }
  return store.blobs;
}

// ------------------------------------------------------------------ view helpers

export { nicknameOf };

export function names(push, ids) {
  return ids.map((id) => nicknameOf(push, id)).join(", ");
}

/** The rulebook's points for one drawing, from the marks (a preview: the server scores). */
export function previewPoints(artist, marks) {
  const seats = Object.keys(marks || {});
  const right = seats.filter((s) => marks[s].right);
  const wrong = seats.length - right.length;
  if (!right.length) return { kind: "none", points: { [artist]: -1 }, wrong };
  if (!wrong) return { kind: "all", points: Object.fromEntries(right.map((s) => [s, 1])), wrong };
  const points = { [artist]: wrong };
  for (const s of right) points[s] = wrong;
  return { kind: "some", points, wrong };
}

export function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

/** Who takes part in judging the drawing now: its artist and its guessers still playing. */
export function judgingSeats(view) {
  const j = view?.judging;
  if (!j) return [];
  const left = new Set((view.players || []).filter((p) => p.left).map((p) => p.id));
  return [j.artist, ...j.order].filter((id) => !left.has(id));
}

/** Those here who have not accepted the marks yet (the drawing waits for nobody away). */
export function waitingToAccept(view) {
  const j = view?.judging;
  if (!j) return [];
  const away = new Set((view.players || []).filter((p) => p.online === false).map((p) => p.id));
  return judgingSeats(view).filter((id) => !away.has(id) && !(j.accepted || []).includes(id));
}

/** May `me` vote on dispute `d` now? A voter, or the host when nobody else can vote. */
export function mayVote(view, d, me) {
  if (!d || d.decided || d.voted.includes(me)) return false;
  return d.host_decides ? view.host === me : d.voters.includes(me);
}

/**
 * Bring `el`'s top into sight just under the sticky status bar, at any width. (dom.js's
 * bringIntoView leaves wide screens alone; but a laptop player who scrolled down to accept
 * the last drawing's marks met round 2 with its results scrolled off the top.)
 */
export function showTop(el) {
  if (!el || el.hidden || !el.isConnected) return;
  const bar = document.getElementById("status-bar");
  const barBottom = bar ? Math.max(0, bar.getBoundingClientRect().bottom) : 0;
  const top = el.getBoundingClientRect().top;
  if (top >= barBottom && top < window.innerHeight * 0.5) return; // already in sight
  const reduce = matchMedia("(prefers-reduced-motion: reduce)").matches;
  el.scrollIntoView({ block: "start", behavior: reduce ? "auto" : "smooth" });
}

export { keepFocus };

export { local } from "../../js/prefs.js"; // drafts kept across a reload
