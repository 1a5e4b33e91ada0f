// The room screen (/r/CODE): join (room_door.js: asking for a nickname if we have none), then
// render the latest `room` push: the lobby while room.status is "lobby", the game area while
// "playing" or "ended" (with the host's Rematch button), and the chat beside either. Around the
// game: quick reactions (reactions.js, reaction_layer.js), sounds (sound.js), and for a first-timer
// the rules card's offer and a line of what to do at each new step (teach.js).

import { avatar, identity, setSeats } from "./avatar.js";
import { confirmDialog, gameName, h, ht, replace, showError } from "./dom.js";
import { loadGameStrings, setGameInPlay, t, tError } from "./i18n.js";
import { prefs } from "./prefs.js";
import { createChat } from "./chat.js";
import { createLobby, nicknameOf } from "./lobby.js";
import { screenFor } from "./games/index.js";
import { createAlerts } from "./sound.js";
import { notePlayed } from "./played.js";
import { createRoomHowto } from "./room_howto.js";
import { createReactionBar } from "./reactions.js";
import { createReactionLayer } from "./reaction_layer.js";
import { createTeacher } from "./teach.js";
import { createStandIns } from "./stand_ins.js";
import { createStepFocus } from "./step_focus.js";
import { setMatchPage } from "./games/_recap.js";
import { createRoomDoor } from "./room_door.js";
import { createVotes } from "./votes.js";

