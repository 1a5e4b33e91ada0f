// Home: your nickname, create a room, play now with computer players (quick_play.js), join
// one by code, the public rooms and recent public matches (public_lists.js), "Your matches"
// (my_matches.js).

import { gameName, h, ht, label, replace, showError } from "./dom.js";
import { has, onLanguageChange } from "./i18n.js";
import { prefs } from "./prefs.js";
import { cardButton } from "./howto.js";
import { playedGames } from "./played.js";
import { useMyLanguage } from "./room_language.js";
import { createMyMatches } from "./my_matches.js";
import { createPublicLists, when } from "./public_lists.js";
import { createQuickPlay } from "./quick_play.js";

const CODE = /^[A-Za-z0-9]{4,6}$/;

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
      quick.paint(list);
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

  // ------------------------------------------------------------------ the other cards
  const quick = createQuickPlay(app, { current: currentNickname, missing: needNickname, refuse });
  cleanups.push(onLanguageChange(() => games.length && quick.paint(games)));
  const lists = createPublicLists(app, {
    join,
    onSeated(code) {
      app.conn.seatedRoom = code;
      paintBack();
    },
  });
  cleanups.push(() => lists.destroy());
  const mine = createMyMatches(app, when);
  cleanups.push(() => mine.destroy());

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
      h("div", { class: "home-lists" }, quick.el, joinForm, lists.roomsCard, mine.el, lists.recentCard),
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
