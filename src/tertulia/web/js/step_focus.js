// When a game moves on to a new step (its phase, round, what you have to do, the clue being
// read), a keyboard player's focus goes to the new step's first control: without this it
// dropped to the page's body with the controls it was on, and a Haiclue guesser pressed Tab
// eight times to get back to the cards (issue 30). A game may name that control with
// `data-step-focus`; otherwise it is the first one of the game's screen that can be used.
//
// Only for the keyboard: a tap moves no focus (a text box focused under a finger would open
// the phone's keyboard), and focus in the chat or the header is never taken away.

const CONTROLS = 'button, input:not([type=hidden]), select, textarea, a[href], [tabindex="0"]';

// Moving around with keys (Tab, arrows, Enter or Space on a control) makes a keyboard player;
// typing in a text box does not (a phone's on-screen keyboard types too).
const MOVES = new Set(["Tab", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown"]);
const TYPING = 'input:not([type=checkbox]):not([type=radio]):not([type=button]):not([type=submit]), textarea, [contenteditable="true"]';
let keyboardLast = false;
document.addEventListener("keydown", (event) => {
  if (event.metaKey || event.ctrlKey || event.altKey) return;
  const typing = event.target instanceof Element && event.target.matches(TYPING);
  if (MOVES.has(event.key) && (event.key === "Tab" || !typing)) keyboardLast = true;
  else if ((event.key === "Enter" || event.key === " ") && !typing) keyboardLast = true;
}, true);
document.addEventListener("pointerdown", () => {
  keyboardLast = false;
}, true);

function usable(el) {
  if (el.disabled || el.closest("[hidden], [inert]")) return false;
  const style = getComputedStyle(el);
  if (style.visibility !== "visible" || style.display === "none") return false;
  const box = el.getBoundingClientRect();
  return box.width > 0 && box.height > 0;
}

/** The control a new step starts on, inside `root`. */
export function firstControl(root) {
  const named = [...root.querySelectorAll("[data-step-focus]")].find(usable);
  if (named) return named;
  return [...root.querySelectorAll(CONTROLS)].find(usable) || null;
}

/** Follows one game screen's steps; `update(view)` after each render. */
export function createStepFocus(root) {
  let last = null;
  return {
    update(view) {
      const key = JSON.stringify([view?.phase, view?.round, view?.you?.to_do ?? null, view?.reading?.index ?? null, view?.judged ?? null]);
      if (key === last) return;
      const first = last === null;
      last = key;
      if (first || !keyboardLast) return;
      // After the screen has drawn this push (its new controls are in place).
      requestAnimationFrame(() => {
        const active = document.activeElement;
        const lost = !active || active === document.body || !active.isConnected || !usable(active);
        if (!lost && !root.contains(active)) return; // the chat, the header: leave them be
        const target = firstControl(root);
        if (target && target !== active) target.focus();
      });
    },
  };
}
