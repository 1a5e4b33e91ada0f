// Boot: language, theme, the one connection, and the router between the two screens.
//   /            home (nickname, create, join by code, public rooms, recent matches)
//   /r/CODE      the room (lobby, then the game area)
//   /tv/CODE     the room's shared screen (a TV: no seat, what everyone may see)
//   /m/ID        a finished match's page (scores, recap, settings, replay)
// Screens get `app`, the small shared context below, and return {unmount()}.

import { Connection, ROOM_PATH, TV_PATH } from "./connection.js";
import { applyPatch } from "./patch.js";
import { label, replace, retranslate, setText, tx } from "./dom.js";
import { LANGUAGES, language, loadGameStrings, onLanguageChange, preferredLanguage, setLanguage, t } from "./i18n.js";
import { prefs } from "./prefs.js";
import * as home from "./home.js";
import * as room from "./room.js";
import * as tv from "./tv.js";
import * as matchPage from "./match_page.js";
import { setSoundOn, soundOn, useScreenSounds } from "./sound.js";

// Any id of URL-safe characters: the server says whether it is a kept match.
const MATCH_PATH = /^\/m\/([A-Za-z0-9_-]{1,64})\/?$/;
const MAX_CHAT_LINES = 200;

const main = document.getElementById("main");
const statusLine = document.getElementById("status-line");
const banner = document.getElementById("connection-banner");
const announcer = document.getElementById("announcer");
const alertRegion = document.getElementById("alert");

// The sticky status bar is 1–3 lines tall: whatever the browser scrolls into view (a focused
// field, a step) must land below it, not under it.
const statusBar = document.getElementById("status-bar");
new ResizeObserver(() => {
  document.documentElement.style.scrollPaddingTop = `${statusBar.offsetHeight + 8}px`;
}).observe(statusBar);

const listeners = new Map();
let gamesPromise = null;
let screen = null;

export const app = {
  conn: new Connection(),
  /** The latest `room` push of the room we are in (or were last in), and its chat. */
  push: null,
  chat: [],
  /** A message to show on the next screen (e.g. "the host removed you"). */
  flash: null,

  on(type, fn) {
    if (!listeners.has(type)) listeners.set(type, new Set());
    listeners.get(type).add(fn);
    return () => listeners.get(type).delete(fn);
  },
  emit(type, payload) {
    for (const fn of listeners.get(type) || []) fn(payload);
  },

  navigate(path, { replaceState = false } = {}) {
    if (location.pathname !== path) {
      if (replaceState) history.replaceState(null, "", path);
      else history.pushState(null, "", path);
    }
    route();
  },

  /** The one line at the top: what is happening and what *you* should do. */
  setStatus(key, params = null) {
    if (!key) {
      setText(statusLine, "");
      delete statusLine.dataset.i18n;
      statusLine.hidden = true;
      return;
    }
    tx(statusLine, key, params);
    statusLine.hidden = false;
  },

  /** Say something to screen readers (polite), e.g. "It's your turn". */
  announce(key, params = null) {
    setText(announcer, "");
    delete announcer.dataset.i18n;
    // A fresh text node each time so the same sentence twice is announced twice; kept as a
    // key, so a language switch says the last line again in the new language (retranslate).
    setTimeout(() => tx(announcer, key, params), 50);
  },

  /** Something went wrong that the player must hear about now. */
  alert(text) {
    setText(alertRegion, "");
    setTimeout(() => setText(alertRegion, text), 50);
  },

  /** Every game as GET /api/games lists it (fetched once): [{name, min_players, max_players,
   * settings_schema, defaults, static}], `static` being the game's data that never changes. */
  games() {
    if (!gamesPromise) {
      gamesPromise = fetch("/api/games")
        .then((r) => {
          if (!r.ok) throw new Error(`/api/games: HTTP ${r.status}`);
          return r.json();
        })
        .catch((err) => {
          gamesPromise = null;
          throw err;
        });
    }
    return gamesPromise;
  },
};

// --------------------------------------------------------------------------- pushes

