// The one WebSocket of this tab (docs/protocol.md).
//
// - Every request gets an increasing `id`; `request()` returns a promise resolved with the
//   `ack`'s data or rejected with the `error` ({code, message, params}) naming that id.
// - The first message is `hello` with the token from localStorage; `welcome` gives the token
//   to keep and our public player id.
// - When the socket drops we reconnect by ourselves with backoff, send `hello` again and, if
//   we were in a room, `join_room` again (with the games this browser has played): the next
//   `room` push is the full current view. A shared screen (tv.js) sends `open_screen` again
//   instead; so does one whose socket the server closed because its room moved (1012).
//   Requests made while offline wait for the connection (up to REQUEST_TIMEOUT_MS); requests
//   in flight when it dropped are refused with `connection.lost`, so the screen keeps what the
//   player typed and they can simply send it again.
// - Pushes (`room`, `chat`, `rooms`, `notice`, `welcome`) go to listeners: conn.on(type, fn).
// - Status ("connecting", "online", "reconnecting") goes to conn.on("status", fn).

import { playedGames } from "./played.js";
import { prefs } from "./prefs.js";

const BACKOFF_MS = [300, 1000, 2000, 4000, 8000];
const MAX_BACKOFF_MS = 10000;
const PING_EVERY_MS = 10000;
const SILENT_LIMIT_MS = 25000; // no frame at all for this long: the socket is dead
const REQUEST_TIMEOUT_MS = 20000;
// Refusals of a rejoin that mean "not yet" (the room is moving between cluster nodes), asked
// again after 250 ms, 0.5, 1, 2 and 4 s before the page gives up on the room.
const REJOIN_AGAIN = new Set(["room.moved", "server.busy"]);
const REJOIN_TRIES = 5;
// A room message answered `room.moved` is sent again after the next whole picture (the
// connection has reached the room's new owner) or this long, this many times.
const MOVED_WAIT_MS = 2000;
const MOVED_TRIES = 3;

function clientError(code, message) {
  return { code, message, params: {} };
}

// A room's pages: /r/CODE (the room) and /tv/CODE (its shared screen). The router's (app.js),
// and the socket's address names the room of either before it joins.
export const ROOM_PATH = /^\/r\/([A-Za-z0-9]{4,6})\/?$/;
export const TV_PATH = /^\/tv\/([A-Za-z0-9]{4,6})\/?$/;

