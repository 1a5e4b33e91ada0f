// The room's shared screen (/tv/CODE, "Show on a TV" in the lobby; issue 29): a TV, a
// projector, a laptop on HDMI, read from three metres. It sends `open_screen` and takes no
// seat: the server builds it the picture a spectator sees, so no secret can reach it
// (docs/protocol.md, "A shared screen"). It sends nothing else.
//
// - The lobby: the room's code, huge, and a QR code to join (tv_lobby.js).
// - A match: the game's own screen module, mounted with `ctx.screen` (no seat: `me` is null,
//   nothing can be sent), in a TV layout (css/tv.css): the same drawing code as the phones,
//   so the TV shows exactly what a spectator's phone would, larger. The invitation shrinks to
//   a corner.
// - The stage is laid out at 1280×720 and scaled to the screen (1920×1080: ×1.5).
// - Sounds on by default (sound.js), once the browser allows them: a TV page asks for one
//   click ("Start the screen", which also goes full screen); reactions float along its foot.
// - It reconnects by itself, and opens the screen again (also when its room moved to another
//   server: the socket is closed with 1012).

import { setSeats } from "./avatar.js";
import { gameName, h, ht, replace, showError, tx } from "./dom.js";
import { setGameInPlay } from "./i18n.js";
import { screenFor, viewerContext } from "./games/index.js";
import { createReactionLayer } from "./reaction_layer.js";
import { audioAllowed, createAlerts, setVolume, useScreenSounds, volume, whenAudioAllowed } from "./sound.js";
import { createTvLobby, joinLink, qrImage } from "./tv_lobby.js";

const STAGE_WIDTH = 1280;
const STAGE_HEIGHT = 720;

