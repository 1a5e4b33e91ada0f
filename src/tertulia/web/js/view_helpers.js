// Small readings of a push that every screen needs (issue 28.4: once, not once per game): a
// clock's "m:ss", the seconds left to a deadline and the countdown painted from them, a
// seat's nickname, and keeping the focus where it was while part of a screen is drawn again.

/** "1:05" from a number of seconds (never below 0:00; a part second counts as a whole). */
export function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds || 0));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** Whole seconds left until `deadline`, on the server's clock `now` (0 once it has passed). */
export function secondsLeft(deadline, now) {
  return Math.max(0, Math.ceil(deadline - now));
}

/** A countdown to `deadline`: `{left, text}` ("1:05"), on the server's clock `now`. */
export function countdown(deadline, now) {
  const left = secondsLeft(deadline, now);
  return { left, text: clockText(left) };
}

// A countdown turns "urgent" (red, pulsing: the .countdown.urgent rule) in its last seconds.
const URGENT_SECONDS = 10;

/** Paint a countdown to `deadline` on the server's clock `now` into `timer` (the element
 * with class "countdown"): its "m:ss" into `text` (the timer itself unless it also holds a
 * label), and `box` (the timer unless it sits in a box with its label) hidden while there
 * is no deadline. Computed from the server's deadline every tick, never from when a push
 * came. Returns the whole seconds left, or null with no deadline. */
export function paintCountdown(timer, deadline, now, { text = timer, box = timer } = {}) {
  if (typeof deadline !== "number") {
    box.hidden = true;
    return null;
  }
  const { left, text: shown } = countdown(deadline, now);
  box.hidden = false;
  text.textContent = shown;
  timer.classList.toggle("urgent", left <= URGENT_SECONDS);
  return left;
}

/** The nickname of seat `id`: from the game's view first, else the room's seats; "?" when
 * neither knows it (a seat gone from both). */
export function nicknameOf(push, id) {
  const fromView = push?.view?.players?.find((p) => (p.id ?? p.seat) === id);
  return fromView?.nickname ?? push?.room?.seats?.find((s) => s.id === id)?.nickname ?? "?";
}

/**
 * Run `fn` (which draws part of `root` again) and give the focus back to the element with the
 * same data-focus key, or to the first of `candidates(key)` that is there (a tile that moved
 * from the rack to the clue keeps the focus under its new key).
 */
export function keepFocus(root, fn, candidates = (key) => [key]) {
  const active = document.activeElement;
  const key = active && root.contains(active) ? (active.dataset?.focus ?? null) : null;
  fn();
  if (!key) return;
  const now = document.activeElement;
  if (now && now.isConnected && now.dataset?.focus === key) return;
  for (const candidate of candidates(key)) {
    const el = root.querySelector(`[data-focus="${CSS.escape(candidate)}"]`);
    if (el && !el.disabled && !el.closest("[hidden]")) {
      el.focus({ preventScroll: true });
      return;
    }
  }
}