export class Connection {
  constructor(url = null) {
    this.fixedUrl = url;
    this.player = null;
    this.seatedRoom = null; // the room the server says we hold a seat in (welcome.room)
    this.room = null; // {code, nickname}: the room to re-join after a reconnection
    this.screen = null; // {code}: the room this tab shows as a shared screen, opened again
    this.status = "connecting";
    this.clockOffset = 0; // server clock minus ours, in seconds (from welcome and pings)
    this.nextId = 1;
    this.pending = new Map(); // id -> {resolve, reject, timer, type}
    this.queue = []; // requests waiting for the connection
    this.listeners = new Map();
    this.attempt = 0;
    this.ws = null;
    this.ready = false; // hello answered on the current socket
    this.lastFrameAt = 0;
    this.pingTimer = null;
    this.retryTimer = null;
    window.addEventListener("online", () => this.reconnectNow());
    // The phone says its network is gone: the socket is as good as dead, say so now.
    window.addEventListener("offline", () => this.dropSocket(this.ws));
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.reconnectNow();
    });
  }

  on(type, fn) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type).add(fn);
    return () => this.listeners.get(type).delete(fn);
  }

  emit(type, payload) {
    for (const fn of this.listeners.get(type) || []) {
      try {
        fn(payload);
      } catch (err) {
        console.error(`listener for ${type} failed`, err);
      }
    }
  }

  setStatus(status) {
    if (this.status === status) return;
    this.status = status;
    this.emit("status", status);
  }

  /** The socket's address: /ws, with the code of the room this tab is in or about to be
   * in (`?room=CODE`), so that a proxy that routes by room (docs/cluster.md) sends all of a
   * room's players to one node. The server itself ignores it. */
  socketUrl() {
    if (this.fixedUrl) return this.fixedUrl;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const path = location.pathname;
    const inPath = (ROOM_PATH.exec(path) || TV_PATH.exec(path))?.[1];
    const code = this.room?.code || this.screen?.code || inPath;
    const base = `${scheme}//${location.host}/ws`;
    return code ? `${base}?room=${encodeURIComponent(code.toUpperCase())}` : base;
  }

  connect() {
    clearTimeout(this.retryTimer);
    this.ready = false;
    let ws;
    try {
      ws = new WebSocket(this.socketUrl());
    } catch (err) {
      console.error(err);
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => this.onOpen(ws));
    ws.addEventListener("message", (event) => this.onFrame(ws, event.data));
    ws.addEventListener("close", () => this.onClose(ws));
    ws.addEventListener("error", () => ws.close());
  }

  async onOpen(ws) {
    if (ws !== this.ws) return;
    this.lastFrameAt = Date.now();
    const wasReconnect = this.attempt > 0 || this.player !== null;
    try {
      await this.hello(ws);
    } catch (err) {
      if (ws !== this.ws) return;
      // The socket went before the answer: try again later with the same token (dropping it
      // would make this browser someone else, without its seats).
      if (err?.code === "connection.timeout") this.dropSocket(ws); // a socket that says nothing
      if (String(err?.code || "").startsWith("connection.")) return;
      // A token the server no longer accepts: start afresh rather than loop forever.
      prefs.set("token", null);
      try {
        await this.hello(ws);
      } catch {
        ws.close();
        return;
      }
    }
    if (ws !== this.ws) return;
    this.ready = true;
    this.attempt = 0;
    this.startPinging(ws);
    if (this.room) this.rejoin(ws, this.room.code, 0);
    else if (this.screen) this.reopenScreen(ws, this.screen.code, 0);
    this.setStatus("online");
    this.emit("ready", { reconnected: wasReconnect });
    const waiting = this.queue.splice(0);
    for (const item of waiting) this.transmit(ws, item);
  }

  /** Back into room `code` after a reconnection. resume: only into the seat we have; if we
   * left it (another tab) or were removed while away, the server says so rather than seating
   * us again. A room on its way to another server (a cluster node died or is draining:
   * `room.moved`, `server.busy`) is no refusal: ask again a little later, a few times. */
  rejoin(ws, code, tries) {
    const nickname = this.room?.nickname;
    this.sendNow(ws, "join_room", { code, nickname, resume: true, played: playedGames() }).then(
      (data) => this.emit("rejoined", { code, data }),
      (error) => {
        const still = () => ws === this.ws && this.room?.code === code;
        if (REJOIN_AGAIN.has(error?.code) && tries < REJOIN_TRIES && still()) {
          setTimeout(() => still() && this.rejoin(ws, code, tries + 1), 250 * 2 ** tries);
          return;
        }
        this.emit("rejoin_failed", { code, error });
      },
    );
  }

  /** Show room `code` as a shared screen again after a reconnection (or a room that moved). */
  reopenScreen(ws, code, tries) {
    this.sendNow(ws, "open_screen", { code }).then(
      (data) => this.emit("screen_opened", { code, data }),
      (error) => {
        const still = () => ws === this.ws && this.screen?.code === code;
        if (REJOIN_AGAIN.has(error?.code) && tries < REJOIN_TRIES && still()) {
          setTimeout(() => still() && this.reopenScreen(ws, code, tries + 1), 250 * 2 ** tries);
          return;
        }
        this.emit("screen_failed", { code, error });
      },
    );
  }

  /** We are no longer in room `code` (left, removed, closed, or refused on rejoin). */
  forgetRoom(code) {
    if (this.room?.code === code) this.room = null;
    if (this.seatedRoom === code) this.seatedRoom = null; // "Back to the room" would fail
  }

  hello(ws) {
    return this.sendNow(ws, "hello", { token: prefs.get("token") || null });
  }

  onFrame(ws, raw) {
    if (ws !== this.ws) return;
    this.lastFrameAt = Date.now();
    let message;
    try {
      message = JSON.parse(raw);
    } catch {
      console.warn("not JSON from server", raw);
      return;
    }
    switch (message.type) {
      case "ack":
      case "error": {
        const entry = message.re !== undefined && message.re !== null ? this.pending.get(message.re) : null;
        if (!entry) {
          if (message.type === "error") this.emit("stray_error", message);
          return;
        }
        this.pending.delete(message.re);
        clearTimeout(entry.timer);
        if (message.type === "ack") entry.resolve(message.data ?? null);
        else entry.reject({ code: message.code, message: message.message, params: message.params || {} });
        return;
      }
      case "welcome":
        this.player = message.player;
        this.seatedRoom = message.room || null;
        if (typeof message.now === "number") this.clockOffset = message.now - Date.now() / 1000;
        if (message.token) prefs.set("token", message.token);
        this.emit("welcome", message);
        return;
      case "pong":
        // Some servers answer a ping with a bare pong: settle the oldest ping still waiting.
        for (const [id, entry] of this.pending) {
          if (entry.type === "ping") {
            this.pending.delete(id);
            clearTimeout(entry.timer);
            entry.resolve(null);
            break;
          }
        }
        return;
      default:
        this.emit(message.type, message);
    }
  }

  onClose(ws) {
    if (ws !== this.ws) return;
    this.ready = false;
    clearInterval(this.pingTimer);
    for (const [id, entry] of this.pending) {
      clearTimeout(entry.timer);
      entry.reject(clientError("connection.lost", "The connection was lost; try again."));
      this.pending.delete(id);
    }
    this.scheduleReconnect();
  }

  /**
   * Give up on this socket now, without waiting for its closing handshake: with the network
   * gone that handshake never ends, and the tab would sit "online" on a frozen screen.
   */
  dropSocket(ws) {
    if (!ws || ws !== this.ws) return;
    try {
      ws.close();
    } catch {
      // already closing
    }
    this.onClose(ws);
    this.ws = null; // its own close event, whenever it comes, is about a socket we forgot
  }

  scheduleReconnect() {
    this.setStatus("reconnecting");
    const base = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    const delay = Math.min(MAX_BACKOFF_MS, base * (0.8 + Math.random() * 0.4));
    this.attempt += 1;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  /** Try at once (the network came back, the tab became visible). */
  reconnectNow() {
    if (this.status === "reconnecting" && (!this.ws || this.ws.readyState === WebSocket.CLOSED)) {
      this.connect();
    }
  }

  startPinging(ws) {
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => {
      if (ws !== this.ws || ws.readyState !== WebSocket.OPEN) return;
      if (Date.now() - this.lastFrameAt > SILENT_LIMIT_MS) {
        this.dropSocket(ws);
        return;
      }
      const sent = Date.now();
      this.sendNow(ws, "ping", {}).then((data) => {
        // The server's clock at the midpoint of the round trip.
        if (data && typeof data.now === "number") this.clockOffset = data.now - (sent + Date.now()) / 2000;
      }, () => {});
    }, PING_EVERY_MS);
  }

  /** Send on this socket now, bypassing the queue (hello, the automatic join). */
  sendNow(ws, type, fields) {
    return new Promise((resolve, reject) => {
      this.transmit(ws, { type, fields, resolve, reject });
    });
  }

  transmit(ws, item) {
    const id = this.nextId++;
    const timer = setTimeout(() => {
      if (this.pending.delete(id)) {
        item.reject(clientError("connection.timeout", "The server did not answer in time."));
      }
    }, REQUEST_TIMEOUT_MS);
    this.pending.set(id, { resolve: item.resolve, reject: item.reject, timer, type: item.type });
    try {
      ws.send(JSON.stringify({ type: item.type, id, ...item.fields }));
    } catch {
      this.pending.delete(id);
      clearTimeout(timer);
      item.reject(clientError("connection.lost", "The connection was lost; try again."));
    }
  }

  /** Send a request; resolves with the ack's data, rejects with the error. One answered
   * `room.moved` changed nothing, and the server moves this connection to the room's new
   * owner by itself (docs/protocol.md, "While a room moves"): it is sent again once the new
   * owner's whole picture has come (or after a moment), a few times. */
  request(type, fields = {}, tries = 0) {
    return this.requestOnce(type, fields).catch((error) => {
      if (error?.code !== "room.moved" || tries >= MOVED_TRIES) throw error;
      return this.nextPicture(MOVED_WAIT_MS).then(() => this.request(type, fields, tries + 1));
    });
  }

  /** Resolves when the next whole picture (a `room` push) comes, or after `ms`. */
  nextPicture(ms) {
    return new Promise((resolve) => {
      const done = () => {
        off();
        clearTimeout(timer);
        resolve();
      };
      const off = this.on("room", done);
      const timer = setTimeout(done, ms);
    });
  }

  requestOnce(type, fields) {
    return new Promise((resolve, reject) => {
      const item = { type, fields, resolve, reject };
      if (this.ready && this.ws && this.ws.readyState === WebSocket.OPEN) {
        this.transmit(this.ws, item);
        return;
      }
      this.queue.push(item);
      setTimeout(() => {
        const index = this.queue.indexOf(item);
        if (index >= 0) {
          this.queue.splice(index, 1);
          reject(clientError("connection.offline", "Not connected; try again in a moment."));
        }
      }, REQUEST_TIMEOUT_MS);
    });
  }

  /** The server's clock now, in seconds: deadlines in views are on it. */
  serverNow() {
    return Date.now() / 1000 + this.clockOffset;
  }

  /** A game action: {"type": "act", "action": {...}}. */
  act(action) {
    return this.request("act", { action });
  }
}
