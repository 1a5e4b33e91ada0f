// The lobby: who is here (online or not, host, spectators, computer players), the host's
// controls (game, order, remove, computer players, start), the settings form, and the share
// link with its QR code. Renders the latest `room` push; never patches state itself.

import { avatar } from "./avatar.js";
import { createBotAdder } from "./bot_adder.js";
import { muteButton } from "./mute.js";
import { confirmDialog, gameName, h, ht, label, replace, showError, tx } from "./dom.js";
import { onLanguageChange, t } from "./i18n.js";
import { languageField, paintLanguageLine, useMyLanguage } from "./room_language.js";
import { createSettingsForm } from "./settings_form.js";
import { createVoteSetting } from "./votes.js";

/** Helpers the room screen and game screens share about a `room` object. */
/** "Computer · Good": the level is a translation inside a translation, so it is looked up
 * again whenever the language changes (retranslate() alone would keep the first language's). */
function botPill(pill) {
  return tx(pill, "lobby.bot_pill", { level: t(`bot.level.${pill.dataset.level}`) });
}
onLanguageChange(() => {
  for (const pill of document.querySelectorAll(".pill.bot[data-level]")) botPill(pill);
});

export function isOnline(room, seat) {
  if (seat.bot) return true; // a computer player is always at the table
  // seats[].online is the room's presence (false once a dropped player's grace is over);
  // room.online lists the same people (docs/protocol.md), for a client that reads a list.
  if (typeof seat.online === "boolean") return seat.online;
  return Array.isArray(room.online) ? room.online.includes(seat.id) : true;
}

export function players(room) {
  return room.seats.filter((s) => !s.spectator);
}

export function nicknameOf(room, id) {
  return room.seats.find((s) => s.id === id)?.nickname ?? "?";
}

