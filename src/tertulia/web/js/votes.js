// Votes to remove (issue 31; docs/protocol.md, "Votes to remove"), in the lobby and in a
// match alike: any player here may ask the others to remove someone, with a reason from the
// server's short list; the other players here vote yes or no against the vote's clock; the
// end is told to everyone. The room decides everything (who may start, who votes, the
// majority): this screen shows the room's `votes` and its events, and words the refusals.
//
// - The running vote: who asks, about whom, why, its clock (from the server's deadline, the
//   last 10 s in the urgent colour), how many have voted (never how: ballots are secret), and
//   for a voter who has not voted, Remove / Keep.
// - The target is told, and offered "If I'm removed, hide my name on the match page"
//   (`hide_name`): where it matters, as the protocol suggests.
// - The end: "Bo was removed (2 yes, 1 no)", kept, or "ended: they left", until the next vote
//   or until dismissed.
// - Starting one: "Vote to remove a player", folded, when the room allows votes now (`start`,
//   placed by the room: above the lobby, under the game).

import { h, ht, label, replace, showError, tx } from "./dom.js";
import { t } from "./i18n.js";
import { paintCountdown } from "./view_helpers.js";

export const REASONS = ["spoiling", "offensive", "cheating", "away"];

export function createVotes(app) {
  const names = new Map(); // id -> nickname, kept for a removed player's result line
  let push = null;
  let clockTimer = null;

  // ------------------------------------------------------------------ the running vote
  const question = h("p", { class: "vote-question", id: "vote-question" });
  const clock = h("span", { class: "countdown vote-clock", id: "vote-clock", role: "timer" });
  const progress = h("p", { class: "hint", id: "vote-progress" });
  const yes = ht("button", { type: "button", class: "danger", id: "vote-yes" }, "votes.yes");
  const no = ht("button", { type: "button", class: "secondary", id: "vote-no" }, "votes.no");
  const ballot = h("div", { class: "row vote-ballot", role: "group", id: "vote-ballot" }, yes, no);
  const cast = ht("p", { class: "hint", id: "vote-cast" }, "votes.cast");
  const hideName = h("input", { type: "checkbox", id: "hide-name" });
  const aboutYou = h(
    "div",
    { class: "vote-about-you", id: "vote-about-you" },
    ht("p", {}, "votes.about_you"),
    h("label", { class: "checkbox", for: "hide-name" }, hideName, ht("span", {}, "votes.hide_name")),
  );
  const voteError = h("p", { class: "field-error", id: "vote-error", hidden: true });
  const running = h(
    "section",
    { class: "card vote-running", id: "vote-running", hidden: true, "aria-labelledby": "vote-question", "aria-live": "polite" },
    h("div", { class: "vote-head" }, question, clock),
    progress,
    ballot,
    cast,
    aboutYou,
    voteError,
  );

  // ------------------------------------------------------------------ its end
  const resultText = h("p", { id: "vote-result-text" });
  const dismiss = label(h("button", { type: "button", class: "icon-button" }, "×"), "common.dismiss");
  const result = h("div", { class: "flash vote-result", id: "vote-result", role: "status", hidden: true }, resultText, dismiss);
  dismiss.addEventListener("click", () => (result.hidden = true));

  // ------------------------------------------------------------------ starting one
  const target = h("select", { id: "vote-player" });
  const reason = h("select", { id: "vote-reason" }, REASONS.map((r) => ht("option", { value: r }, `votes.reason.${r}`)));
  const begin = ht("button", { type: "button", class: "secondary", id: "vote-begin" }, "votes.begin");
  const startError = h("p", { class: "field-error", id: "vote-start-error", hidden: true });
  const start = h(
    "details",
    { class: "card vote-start", id: "vote-start", hidden: true },
    ht("summary", {}, "votes.start_title"),
    ht("p", { class: "hint" }, "votes.start_hint"),
    h("label", { for: "vote-player" }, ht("span", {}, "votes.player_label")),
    target,
    h("label", { for: "vote-reason" }, ht("span", {}, "votes.reason_label")),
    reason,
    begin,
    startError,
  );
  for (const input of [target, reason]) input.addEventListener("change", () => showError(startError, null));

  // Two places: the vote (its end) on top, where everyone sees it at once; the folded way to
  // start one is the room's to place (under the game in a match: the board keeps the top).
  const el = h("div", { class: "votes-box", id: "votes" }, result, running);

  const request = (type, fields, slot) =>
    app.conn.request(type, fields).then(
      () => showError(slot, null),
      (error) => showError(slot, error),
    );

  begin.addEventListener("click", async () => {
    begin.disabled = true;
    try {
      await app.conn.request("vote_remove", { player: target.value, reason: reason.value });
      showError(startError, null);
      start.open = false; // folded again for the next time: the running vote says the rest
    } catch (error) {
      showError(startError, error);
    } finally {
      begin.disabled = false;
    }
  });
  const vote = (answer) => request("vote", { yes: answer }, voteError);
  yes.addEventListener("click", () => vote(true));
  no.addEventListener("click", () => vote(false));
  hideName.addEventListener("change", () => request("hide_name", { hide: hideName.checked }, voteError));

  // ------------------------------------------------------------------ painting
  const nameOf = (id) => names.get(id) ?? "?";

  function paintClock() {
    const vote = push?.room?.votes?.running;
    if (!vote) return;
    const left = paintCountdown(clock, vote.deadline, app.conn.serverNow());
    label(clock, "votes.clock", { seconds: left });
  }

  function paintRunning(room, me) {
    const vote = room.votes?.running;
    running.hidden = !vote;
    clearInterval(clockTimer);
    clockTimer = null;
    if (!vote) {
      showError(voteError, null);
      return;
    }
    tx(question, "votes.question", { by: nameOf(vote.by), name: nameOf(vote.player), reason: t(`votes.reason.${vote.reason}`) });
    tx(progress, "votes.progress", { count: vote.voted.length, of: vote.voters.length });
    const voter = vote.voters.includes(me);
    const done = vote.voted.includes(me);
    ballot.hidden = !voter || done;
    if (!ballot.hidden) {
      tx(yes, "votes.yes_named", { name: nameOf(vote.player) });
      tx(no, "votes.no_named", { name: nameOf(vote.player) });
      ballot.setAttribute("aria-label", t("votes.ballot", { name: nameOf(vote.player) }));
    }
    cast.hidden = !(voter && done);
    aboutYou.hidden = vote.player !== me;
    const mine = room.seats.find((s) => s.id === me);
    if (mine && document.activeElement !== hideName) hideName.checked = Boolean(mine.hide_name);
    paintClock();
    clockTimer = setInterval(paintClock, 250);
  }

  /** A vote's start and end, from the push's events (said to screen readers too: the card
   * appearing is not enough for a live region). */
  function paintEnd(events) {
    for (const event of events || []) {
      if (event.kind === "removal.started") {
        result.hidden = true;
        app.announce("votes.question", { by: nameOf(event.by), name: nameOf(event.player), reason: t(`votes.reason.${event.reason}`) });
      }
      if (event.kind !== "removal.ended") continue;
      const key = { removed: "votes.result.removed", kept: "votes.result.kept", gone: "votes.result.gone" }[event.result] || "votes.result.kept";
      const params = { name: nameOf(event.player), yes: event.yes ?? 0, no: event.no ?? 0 };
      tx(resultText, key, params);
      result.hidden = false;
      app.announce(key, params);
    }
  }

  function paintStart(room, me) {
    const mine = room.seats.find((s) => s.id === me);
    const others = room.seats.filter((s) => s.id !== me && !s.bot);
    const may = Boolean(room.votes?.allowed) && Boolean(mine) && !mine.spectator && !room.votes?.running && others.length > 0;
    start.hidden = !may;
    if (!may) return;
    const key = JSON.stringify(others.map((s) => [s.id, s.nickname]));
    if (target.dataset.key === key) return;
    const chosen = target.value;
    target.dataset.key = key;
    replace(target, others.map((s) => h("option", { value: s.id }, s.nickname)));
    if (others.some((s) => s.id === chosen)) target.value = chosen;
  }

  function update(next) {
    push = next;
    const room = next.room;
    const me = app.conn.player;
    for (const seat of room.seats) names.set(seat.id, seat.nickname);
    paintEnd(next.events);
    paintRunning(room, me);
    paintStart(room, me);
  }

  return {
    el,
    start,
    update,
    destroy() {
      clearInterval(clockTimer);
    },
  };
}

