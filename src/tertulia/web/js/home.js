// Home: your nickname, create a room, play now with computer players, join one by code, the
// public rooms, "Your matches" (my_matches.js), recent public matches.

import { avatar } from "./avatar.js";
import { gameName, h, ht, label, replace, showError } from "./dom.js";
import { has, language, onLanguageChange, t } from "./i18n.js";
import { prefs } from "./prefs.js";
import { cardButton, hasCard, openCard, wasMet } from "./howto.js";
import { hasPlayed, playedGames } from "./played.js";
import { useMyLanguage } from "./room_language.js";
import { hiddenWords, matchLink } from "./match_page.js";
import { createMyMatches } from "./my_matches.js";

const REFRESH_MS = 5000;
const CODE = /^[A-Za-z0-9]{4,6}$/;
// A public room's button, by its `joining`: [words, accessible name].
const JOINING = {
  play: ["home.join", "home.join_room_named"],
  next_round: ["home.join_next_round", "home.join_next_round_named"],
  watch: ["home.watch", "home.watch_room_named"],
};

export function mount(main, app) {
  const cleanups = [];
  app.setStatus("home.status");

  // ------------------------------------------------------------------ nickname
  const nickError = h("p", { class: "field-error", id: "nickname-error", hidden: true });
  const nickname = h("input", {
    id: "nickname",
    name: "nickname",
    type: "text",
    maxlength: 20,
    autocomplete: "nickname",
    autocapitalize: "words",
    spellcheck: "false",
    required: true,
    "aria-describedby": "nickname-error",
    value: prefs.get("nickname") || "",
  });
  nickname.addEventListener("input", () => {
    prefs.set("nickname", nickname.value.trim());
    showError(nickError, null);
  });
  const nickCard = h(
    "section",
    { class: "card nickname-card", "aria-labelledby": "nickname-title" },
    ht("h2", { id: "nickname-title" }, "home.nickname_title"),
    ht("label", { for: "nickname" }, "home.nickname_label"),
    nickname,
    nickError,
  );

  function currentNickname() {
    return nickname.value.trim();
  }

  /** Show a refusal next to the thing refused: nickname problems next to the nickname. */
  function refuse(error, fallbackSlot) {
    if (String(error.code).startsWith("nickname.")) {
      showError(nickError, error);
      nickname.focus();
    } else {
      showError(fallbackSlot, error);
    }
  }

  function needNickname(slot) {
    if (currentNickname()) return false;
    showError(nickError, { code: "nickname.length", message: "A nickname has 1 to 20 characters.", params: { max: 20 } });
    nickname.focus();
    showError(slot, null);
    return true;
  }

  // ------------------------------------------------------------------ back to your room
  const backCard = h("section", { class: "card back-card", hidden: true });
  function paintBack() {
    const code = app.conn.room?.code || app.conn.seatedRoom;
    backCard.hidden = !code;
    if (!code) return;
    replace(
      backCard,
      ht("p", {}, "home.seated_in", { code }),
      ht("button", { type: "button", class: "primary", onclick: () => app.navigate(`/r/${code}`) }, "home.back_to_room"),
    );
  }
  cleanups.push(app.conn.on("welcome", paintBack));
  cleanups.push(app.conn.on("notice", paintBack)); // removed from the room this tab was in

  // ------------------------------------------------------------------ flash (kicked…)
  const flash = h("div", { class: "flash", role: "status", hidden: true });
  if (app.flash) {
    const notice = app.flash;
    app.flash = null;
    const text = ht("p", {}, `notices.${notice.code}`, notice.params || {});
    if (text.textContent === `notices.${notice.code}`) text.textContent = notice.message;
    const close = label(h("button", { type: "button", class: "icon-button", onclick: () => (flash.hidden = true) }, "×"), "common.dismiss");
    replace(flash, text, close);
    flash.hidden = false;
  }

  // ------------------------------------------------------------------ create
  const createError = h("p", { class: "field-error", id: "create-error", hidden: true });
  const gameSelect = h("select", { id: "game", name: "game" });
  const gameHint = h("p", { class: "hint", id: "game-hint" });
  gameSelect.setAttribute("aria-describedby", "game-hint");
  let games = [];
  // The chosen game's rules card, a click away before anyone makes a room.
  const howto = cardButton(() => games.find((g) => g.name === gameSelect.value), { id: "home-howto" });
  howto.el.hidden = true;
  const privacy = h(
    "fieldset",
    { class: "choice" },
    ht("legend", {}, "home.visibility"),
    radio("visibility", "private", true, "home.private", "home.private_hint"),
    radio("visibility", "public", false, "home.public", "home.public_hint"),
  );
  const createButton = ht("button", { type: "submit", class: "primary", id: "create-room" }, "home.create");
  const createForm = h(
    "form",
    { class: "card create-card", "aria-labelledby": "create-title", novalidate: true },
    ht("h2", { id: "create-title" }, "home.create_title"),
    ht("label", { for: "game" }, "home.game"),
    gameSelect,
    gameHint,
    howto.el,
    privacy,
    createButton,
    createError,
  );
  function paintGameHint() {
    const game = games.find((g) => g.name === gameSelect.value);
    howto.update();
    if (!game) return;
    const about = `games.${game.name}.description`; // in the game's own strings
    replace(
      gameHint,
      has(about) ? ht("span", { class: "game-about" }, about) : null,
      game.min_players != null ? ht("span", {}, "home.players_range", { min: game.min_players, max: game.max_players }) : null,
    );
  }
  gameSelect.addEventListener("change", () => {
    paintGameHint();
    prefs.set("game", gameSelect.value);
  });
  app.games().then(
    (list) => {
      games = list;
      replace(gameSelect, list.map((g) => gameName("option", { value: g.name }, g.name)));
      const remembered = prefs.get("game");
      if (list.some((g) => g.name === remembered)) gameSelect.value = remembered;
      paintGameHint();
      paintQuick();
    },
    () => showError(createError, { code: "games.unavailable", message: "Could not load the games." }),
  );
  createForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    showError(createError, null);
    if (needNickname(createError)) return;
    const isPublic = createForm.querySelector("input[name=visibility]:checked")?.value === "public";
    createButton.disabled = true;
    try {
      const data = await app.conn.request("create_room", {
        game: gameSelect.value,
        nickname: currentNickname(),
        public: isPublic,
        played: playedGames(),
      });
      const code = data?.room || app.push?.room?.code;
      app.conn.room = { code, nickname: currentNickname() };
      // The room's words (a deck, categories) in the language this host is using.
      const game = games.find((g) => g.name === gameSelect.value);
      await useMyLanguage(app.conn, game, game?.defaults);
      app.navigate(`/r/${code}`);
    } catch (error) {
      refuse(error, createError);
    } finally {
      createButton.disabled = false;
    }
  });

  // ------------------------------------------------------------------ play now with bots
  const quickError = h("p", { class: "field-error", id: "quick-error", hidden: true });
  const quickButtons = h("div", { class: "quick-buttons" });
  const quickCard = h(
    "section",
    { class: "card quick-card", "aria-labelledby": "quick-title", hidden: true },
    ht("h2", { id: "quick-title" }, "home.quick_title"),
    ht("p", { class: "hint" }, "home.quick_hint"),
    quickButtons,
    quickError,
  );
  function paintQuick() {
    const withBots = games.filter((g) => g.bots);
    quickCard.hidden = !withBots.length;
    replace(
      quickButtons,
      withBots.map((game) => {
        const button = ht("button", { type: "button", class: "primary", id: `quick-${game.name}` }, "home.quick_play", {
          game: has(`games.${game.name}.name`) ? t(`games.${game.name}.name`) : game.name,
        });
        button.addEventListener("click", () => playNow(game, button));
        return button;
      }),
    );
  }

  /** A private room of one's own with computer players, its match started at once. */
  async function playNow(game, button) {
    showError(quickError, null);
    if (needNickname(quickError)) return;
    // How many bots sit with you and the settings of a short first match: the game's own
    // choice (its QUICK_PLAY, in /api/games).
    const quick = game.quick_play;
    // A first-timer reads the rules first: the match starts at once, and its clocks with it.
    if (!hasPlayed(game.name) && !wasMet(game.name) && hasCard(game)) await openCard(game.name);
    for (const b of quickButtons.querySelectorAll("button")) b.disabled = true;
    try {
      const data = await app.conn.request("create_room", { game: game.name, nickname: currentNickname(), public: false, played: playedGames() });
      const code = data?.room || app.push?.room?.code;
      app.conn.room = { code, nickname: currentNickname() };
      await useMyLanguage(app.conn, game, game.defaults);
      if (Object.keys(quick.settings).length) await app.conn.request("update_settings", { settings: quick.settings });
      for (let i = 0; i < quick.bots; i++) await app.conn.request("add_bot", { level: "good", language: language() });
      await app.conn.request("start_match");
      app.navigate(`/r/${code}`);
    } catch (error) {
      refuse(error, quickError);
    } finally {
      for (const b of quickButtons.querySelectorAll("button")) b.disabled = false;
    }
  }

  // ------------------------------------------------------------------ join by code
  const joinError = h("p", { class: "field-error", id: "join-error", hidden: true });
  const codeInput = h("input", {
    id: "room-code",
    name: "code",
    type: "text",
    inputmode: "text",
    autocapitalize: "characters",
    autocomplete: "off",
    spellcheck: "false",
    maxlength: 8,
    class: "code-input",
    "aria-describedby": "join-error",
  });
  codeInput.addEventListener("input", () => showError(joinError, null));
  const joinButton = ht("button", { type: "submit", class: "primary", id: "join-room" }, "home.join");
  const joinForm = h(
    "form",
    { class: "card join-card", "aria-labelledby": "join-title", novalidate: true },
    ht("h2", { id: "join-title" }, "home.join_title"),
    ht("label", { for: "room-code" }, "home.code_label"),
    h("div", { class: "row" }, codeInput, joinButton),
    joinError,
  );

  async function join(code) {
    showError(joinError, null);
    if (needNickname(joinError)) return;
    joinButton.disabled = true;
    try {
      await app.conn.request("join_room", { code, nickname: currentNickname(), played: playedGames() });
      app.conn.room = { code, nickname: currentNickname() };
      app.navigate(`/r/${code}`);
    } catch (error) {
      refuse(error, joinError);
    } finally {
      joinButton.disabled = false;
    }
  }
  joinForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const code = codeInput.value.replace(/[\s-]/g, "").toUpperCase();
    if (!CODE.test(code)) {
      showError(joinError, { code: "room.code_format", message: "A room code has 4 to 6 letters or digits." });
      codeInput.focus();
      return;
    }
    join(code);
  });

  // ------------------------------------------------------------------ public rooms, recent
  const roomsList = h("ul", { class: "room-list", id: "public-rooms" });
  const roomsCard = h(
    "section",
    { class: "card rooms-card", "aria-labelledby": "rooms-title" },
    ht("h2", { id: "rooms-title" }, "home.public_rooms"),
    roomsList,
  );
  const recentList = h("ul", { class: "recent-list", id: "recent-matches" });
  const recentCard = h(
    "section",
    { class: "card recent-card", "aria-labelledby": "recent-title" },
    ht("h2", { id: "recent-title" }, "home.recent"),
    recentList,
  );
  let lastList = null;

  function paintRooms(message) {
    lastList = message;
    const rooms = message.rooms || [];
    if (!rooms.length) replace(roomsList, ht("li", { class: "empty" }, "home.no_rooms"));
    else replace(roomsList, rooms.map(roomRow));
    const recent = message.recent || [];
    if (!recent.length) replace(recentList, ht("li", { class: "empty" }, "home.no_recent"));
    else replace(recentList, recent.map(recentRow));
  }

  function roomRow(r) {
    // What coming in does now (the server's `joining`): a seat, a seat from the next round,
    // or watching (a full room, a running Haiclue).
    const full = r.max_players != null && r.players >= r.max_players;
    const joining = JOINING[r.joining] ? r.joining : full ? "watch" : "play";
    return h(
      "li",
      { class: "room-row" },
      h(
        "div",
        { class: "room-info" },
        h("strong", { class: "room-game" }, gameName("span", {}, r.game), " ", h("span", { class: "code" }, r.code)),
        h(
          "span",
          { class: "muted" },
          r.host ? ht("span", {}, "home.hosted_by", { name: r.host }) : null,
          " · ",
          ht("span", {}, "home.player_count", { count: r.players, max: r.max_players }),
          " · ",
          ht("span", { class: `pill status-${r.status}` }, `room.status.${r.status}`),
        ),
      ),
      label(
        ht("button", { type: "button", class: joining === "watch" ? "" : "secondary", dataset: { joining }, onclick: () => join(r.code) }, JOINING[joining][0]),
        JOINING[joining][1],
        { code: r.code },
      ),
    );
  }

  function recentRow(m) {
    const players = [...(m.players || [])].sort((a, b) => (a.place ?? 99) - (b.place ?? 99));
    const words = hiddenWords(players); // a removed player who hid their name
    return h(
      "li",
      { class: "recent-row" },
      h(
        "div",
        { class: "recent-head" },
        gameName("strong", {}, m.game),
        h("span", { class: "muted" }, when(m.ended_at)),
        m.id ? matchLink(m.id, "home.open_match", null, { class: "recent-link" }) : null,
      ),
      h(
        "ol",
        { class: "recent-players" },
        players.map((p) =>
          h(
            "li",
            { class: p.winner ? "winner" : "" },
            avatar(p.id, p.name ?? words.get(p.id), { size: "sm", seatColour: p.colour }),
            h("span", { class: "name" }, p.name ?? words.get(p.id)),
            p.winner ? ht("span", { class: "pill win" }, "home.winner") : null,
            h("span", { class: "score" }, String(p.score)),
          ),
        ),
      ),
    );
  }

  function refresh() {
    if (app.conn.status !== "online") return;
    app.conn.request("list_rooms").then(
      (data) => {
        if (data && Array.isArray(data.rooms)) paintRooms(data);
        if (data && "seated" in data) {
          app.conn.seatedRoom = data.seated;
          paintBack();
        }
      },
      () => {},
    );
  }
  cleanups.push(app.conn.on("rooms", paintRooms));
  const mine = createMyMatches(app, when);
  cleanups.push(() => mine.destroy());
  cleanups.push(app.conn.on("ready", refresh));
  const timer = setInterval(refresh, REFRESH_MS);
  cleanups.push(() => clearInterval(timer));
  // The HTTP list shows something before the socket is up.
  fetch("/api/rooms")
    .then((r) => (r.ok ? r.json() : null))
    .then((data) => {
      if (data && !lastList) paintRooms(data);
    })
    .catch(() => {});
  replace(roomsList, ht("li", { class: "empty" }, "common.loading"));
  refresh();
  cleanups.push(onLanguageChange(() => lastList && paintRooms(lastList)));
  cleanups.push(onLanguageChange(() => games.length && paintQuick()));

  // ------------------------------------------------------------------ layout
  // What Tertulia is, in two lines (a first visit had only "Choose a nickname…"). On a laptop
  // the left column is what makes a room (nickname, New room: "Create room" above the fold at
  // 1280×800), the right one the other ways in and the lists; on a phone one column, in the
  // same order.
  const intro = h(
    "section",
    { class: "home-intro", "aria-labelledby": "home-title" },
    ht("h1", { id: "home-title" }, "home.intro_title"),
    ht("p", { class: "home-intro-text" }, "home.intro"),
  );
  replace(
    main,
    h(
      "div",
      { class: "home" },
      intro,
      flash,
      backCard,
      h("div", { class: "home-actions" }, nickCard, createForm),
      h("div", { class: "home-lists" }, quickCard, joinForm, roomsCard, mine.el, recentCard),
    ),
  );
  paintBack();

  return {
    unmount() {
      for (const fn of cleanups) fn();
    },
  };
}

function radio(name, value, checked, key, hintKey) {
  const id = `${name}-${value}`;
  return h(
    "label",
    { class: "radio", for: id },
    h("input", { type: "radio", name, id, value, checked }),
    h("span", {}, ht("span", { class: "radio-label" }, key), ht("span", { class: "hint" }, hintKey)),
  );
}

function when(seconds) {
  if (typeof seconds !== "number") return "";
  const diff = Math.round(seconds - Date.now() / 1000);
  const rtf = new Intl.RelativeTimeFormat(language(), { numeric: "auto" });
  const abs = Math.abs(diff);
  if (abs < 60) return rtf.format(diff, "second");
  if (abs < 3600) return rtf.format(Math.round(diff / 60), "minute");
  if (abs < 86400) return rtf.format(Math.round(diff / 3600), "hour");
  return rtf.format(Math.round(diff / 86400), "day");
}