export function createLobby(app) {
  const seatList = h("ol", { class: "seats", id: "seats", "aria-labelledby": "seats-title" });
  const seatsTitle = h("h2", { id: "seats-title" });
  const seatError = h("p", { class: "field-error", hidden: true, id: "seat-error" });
  const startButton = ht("button", { type: "button", class: "primary big", id: "start-match" }, "lobby.start");
  const startNote = h("p", { class: "hint", id: "start-note" });
  const startError = h("p", { class: "field-error", hidden: true, id: "start-error" });
  startButton.setAttribute("aria-describedby", "start-note start-error");
  const hostBox = h("div", { class: "host-controls" }, startButton, startNote, startError);
  const bots = createBotAdder(app);

  const gameLine = h("div", { class: "game-line" });
  const gameError = h("p", { class: "field-error", hidden: true });
  // What language the room's words are in (Haiclue's tiles, Pintó's categories), in plain view.
  const languageSlot = h("div", { class: "room-language-slot", hidden: true });
  const settingsBox = h("div", { class: "settings-box" });
  const voteSetting = createVoteSetting(app); // votes to remove: the host's, in a private room
  const settingsCard = h(
    "section",
    { class: "card settings-card", "aria-labelledby": "settings-title" },
    ht("h2", { id: "settings-title" }, "lobby.settings"),
    gameLine,
    gameError,
    languageSlot,
    voteSetting.el,
    settingsBox,
  );
  const seatsCard = h(
    "section",
    { class: "card seats-card", "aria-labelledby": "seats-title" },
    seatsTitle,
    seatList,
    seatError,
    bots.el,
    hostBox,
  );
  const shareCard = h("section", { class: "card share-card", "aria-labelledby": "share-title" });
  const el = h("div", { class: "lobby" }, seatsCard, shareCard, settingsCard);

  let form = null;
  let formKey = null;
  let lastRoom = null;
  let lastPush = null;
  let sharedCode = null;

  const request = (type, fields, slot) =>
    app.conn.request(type, fields).then(
      (data) => {
        if (slot) showError(slot, null);
        return data;
      },
      (error) => {
        if (slot) showError(slot, error);
        throw error;
      },
    );

  startButton.addEventListener("click", () => request("start_match", {}, startError).catch(() => {}));

  function move(room, index, delta) {
    const order = room.seats.map((s) => s.id);
    const other = index + delta;
    if (other < 0 || other >= order.length) return;
    [order[index], order[other]] = [order[other], order[index]];
    request("reorder", { order }, seatError).catch(() => {});
  }

  async function kick(seat) {
    const ok = await confirmDialog("lobby.kick_confirm", { name: seat.nickname }, "lobby.kick");
    if (ok) request("kick", { player: seat.id }, seatError).catch(() => {});
  }

  function seatRow(room, seat, index, me, amHost) {
    const online = isOnline(room, seat);
    const isMe = seat.id === me;
    const tags = h("span", { class: "tags" });
    if (isMe) tags.append(ht("span", { class: "pill you" }, "lobby.you"));
    if (seat.host || seat.id === room.host) tags.append(ht("span", { class: "pill host" }, "lobby.host"));
    if (seat.spectator) tags.append(ht("span", { class: "pill spectator" }, "lobby.spectator"));
    const presence = seat.bot
      ? botPill(ht("span", { class: "pill bot", "data-level": seat.level }, "lobby.bot_pill"))
      : ht("span", { class: `presence ${online ? "online" : "offline"}` }, online ? "lobby.online" : "lobby.offline");
    const controls = h("span", { class: "seat-controls" });
    // "Mute for me": their chat lines and reactions hidden on this screen (not a bot's).
    if (!isMe && !seat.bot) controls.append(muteButton(room.code, seat).el);
    if (amHost && room.status === "lobby") {
      const up = label(h("button", { type: "button", class: "icon-button", disabled: index === 0 }, "↑"), "lobby.move_up", { name: seat.nickname });
      const down = label(
        h("button", { type: "button", class: "icon-button", disabled: index === room.seats.length - 1 }, "↓"),
        "lobby.move_down",
        { name: seat.nickname },
      );
      up.addEventListener("click", () => move(room, index, -1));
      down.addEventListener("click", () => move(room, index, 1));
      controls.append(up, down);
      if (seat.bot) {
        // A computer player goes without a question: the host can add another at once.
        const remove = label(h("button", { type: "button", class: "icon-button danger remove-bot" }, "×"), "lobby.remove_bot_named", {
          name: seat.nickname,
        });
        remove.addEventListener("click", () => request("remove_bot", { player: seat.id }, seatError).catch(() => {}));
        controls.append(remove);
      } else if (!isMe) {
        const remove = label(h("button", { type: "button", class: "icon-button danger" }, "×"), "lobby.kick_named", {
          name: seat.nickname,
        });
        remove.addEventListener("click", () => kick(seat));
        controls.append(remove);
      }
    }
    return h(
      "li",
      { class: `seat${online ? "" : " is-offline"}${isMe ? " is-me" : ""}${seat.bot ? " is-bot" : ""}`, dataset: { player: seat.id } },
      avatar(seat.id, seat.nickname, { offline: !online }),
      h("span", { class: "seat-main" }, h("span", { class: "name" }, seat.nickname), h("span", { class: "seat-sub" }, presence, tags)),
      controls,
    );
  }

  function paintShare(code) {
    if (sharedCode === code) return;
    sharedCode = code;
    const link = `${location.origin}/r/${code}`;
    const linkInput = h("input", { type: "text", readonly: true, value: link, id: "share-link", class: "share-link" });
    linkInput.addEventListener("focus", () => linkInput.select());
    const copied = h("span", { class: "hint", role: "status" });
    const copy = ht("button", { type: "button", class: "secondary", id: "copy-link" }, "lobby.copy");
    copy.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(link);
      } catch {
        linkInput.select();
        document.execCommand("copy");
      }
      tx(copied, "lobby.copied");
      setTimeout(() => (copied.textContent = ""), 2500);
    });
    const qr = tx(h("img", { src: `/r/${encodeURIComponent(code)}/qr.svg`, class: "qr", width: 160, height: 160 }), "lobby.qr_alt", { code }, "alt");
    const share = navigator.share
      ? ht("button", { type: "button", class: "ghost", onclick: () => navigator.share({ url: link, title: "Tertulia" }).catch(() => {}) }, "lobby.share")
      : null;
    // "Show on a TV": the room's shared screen (tv.js), in a new tab or on another device.
    const tvQr = tx(h("img", { src: `/tv/${encodeURIComponent(code)}/qr.svg`, class: "tv-share-qr", id: "tv-share-qr", width: 160, height: 160 }), "lobby.tv_qr_alt", { code }, "alt");
    const tv = h(
      "div",
      { class: "tv-share", id: "tv-share" },
      ht("h3", {}, "lobby.tv_title"),
      ht("p", { class: "hint" }, "lobby.tv_hint"),
      ht("a", { href: `/tv/${encodeURIComponent(code)}`, target: "_blank", rel: "noopener", class: "button-link", id: "open-tv" }, "lobby.tv_open"),
      h("details", { class: "tv-qr-box" }, ht("summary", {}, "lobby.tv_qr"), tvQr),
    );
    replace(
      shareCard,
      ht("h2", { id: "share-title" }, "lobby.invite"),
      h("p", { class: "room-code-big" }, ht("span", { class: "muted" }, "lobby.code"), " ", h("strong", { class: "code" }, code)),
      ht("label", { for: "share-link", class: "visually-hidden" }, "lobby.link"),
      h("div", { class: "row" }, linkInput, copy),
      copied,
      share,
      h("details", { class: "qr-box" }, ht("summary", {}, "lobby.show_qr"), qr),
      tv,
    );
  }

  async function paintSettings(room, amHost) {
    const key = `${room.game}`;
    let games = [];
    try {
      games = await app.games();
    } catch {
      return;
    }
    if (lastRoom !== room) return; // a newer push arrived meanwhile
    const game = games.find((g) => g.name === room.game);
    // Game choice: a select for the host when there is more than one game.
    if (amHost && games.length > 1 && room.status === "lobby") {
      if (!gameLine.querySelector("select")) {
        const select = h("select", { id: "choose-game" }, games.map((g) => gameName("option", { value: g.name }, g.name)));
        select.addEventListener("change", () => {
          const chosen = games.find((g) => g.name === select.value);
          request("choose_game", { game: select.value }, gameError).then(
            // A new game starts from its defaults: its words in the host's language.
            () => useMyLanguage(app.conn, chosen, chosen?.defaults),
            () => (select.value = lastRoom.game),
          );
        });
        replace(gameLine, ht("label", { for: "choose-game" }, "lobby.game"), select);
      }
      const select = gameLine.querySelector("select");
      if (document.activeElement !== select) select.value = room.game;
    } else {
      replace(gameLine, h("p", { class: "game-name" }, ht("span", { class: "muted" }, "lobby.game"), " ", gameName("strong", {}, room.game)));
    }
    // The words' language, once: the host's control says it (a line above it said it twice,
    // issue 30), everyone else reads it in the line, and their settings list leaves it out.
    const editing = amHost && room.status === "lobby";
    if (editing) {
      languageSlot.hidden = true;
      replace(languageSlot);
    } else paintLanguageLine(languageSlot, game, room.settings);
    if (!game || !game.settings_schema) {
      replace(settingsBox);
      form = null;
      formKey = null;
      return;
    }
    if (formKey !== key || !form) {
      formKey = key;
      form = createSettingsForm({
        schema: game.settings_schema,
        values: room.settings,
        isHost: amHost,
        isPublic: room.public,
        shownElsewhere: languageField(game)?.name ?? null,
        send: (name, value) => app.conn.request("update_settings", { settings: { [name]: value } }),
        // The defaults, with the words in the host's language as when the room was made.
        restore: () => app.conn.request("restore_defaults").then(() => useMyLanguage(app.conn, game, game.defaults)),
      });
      replace(settingsBox, form.el);
    }
    form.update(room.settings, amHost && room.status === "lobby");
  }

  /** Rebuild what carries translated labels (a game's own strings arrived). */
  function refresh() {
    formKey = null;
    if (lastPush) update(lastPush);
  }

  function update(push) {
    lastPush = push;
    const room = push.room;
    lastRoom = room;
    const me = app.conn.player;
    const amHost = room.host === me;
    el.classList.toggle("hosting", amHost); // the host's invite goes up (room.css)
    const seated = players(room);
    tx(seatsTitle, "lobby.players_title", { count: seated.length, max: room.max_players });
    replace(seatList, room.seats.map((seat, i) => seatRow(room, seat, i, me, amHost)));
    bots.update(room, amHost);
    voteSetting.update(room, amHost);

    hostBox.hidden = !amHost || room.status !== "lobby";
    const missing = Math.max(0, (room.min_players || 0) - seated.length);
    startButton.disabled = missing > 0;
    // Only the host sees this note; in a game with computer players, say they can fill in.
    const needKey = room.bots ? "lobby.need_players_or_bots" : "lobby.need_players";
    if (missing > 0) tx(startNote, needKey, { count: missing, min: room.min_players });
    else tx(startNote, "lobby.ready_to_start");

    // The line at the top: what is happening, what *you* should do.
    const mySeat = room.seats.find((s) => s.id === me);
    if (mySeat?.spectator) app.setStatus("lobby.status.spectator");
    else if (amHost) app.setStatus(missing > 0 ? "lobby.status.need_players" : "lobby.status.host_ready", { count: missing });
    else app.setStatus("lobby.status.waiting_host", { name: room.seats.find((s) => s.id === room.host)?.nickname ?? "" });

    paintShare(room.code);
    paintSettings(room, amHost);
  }

  return { el, update, refresh, destroy() {} };
}