/**
 * The host's "Players may vote to remove someone" for a private room, in the lobby (a public
 * room always has votes: the line says so). `send(allow)` asks the room. Returns {el,
 * update(room, amHost)}.
 */
export function createVoteSetting(app) {
  const box = h("input", { type: "checkbox", id: "allow-votes" });
  const error = h("p", { class: "field-error", id: "allow-votes-error", hidden: true });
  const line = h("p", { class: "hint", id: "votes-public-note" });
  const field = h("label", { class: "checkbox", for: "allow-votes" }, box, ht("span", {}, "votes.allow"));
  const el = h("div", { class: "vote-setting", id: "vote-setting" }, field, line, error);
  box.addEventListener("change", () =>
    app.conn.request("allow_votes", { allow: box.checked }).then(
      () => showError(error, null),
      (refusal) => {
        showError(error, refusal);
        box.checked = !box.checked;
      },
    ),
  );

  function update(room, amHost) {
    const allowed = Boolean(room.votes?.allowed);
    field.hidden = room.public;
    box.disabled = !(amHost && room.status === "lobby");
    if (document.activeElement !== box) box.checked = allowed;
    tx(line, room.public ? "votes.public_note" : allowed ? "votes.allowed_note" : "votes.not_allowed_note");
  }

  return { el, update };
}
