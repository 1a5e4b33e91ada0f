// The way into a room (/r/CODE) before its screen: joining, asking for a nickname when we
// have none (or the room refused the one we had), and saying why we cannot come in. A dead
// link says so before asking for a nickname it could not use.

import { h, ht, replace, showError } from "./dom.js";
import { prefs } from "./prefs.js";
import { playedGames } from "./played.js";

/** The room's door, drawn into `screen`. `joined()` is called once the server took us in
 * (the room screen renders its latest push); `gone()` says the page was left meanwhile, and
 * then nothing more is drawn. */
export function createRoomDoor(app, screen, code, { joined, gone }) {
  function showJoining() {
    app.setStatus("room.joining", { code });
    replace(screen, ht("p", { class: "loading" }, "room.joining", { code }));
  }

  function showProblem(error) {
    app.setStatus(null);
    const message = h("p", { class: "problem" });
    showError(message, error);
    replace(
      screen,
      h(
        "section",
        { class: "card narrow" },
        ht("h2", {}, "room.cannot_join", { code }),
        message,
        ht("button", { type: "button", class: "primary", onclick: () => app.navigate("/") }, "room.go_home"),
      ),
    );
  }

  function askNickname(error = null) {
    app.setStatus("room.need_nickname", { code });
    const errorSlot = h("p", { class: "field-error", id: "join-nickname-error", hidden: true });
    const input = h("input", {
      id: "join-nickname",
      type: "text",
      maxlength: 20,
      autocomplete: "nickname",
      required: true,
      value: prefs.get("nickname") || "",
      "aria-describedby": "join-nickname-error",
    });
    input.addEventListener("input", () => showError(errorSlot, null));
    const form = h(
      "form",
      { class: "card narrow", novalidate: true },
      ht("h2", {}, "room.join_title", { code }),
      ht("label", { for: "join-nickname" }, "home.nickname_label"),
      input,
      errorSlot,
      h(
        "div",
        { class: "row" },
        ht("button", { type: "submit", class: "primary", id: "join-with-nickname" }, "home.join"),
        ht("button", { type: "button", class: "ghost", onclick: () => app.navigate("/") }, "room.go_home"),
      ),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const nickname = input.value.trim();
      if (!nickname) {
        showError(errorSlot, { code: "nickname.length", message: "A nickname has 1 to 20 characters.", params: { max: 20 } });
        input.focus();
        return;
      }
      prefs.set("nickname", nickname);
      join(nickname);
    });
    replace(screen, form);
    if (error) showError(errorSlot, error);
    input.focus();
  }

  async function join(nickname) {
    showJoining();
    try {
      await app.conn.request("join_room", { code, nickname, played: playedGames() });
      if (gone()) return;
      app.conn.room = { code, nickname };
      joined();
    } catch (error) {
      if (gone()) return;
      if (String(error.code).startsWith("nickname.")) askNickname(error);
      else showProblem(error);
    }
  }

  async function askNicknameIfTheRoomIsThere() {
    try {
      const answer = await fetch(`/api/rooms/${encodeURIComponent(code)}`);
      if (gone()) return;
      if (answer.status === 404) {
        showProblem({ code: "room.unknown", message: "There is no room with that code.", params: {} });
        return;
      }
    } catch {
      // Offline for the moment: ask anyway, joining will say what is wrong.
    }
    if (!gone()) askNickname();
  }

  return { join, showProblem, askNicknameIfTheRoomIsThere };
}