export function mount(main, app, { code }) {
  const cleanups = [];
  let destroyed = false;
  let lobby = null;
  let chat = null;
  let game = null; // {module, handle, name, element}
  let alerts = null; // the game's turn and hurry sounds (sound.js)
  let gameLoading = null;
  let previous = null; // the push rendered before, to announce what changed

  const screen = h("div", { class: "room-screen" });
  replace(main, screen);
  // A first-timer's line of what to do, right above the game (the sticky status bar stays at
  // two lines on a phone, issue 19.6).
  const tip = h("p", { class: "status-tip", id: "status-tip", hidden: true });
  const teacher = createTeacher(tip);
  const reactionBar = createReactionBar(app);
  const reactionLayer = createReactionLayer(app);

  // ------------------------------------------------------------------ joining
  const door = createRoomDoor(app, screen, code, {
    gone: () => destroyed,
    joined: () => app.push?.room?.code === code && render(app.push),
  });

  // ------------------------------------------------------------------ the room itself
  const title = h("h1", { class: "room-title" });
  const leaveButton = ht("button", { type: "button", class: "ghost", id: "leave-room" }, "room.leave");
  const body = h("div", { class: "room-body" });
  const rematchBox = h("div", { class: "rematch-box", hidden: true });
  // The podium's way to the match's own page (/m/<id>), which outlives the room.
  const pageLink = ht("a", { class: "button-link match-page-link", id: "match-page-link", hidden: true }, "match.open_page");
  const votes = createVotes(app); // votes to remove, in the lobby and in a match
  const rematchError = h("p", { class: "field-error", hidden: true });
  const rematchButton = ht("button", { type: "button", class: "primary big", id: "rematch" }, "room.rematch");
  rematchBox.append(rematchButton, rematchError);
  const gameHost = h("div", { class: "game-area", id: "game-area" });
  const standIns = createStandIns(app); // "play for them", above the game
  let layoutReady = false;
  const roomHowto = createRoomHowto(app); // the rules card's button, and a first-timer's offer
  const offerSlot = roomHowto.offerSlot;

  rematchButton.addEventListener("click", () =>
    app.conn.request("rematch").then(() => showError(rematchError, null), (error) => showError(rematchError, error)),
  );

  leaveButton.addEventListener("click", async () => {
    const playing = app.push?.room?.status === "playing";
    const ok = await confirmDialog(playing ? "room.leave_confirm_playing" : "room.leave_confirm", {}, "room.leave");
    if (!ok) return;
    try {
      await app.conn.request("leave_room");
    } catch (error) {
      if (error.code !== "room.not_in") {
        app.alert(tError(error));
        return;
      }
    }
    app.conn.forgetRoom(code);
    app.push = null;
    app.chat = [];
    app.navigate("/");
  });

  function buildLayout() {
    if (layoutReady) return;
    layoutReady = true;
    chat?.destroy(); // a layout built before (then replaced by a problem) leaves its button
    chat = createChat(app);
    chat.setPeople?.(app.push?.room);
    replace(
      screen,
      h(
        "div",
        { class: "room-head" },
        title,
        h("div", { class: "room-head-tools" }, roomHowto.button, leaveButton),
      ),
      h("div", { class: "room-columns" }, body, chat.el),
    );
    // On a phone the chat button lives in the sticky status bar (hidden on a wide screen);
    // the reactions beside it (shown during a match).
    document.getElementById("status-bar")?.append(reactionBar.el, chat.toggle);
  }

  function paintTitle(room) {
    replace(
      title,
      gameName("span", {}, room.game),
      " ",
      h("span", { class: "code", "aria-hidden": "true" }, room.code),
      ht("span", { class: "visually-hidden" }, "room.code_spoken", { code: room.code.split("").join(" ") }),
    );
  }

  function announceChanges(push) {
    const me = app.conn.player;
    const before = previous?.room;
    const now = push.room;
    if (!before || before.code !== now.code) return;
    const oldIds = new Set(before.seats.map((s) => s.id));
    const newIds = new Set(now.seats.map((s) => s.id));
    for (const seat of now.seats) if (!oldIds.has(seat.id)) app.announce("room.joined_announce", { name: seat.nickname });
    for (const seat of before.seats) if (!newIds.has(seat.id)) app.announce("room.left_announce", { name: seat.nickname });
    if (before.host !== now.host && now.host === me) app.announce("room.you_are_host");
    if (before.status !== now.status) app.announce(`room.status_changed.${now.status}`);
  }

  /** The game screen's `ctx` (the contract: games/index.js), plus `staticData`: the game's
   * public data that never changes (its `static` in GET /api/games, such as Pitacor's board
   * colours; {} if it could not be had), so no screen fetches the games list again. */
  function ctxFor(staticData) {
    return {
      staticData,
      screen: false,
      send: (action, { background = false } = {}) => {
        if (background) return app.conn.act(action);
        alerts?.acted();
        const result = app.conn.act(action);
        result.then(() => teacher.acted(), () => {});
        return result;
      },
      // Would `action` be accepted now? Resolves, or rejects with the refusal; changes nothing.
      check: (action) => app.conn.request("check", { action }),
      t,
      tError,
      me: app.conn.player,
      now: () => app.conn.serverNow(),
      setStatus: (key, params) => app.setStatus(key, params),
      announce: (key, params) => app.announce(key, params),
      avatar,
      identity,
      setChatAllowed: (allowed, reasonKey) => chat?.setAllowed(allowed, reasonKey),
    };
  }

  /** `started`: this page saw the lobby just before (the match began under its eyes). */
  async function showGame(push, started) {
    const name = push.room.game;
    if (game && game.name === name) {
      game.handle.update(push);
      game.focus.update(push.view);
      alerts?.update(push);
      teacher.update(push);
      return;
    }
    if (gameLoading) return; // the newest push is rendered when loading ends
    dropLobby();
    replace(body, offerSlot, votes.el, rematchBox, pageLink, standIns.el, tip, gameHost, votes.start); // the way on first: the podium is long
    gameLoading = Promise.all([screenFor(name, app.games()), staticDataOf(name)]);
    const [module, staticData] = await gameLoading;
    gameLoading = null;
    if (destroyed || !app.push || app.push.room.status === "lobby") return;
    replace(gameHost);
    const element = h("div", { class: "game-screen" });
    gameHost.append(element);
    alerts = createAlerts(() => app.conn.serverNow(), { quietToDos: module.quietToDos, soundEvents: module.soundEvents });
    const handle = module.mount(element, ctxFor(staticData));
    game = { name, handle, element, focus: createStepFocus(element), quiet: module.quietToDos };
    handle.update(app.push);
    game.focus.update(app.push.view);
    // A to-do already there when this page came (a reload, a rejoin) is no news to beep.
    alerts.update(app.push, { quiet: !started });
    teacher.update(app.push);
  }

  /** `static` of game `name` from the games list app.js fetched once ({} without it). */
  async function staticDataOf(name) {
    try {
      const games = await app.games();
      return games.find((g) => g.name === name)?.static ?? {};
    } catch (err) {
      console.error(`could not load the data of ${name}`, err);
      return {};
    }
  }

  function dropGame() {
    alerts?.stop();
    alerts = null;
    teacher.stop();
    if (!game) return;
    try {
      game.handle.unmount();
    } catch (err) {
      console.error(err);
    }
    game = null;
    replace(gameHost);
  }

  function dropLobby() {
    if (!lobby) return;
    lobby.destroy();
    lobby = null;
  }

  function render(push) {
    if (destroyed || push.room.code !== code) return;
    setSeats(push.room.code, push.room.seats, push.room.former_colours); // before any avatar
    setGameInPlay(push.room.game); // its own sentences for its error codes
    buildLayout();
    announceChanges(push);
    const started = previous?.room?.status === "lobby";
    // A match of this game seen to its end while seated: played (sent with every join from
    // now on, as the server counts it for this seat).
    const mySeat = push.room.seats.find((s) => s.id === app.conn.player);
    if (previous?.room?.status === "playing" && push.room.status === "ended" && mySeat && !mySeat.spectator) notePlayed(push.room.game);
    previous = push;
    chat.setPeople?.(push.room);
    // Reactions during a match and at its podium, where this seat may chat.
    const todo = push.room.status === "playing" ? push.view?.you?.to_do : null;
    reactionBar.setAllowed(push.room.status !== "lobby" && push.view?.you?.may_chat !== false, {
      busy: Boolean(todo) && !(game?.quiet || []).includes(todo),
    });
    paintTitle(push.room);
    roomHowto.update(push.room);
    const room = push.room;
    setMatchPage(room.status === "ended" ? room.match_page : null);
    pageLink.hidden = !(room.status === "ended" && room.match_page);
    if (!pageLink.hidden) pageLink.href = `/m/${encodeURIComponent(room.match_page)}`;
    votes.update(push);
    const amHost = room.host === app.conn.player;
    if (room.status === "lobby") {
      dropGame();
      if (!lobby) {
        lobby = createLobby(app);
        // The first-timer's offer heads the lobby's column (above both columns it pushed the
        // chat's box below the fold on a laptop).
        replace(body, offerSlot, votes.el, votes.start, lobby.el);
      }
      lobby.update(push);
      chat.setAllowed(true);
      // A game keeps its settings labels and error sentences in its own i18n files (loaded
      // at start for every game the server lists; this is for one that came later).
      loadGameStrings(room.game).then((loaded) => {
        if (loaded && lobby) lobby.refresh();
      });
    } else {
      rematchBox.hidden = !(room.status === "ended" && amHost);
      if (room.status === "ended" && !amHost) {
        // The game view's status says who won; the wait for the rematch goes under it.
        rematchBox.hidden = false;
        replace(rematchBox, ht("p", { class: "hint" }, "room.waiting_rematch", { name: nicknameOf(room, room.host) }));
      } else if (!rematchBox.contains(rematchButton)) {
        replace(rematchBox, rematchButton, rematchError);
      }
      standIns.update(push);
      showGame(push, started);
    }
  }

  cleanups.push(app.on("room", render));
  cleanups.push(
    app.conn.on("rejoin_failed", ({ code: failed, error }) => {
      if (failed !== code) return;
      // The connection went again before the answer: the next reconnection rejoins.
      if (String(error?.code || "").startsWith("connection.")) return;
      app.conn.forgetRoom(code);
      door.showProblem(error);
      reactionBar.setAllowed(false);
      layoutReady = false;
      chat?.destroy();
      chat = null;
      dropLobby();
      dropGame();
    }),
  );

  // ------------------------------------------------------------------ start
  if (app.conn.room?.code === code && app.push?.room?.code === code) {
    render(app.push);
  } else {
    const nickname = prefs.get("nickname");
    if (nickname) door.join(nickname);
    else door.askNicknameIfTheRoomIsThere();
  }

  return {
    unmount() {
      destroyed = true;
      setGameInPlay(null);
      setMatchPage(null);
      votes.destroy();
      teacher.stop();
      roomHowto.destroy();
      reactionBar.destroy();
      reactionLayer.destroy();
      for (const fn of cleanups) fn();
      dropLobby();
      dropGame();
      chat?.destroy();
    },
  };
}