export function mount(main, app, { code }) {
  useScreenSounds();
  document.body.classList.add("tv-mode");
  const cleanups = [];
  let destroyed = false;
  let game = null; // {name, handle, element}
  let gameLoading = null;
  let alerts = null;
  let lastStatus = null;

  // ------------------------------------------------------------------ the frame
  const status = h("p", { class: "tv-status", id: "tv-status", "aria-live": "polite" });
  const title = h("h1", { class: "tv-title", id: "tv-title" });
  const corner = h("div", { class: "tv-corner", id: "tv-corner", hidden: true });
  const head = h("header", { class: "tv-head" }, h("div", { class: "tv-head-text" }, title, status), corner);
  const body = h("div", { class: "tv-body", id: "tv-body" });
  const stage = h("div", { class: "tv-stage", id: "tv-stage" }, head, body);
  const lobby = createTvLobby();

  // The header stays (language, sounds: the screen's own switch, on by default; theme).
  const volumeInput = h("input", { type: "range", min: 0, max: 100, step: 5, id: "tv-volume", class: "tv-volume" });
  volumeInput.value = String(Math.round(volume() * 100));
  const start = h(
    "button",
    { type: "button", class: "primary tv-start", id: "tv-start", hidden: audioAllowed() },
    h("span", { class: "tv-start-icon", "aria-hidden": "true" }, "▶"),
    h("span", {}, ht("strong", {}, "tv.start"), ht("span", { class: "tv-start-hint" }, "tv.start_hint")),
  );
  const volumeBox = h("div", { class: "tv-volume-box" }, ht("label", { for: "tv-volume" }, "tv.volume"), volumeInput);
  const controls = h("div", { class: "tv-controls", id: "tv-controls" }, start, volumeBox);
  const root = h("div", { class: "tv", id: "tv" }, stage, controls);
  replace(main, root);

  volumeInput.addEventListener("input", () => setVolume(Number(volumeInput.value) / 100));
  // One click lets the page play sounds (the browser's rule) and fills the screen.
  start.addEventListener("click", () => {
    document.documentElement.requestFullscreen?.().catch(() => {});
    start.hidden = true;
  });
  // Any other gesture allowed the sounds too: the button goes (after the click it may be
  // the target of, so that one still fills the screen).
  cleanups.push(whenAudioAllowed(() => setTimeout(() => (start.hidden = true), 400)));

  // The stage is drawn at 1280×720 and scaled to fill the screen under the header.
  const topbar = document.querySelector(".topbar");
  function fit() {
    const high = window.innerHeight - (topbar?.offsetHeight ?? 0);
    const zoom = Math.min(window.innerWidth / STAGE_WIDTH, high / STAGE_HEIGHT);
    root.style.setProperty("--tv-zoom", String(Math.max(0.5, zoom)));
    // The reactions float over the whole page, outside the stage: the same scale.
    document.documentElement.style.setProperty("--tv-zoom-page", String(Math.max(0.5, zoom)));
  }
  window.addEventListener("resize", fit);
  cleanups.push(() => window.removeEventListener("resize", fit));
  fit();

  const reactions = createReactionLayer(app, { screen: true });
  cleanups.push(() => reactions.destroy());

  // ------------------------------------------------------------------ opening
  function showProblem(error) {
    dropGame();
    corner.hidden = true;
    tx(title, "tv.title", { code });
    const message = h("p", { class: "problem" });
    showError(message, error);
    const again = ht("button", { type: "button", class: "primary", id: "tv-again" }, "tv.try_again");
    again.addEventListener("click", open);
    replace(body, h("section", { class: "tv-problem" }, ht("h1", {}, "tv.cannot_open", { code }), message, again));
  }

  async function open() {
    tx(status, "tv.opening", { code });
    replace(body);
    app.conn.room = null; // a screen is in no seat: after a reconnection, it opens again
    try {
      await app.conn.request("open_screen", { code });
      if (destroyed) return;
      app.conn.screen = { code }; // from now on, every new socket opens it again
      if (app.push?.room?.code === code) render(app.push);
    } catch (error) {
      if (!destroyed) showProblem(error);
    }
  }
  cleanups.push(
    app.conn.on("screen_failed", ({ code: failed, error }) => {
      if (failed === code && !String(error?.code || "").startsWith("connection.")) showProblem(error);
    }),
  );

  // ------------------------------------------------------------------ rendering
  function setStatus(key, params = null) {
    lastStatus = key ? [key, params] : null;
    status.hidden = !key;
    if (key) tx(status, key, params);
  }

  function ctxFor(staticData) {
    return viewerContext({
      staticData,
      now: () => app.conn.serverNow(),
      setStatus,
      announce: (key, params) => app.announce(key, params),
      message: "A shared screen only shows the room.",
    });
  }

  function paintCorner(room) {
    if (corner.dataset.code === room.code) return;
    corner.dataset.code = room.code;
    replace(
      corner,
      qrImage(room.code, { width: 96, height: 96 }),
      h("div", { class: "tv-corner-words" }, ht("span", { class: "tv-corner-how" }, "tv.join_short"), h("strong", { class: "tv-corner-link" }, joinLink(room.code))),
    );
  }

  async function showGame(push) {
    const name = push.room.game;
    if (game && game.name === name) {
      game.handle.update(push);
      alerts?.update(push);
      return;
    }
    if (gameLoading) return; // the newest push is rendered when loading ends
    replace(body);
    gameLoading = Promise.all([screenFor(name, app.games()), staticDataOf(name)]);
    const [module, staticData] = await gameLoading;
    gameLoading = null;
    if (destroyed || !app.push || app.push.room.status === "lobby") return;
    const element = h("div", { class: "game-screen tv-game", dataset: { game: name } });
    replace(body, element);
    alerts = createAlerts(() => app.conn.serverNow(), { soundEvents: module.soundEvents });
    game = { name, element, handle: module.mount(element, ctxFor(staticData)) };
    game.handle.update(app.push);
    alerts.update(app.push, { quiet: true }); // what was there before the screen came is no news
  }

  async function staticDataOf(name) {
    try {
      return (await app.games()).find((g) => g.name === name)?.static ?? {};
    } catch {
      return {};
    }
  }

  function dropGame() {
    alerts?.stop();
    alerts = null;
    if (!game) return;
    try {
      game.handle.unmount();
    } catch (err) {
      console.error(err);
    }
    game = null;
  }

  function render(push) {
    if (destroyed || push.room.code !== code) return;
    setSeats(push.room.code, push.room.seats, push.room.former_colours);
    setGameInPlay(push.room.game);
    replace(title, gameName("span", {}, push.room.game), " ", h("span", { class: "code" }, push.room.code));
    root.dataset.status = push.room.status;
    if (push.room.status === "lobby") {
      dropGame();
      corner.hidden = true;
      setStatus(null);
      if (body.firstChild !== lobby.el) replace(body, lobby.el);
      lobby.update(push);
      return;
    }
    corner.hidden = false;
    paintCorner(push.room);
    showGame(push);
  }
  cleanups.push(app.on("room", render));
  // A reconnection asks for the whole picture again: keep the status line meanwhile.
  cleanups.push(app.conn.on("screen_opened", () => lastStatus && setStatus(...lastStatus)));
  // The room closed (nobody left in it for a long while): say so, and offer to try again.
  cleanups.push(
    app.on("screen_closed", () => {
      app.conn.screen = null;
      showProblem({ code: "room.closed", message: "The room was closed.", params: {} });
    }),
  );

  open();

  return {
    unmount() {
      destroyed = true;
      app.conn.screen = null;
      document.body.classList.remove("tv-mode");
      document.documentElement.style.removeProperty("--tv-zoom-page");
      setGameInPlay(null);
      dropGame();
      for (const fn of cleanups) fn();
    },
  };
}