// Blobs (large unchanging parts of a view, such as a Pintó drawing) arrive once per connection;
// keep every one of the current room, and hand game screens the whole set with each push.
let blobs = {};
let blobsRoom = null;

app.conn.on("room", (message) => {
  const current = app.push;
  const sameRoom = current && current.room.code === message.room.code;
  if (blobsRoom !== message.room.code) {
    blobs = {};
    blobsRoom = message.room.code;
  }
  if (message.blobs) Object.assign(blobs, message.blobs);
  message.blobs = blobs;
  if (sameRoom && typeof message.version === "number" && message.version < current.version) return;
  app.push = message;
  if (Array.isArray(message.chat)) app.chat = message.chat.slice(-MAX_CHAT_LINES);
  else if (!sameRoom) app.chat = [];
  app.emit("room", message);
  if (Array.isArray(message.chat)) app.emit("chat_history", app.chat);
});

// After the first whole picture, the server sends what changed: a `patch` from the picture of
// the push numbered `base` (docs/protocol.md). One that does not fit what this tab holds (a
// push went missing) is dropped, and the whole picture asked for again.
let syncing = false;

function resync() {
  if (syncing) return;
  syncing = true;
  app.conn
    .request("sync")
    .catch(() => {}) // offline or out of the room: the next join brings the whole picture
    .finally(() => {
      syncing = false;
    });
}

app.conn.on("patch", (message) => {
  const current = app.push;
  if (!current || current.room.code !== message.code) return; // a late one from the last room
  if (message.version <= current.version) return; // old news
  if (message.base !== current.version) {
    resync();
    return;
  }
  let room;
  let view;
  try {
    room = applyPatch(current.room, message.room);
    view = applyPatch(current.view, message.view);
  } catch (err) {
    console.warn("a patch that does not fit", err);
    resync();
    return;
  }
  const whole = { type: "room", version: message.version, room, view, events: message.events };
  app.conn.emit("room", { ...whole, chat: null, blobs: message.blobs || null });
});

app.conn.on("chat", (message) => {
  app.chat.push(message.line);
  if (app.chat.length > MAX_CHAT_LINES) app.chat.splice(0, app.chat.length - MAX_CHAT_LINES);
  app.emit("chat_line", message.line);
});

// Someone here reacted (reactions.js): shown for a moment, never kept.
app.conn.on("reaction", (message) => app.emit("reaction", message));

app.conn.on("notice", (notice) => {
  if (notice.code === "room.closed" && app.conn.screen) {
    app.emit("screen_closed", notice); // a shared screen says so where it is (tv.js)
    return;
  }
  if (notice.code === "room.kicked" || notice.code === "room.voted_out" || notice.code === "room.closed") {
    app.conn.forgetRoom(app.conn.room?.code);
    app.push = null;
    app.chat = [];
    app.flash = notice;
    app.alert(t(`notices.${notice.code}`, notice.params || {}, notice.message));
    app.navigate("/");
    return;
  }
  app.emit("notice", notice);
  app.alert(t(`notices.${notice.code}`, notice.params || {}, notice.message));
});

// --------------------------------------------------------------------------- connection banner

let bannerTimer = null;
// The server said it is restarting: the banner says so (rather than a bare "Reconnecting…")
// until we are back.
let restarting = false;
app.conn.on("status", (status) => {
  clearTimeout(bannerTimer);
  if (status === "online") {
    banner.hidden = true;
    restarting = false;
    document.body.classList.remove("offline");
    return;
  }
  document.body.classList.add("offline");
  if (restarting) return; // the restart's own words stay up
  // Do not flash the banner for a blip that heals by itself at once.
  bannerTimer = setTimeout(() => {
    tx(banner, status === "reconnecting" ? "connection.reconnecting" : "connection.connecting");
    banner.hidden = false;
  }, 600);
});
app.conn.on("notice", (notice) => {
  if (notice.code !== "server.restarting") return;
  restarting = true;
  clearTimeout(bannerTimer);
  tx(banner, "notices.server.restarting");
  banner.hidden = false;
});

