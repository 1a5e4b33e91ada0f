// Game screens: the mount contract, and which module draws which game.
//
// A game screen is an ES module under js/games/ that exports
//
//     mount(element, ctx) -> { update(push), unmount() }
//
// - `element` is an empty <div> the screen owns entirely (the room screen keeps the header,
//   the status line, the chat and the rematch button around it).
// - `ctx` gives the screen everything it may use:
//     send(action, {background}) -> Promise: sends {"type": "act", "action": action};
//                              resolves with the ack's data, rejects with {code, message,
//                              params}. `background: true` for what the page sends by itself
//                              (a draft kept while typing): not a step the player took
//     check(action)         -> Promise: asks whether `action` would be accepted now (a dry run
//                              on the server: resolves, or rejects with the refusal); for live
//                              "why not" hints while the player types
//     t(key, params)        translate (i18n keys "game.<name>.…", kept in the screen's own
//                           files i18n/games/<name>/<lang>.json); tError(error) for refusals
//     me                    this tab's public player id
//     now()                 the server's clock in seconds: count down to view deadlines
//                           with it, never with a timer started when the push arrived
//     setStatus(key, params) the one line at the top ("Your turn: place your marker")
//     announce(key, params) say it in the aria-live region (your turn, reveal results)
//     avatar(id, nickname, {size, offline}) / identity(id, nickname): colour + initial + shape
//     setChatAllowed(bool, reasonKey?) grey out the chat box, saying why (an i18n key, e.g.
//                           Pitacor's "the clue giver can't chat until the reveal")
//     staticData            the game's public data that never changes (its `static` in
//                           GET /api/games, e.g. Pitacor's board colours; {} without it): no
//                           screen fetches the games list again
// - The module may also export `quietToDos`: the "carry on" to-dos everyone gets while looking
//   at a reveal (Haiclue's "ready", Pitacor's "next_round"), which make no beep (sound.js);
//   and `soundEvents`: event kind → sound ("clue", "land", "reveal"), the table's moments
//   the seats (with sounds on) and the shared screen hear; the end of a match is a "win".
// - `ctx.screen` is true on the room's shared screen (tv.js): the same module draws the
//   picture a spectator sees, `me` is null, `send` refuses; a TV layout (css/tv.css) sizes it.
// - `update(push)` is called right after mount and then with every `room` push while
//   room.status is "playing" or "ended": push = {version, room, view, events, blobs}, where
//   `blobs` holds every blob of this room received so far (the view refers to them by key). Render the
//   latest push; never patch state. `view` is this seat's own view from the game's view().
//   The server may send a seat only what changed (a "patch" push, docs/protocol.md); the page
//   applies it before calling update, so a screen always gets the whole latest push.
// - `unmount()` removes listeners and timers; the room screen empties the element itself.
// - Sounds are the room's (sound.js), for every game alike: a beep when `view.you.to_do` turns
//   to something new that this tab's own action did not cause (not for the screen's
//   `quietToDos`, above), two lower beeps ten seconds before `view.deadline` while there is a
//   to-do and the clock was long enough for that to be news. A view that names those gets
//   them for free.
//
// A game is a folder, its browser side too: everything below sits in its Python package's
// web/ folder (src/tertulia/games/<name>/web/), served at /static/games/<name>/, found by
// the game's name at the same paths for every game (no list to edit here):
//
//     screen.js                 its screen (this contract); its parts beside it (./board.js)
//     style.css                 its stylesheet, added to the page before the screen mounts
//     i18n/<lang>.json          its strings: name, description, settings labels, error
//                               sentences (games.<name>.errors.<code>), the screen's own
//     i18n/howto.<lang>.json    its "how to play" card (js/howto.js), img/howto/*.svg its pictures
//
// A screen imports the platform's modules by their path from there ("../../js/dom.js").
//
// GET /api/games says which of those each game has (`client: {screen, stylesheet, strings}`),
// so the page asks for no file that is not there. A game with no screen module (or one that
// fails to load) gets the generic view (status, scoreboard, podium).

import { avatar, identity } from "../avatar.js";
import { loadGameStrings, t, tError } from "../i18n.js";
import * as generic from "./generic.js";

const STYLESHEET_WAIT_MS = 3000; // past this, mount unstyled rather than show nothing

/**
 * Load the screen of `game` (the generic one when there is none or it fails to load), with
 * its stylesheet and strings. `games`: the list of /api/games (or a promise of it), to know
 * which of its files the game has; without it, every file is tried.
 */
export async function screenFor(game, games = null) {
  const files = await clientFiles(game, games);
  const strings = files.strings ? loadGameStrings(game).catch((err) => console.error(err)) : null;
  if (!files.screen) {
    await strings;
    return generic;
  }
  try {
    const [module] = await Promise.all([import(`/static/games/${game}/screen.js`), strings, files.stylesheet ? addStylesheet(game) : null]);
    if (typeof module.mount !== "function") throw new Error(`${game}: no mount()`);
    return module;
  } catch (err) {
    console.error(`could not load the screen of ${game}; showing the generic one`, err);
    return generic;
  }
}

async function clientFiles(game, games) {
  const every = { screen: true, stylesheet: true, strings: true };
  try {
    const listed = (await games)?.find((g) => g.name === game);
    return listed?.client ?? every;
  } catch {
    return every;
  }
}

/** Add the game's style.css to the page once; resolves when it has loaded (or failed). */
function addStylesheet(game) {
  const href = `/static/games/${game}/style.css`;
  if (document.querySelector(`link[data-game-css="${game}"]`)) return null;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  link.dataset.gameCss = game;
  const loaded = new Promise((resolve) => {
    link.addEventListener("load", resolve, { once: true });
    link.addEventListener("error", resolve, { once: true });
    setTimeout(resolve, STYLESHEET_WAIT_MS);
  });
  document.head.append(link);
  return loaded;
}

/**
 * The `ctx` of a screen that shows a room from no seat: the shared screen (tv.js) and a
 * match page's replay (match_replay.js). `me` is null and `screen` true; nothing can be
 * sent (`send` and `check` refuse with `message`), and there is no chat to allow.
 */
export function viewerContext({ staticData, now, setStatus, announce, message }) {
  const readOnly = () => Promise.reject({ code: "screen.read_only", message, params: {} });
  return { staticData, screen: true, send: readOnly, check: readOnly, t, tError, me: null, now, setStatus, announce, avatar, identity, setChatAllowed: () => {} };
}