// --------------------------------------------------------------------------- router

function route() {
  const match = location.pathname.match(ROOM_PATH);
  const tvMatch = location.pathname.match(TV_PATH);
  const matchMatch = location.pathname.match(MATCH_PATH);
  if (screen) screen.unmount();
  screen = null;
  replace(main);
  app.setStatus(null);
  // A new screen starts at its top (the browser keeps the old one's scroll on a same-page
  // navigation, which hid the room's title after a Join far down the home page).
  window.scrollTo(0, 0);
  if (match) screen = room.mount(main, app, { code: match[1].toUpperCase() });
  else if (tvMatch) screen = tv.mount(main, app, { code: tvMatch[1].toUpperCase() });
  else if (matchMatch) screen = matchPage.mount(main, app, { id: matchMatch[1] });
  else {
    // Any other path is home: say so in the address bar too (a mistyped /r/ab stays a lie).
    if (location.pathname !== "/") history.replaceState(null, "", "/");
    screen = home.mount(main, app);
  }
}

window.addEventListener("popstate", route);

document.getElementById("brand").addEventListener("click", (event) => {
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  app.navigate("/");
});

// --------------------------------------------------------------------------- language, theme

function setupLanguageSwitcher() {
  const select = document.getElementById("language");
  const options = LANGUAGES.map(({ code, name, short }) => {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    select.append(option);
    return { option, name, short };
  });
  // On a phone the menu shows the short code (the full names are in the list the tap opens on
  // a desktop; a phone's picker shows the codes, which every player recognises as theirs).
  const narrow = matchMedia("(max-width: 480px)");
  const paintNames = () => {
    for (const { option, name, short } of options) {
      option.textContent = narrow.matches ? short : name;
      option.label = narrow.matches ? short : name;
      option.title = name;
    }
  };
  paintNames();
  narrow.addEventListener("change", paintNames);
  select.value = language();
  select.addEventListener("change", () => setLanguage(select.value));
  onLanguageChange((lang) => {
    select.value = lang;
    retranslate(document);
    document.title = t("app.title");
  });
}

function effectiveTheme() {
  const chosen = document.documentElement.dataset.theme;
  if (chosen === "light" || chosen === "dark") return chosen;
  return matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

function setupThemeToggle() {
  const button = document.getElementById("theme-toggle");
  const paint = () => {
    const dark = effectiveTheme() === "dark";
    button.setAttribute("aria-pressed", String(dark));
    label(button, "app.dark_theme");
  };
  button.addEventListener("click", () => {
    const next = effectiveTheme() === "dark" ? "light" : "dark";
    document.documentElement.dataset.theme = next;
    prefs.set("theme", next);
    paint();
  });
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", paint);
  paint();
}

function setupSoundToggle() {
  // Off by default on a seat (sound.js says why); the shared screen has its own, on.
  if (TV_PATH.test(location.pathname)) useScreenSounds();
  const button = document.getElementById("sound-toggle");
  const paint = () => {
    button.setAttribute("aria-pressed", String(soundOn()));
    label(button, "app.sounds");
  };
  button.addEventListener("click", () => {
    setSoundOn(!soundOn());
    paint();
  });
  paint();
}

/** Each game's own strings (its name, description, settings labels, error sentences), before
 * the first screen: the home page and the lobby name games whose screens are not loaded. */
async function loadEveryGamesStrings() {
  try {
    const games = await app.games();
    await Promise.all(games.filter((g) => g.client?.strings !== false).map((g) => loadGameStrings(g.name)));
  } catch (err) {
    console.error("could not load the games' strings", err); // the screens load their own
  }
}

async function boot() {
  const gamesStrings = loadEveryGamesStrings(); // alongside the language's own file
  try {
    await setLanguage(preferredLanguage());
  } catch (err) {
    console.error("could not load the translations", err);
  }
  await gamesStrings;
  setupLanguageSwitcher();
  setupThemeToggle();
  setupSoundToggle();
  retranslate(document);
  document.title = t("app.title");
  app.conn.connect();
  route();
}

boot();
