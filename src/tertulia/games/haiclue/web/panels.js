// Haiclue's read-only panels: the players' progress, the round's history, the rows of a reveal,
// and the small queries on a view they share with the screen.

import { h, ht, replace } from "../../js/dom.js";
import { colourChip } from "./parts.js";

/** The result on show in a reveal (the clue being read, scored), else null. */
export function currentResult(v) {
  if (v.phase !== "reveal" || !v.reading) return null;
  const last = v.results?.[v.results.length - 1];
  return last && last.author === v.reading.author ? last : null;
}

/** Who the current step waits for: connected players still to act. */
export function waitingFor(v) {
  const players = (v.players || []).filter((p) => !p.left && p.online !== false);
  if (v.phase === "build") return players.filter((p) => !p.finished).map((p) => p.id);
  if (v.phase === "guess") {
    const guessed = new Set(v.guessed || []);
    return players.filter((p) => p.id !== v.reading?.author && !guessed.has(p.id)).map((p) => p.id);
  }
  if (v.phase === "reveal") {
    const ready = new Set(v.ready || []);
    return players.filter((p) => !ready.has(p.id)).map((p) => p.id);
  }
  return [];
}

/** A clue as a row of word tiles. */
export function clueTiles(words, sideName, attrs = {}) {
  return h("span", { class: "hc-clue-words", ...attrs }, words.map((w) => h("span", { class: `hc-tile static side-${sideName}` }, w)));
}

/** The word on top of the stack of `colour`. */
export function targetWord(v, colour) {
  return v.targets?.find((t) => t.colour === colour)?.word ?? "";
}

/** A reveal's rows: each player's guess, right or wrong, and their points. */
export function resultRows(ctx, v, result) {
  return (v.players || [])
    .filter((p) => !p.left || result.guesses[p.id] || result.author === p.id)
    .map((p) => {
      const isAuthor = p.id === result.author;
      const guess = result.guesses[p.id];
      const right = guess && guess === result.card;
      const points = v.cooperative ? (right ? 1 : 0) : (result.points[p.id] ?? 0);
      return h(
        "li",
        { class: `hc-result-row${right ? " right" : ""}${isAuthor ? " author" : ""}`, dataset: { player: p.id } },
        ctx.avatar(p.id, p.nickname, { size: "sm" }),
        h("span", { class: "name" }, p.nickname),
        p.id === ctx.me ? ht("span", { class: "pill you" }, "lobby.you") : null, // find yourself
        isAuthor
          ? ht("span", { class: "hc-what muted" }, "game.haiclue.reveal.wrote")
          : guess
            ? h("span", { class: "hc-what" }, colourChip(guess), ht("span", { class: `hc-mark ${right ? "yes" : "no"}` }, right ? "game.haiclue.reveal.right_mark" : "game.haiclue.reveal.wrong_mark"))
            : ht("span", { class: "hc-what muted" }, "game.haiclue.reveal.no_guess"),
        v.cooperative && isAuthor ? null : ht("span", { class: "score" }, "game.haiclue.plus", { count: points }),
      );
    });
}

/** Everyone's progress in this step (building, guessed, ready…) and score. */
export function paintPlayers(playersList, ctx, v) {
  const waiting = new Set(waitingFor(v));
  const guessed = new Set(v.guessed || []);
  const ready = new Set(v.ready || []);
  replace(
    playersList,
    (v.players || []).map((p) => {
      let state = null;
      if (p.left) state = "left";
      else if (v.phase === "build") state = p.finished ? "finished" : "building";
      else if (v.phase === "guess") state = p.id === v.reading?.author ? "author" : guessed.has(p.id) ? "guessed" : "guessing";
      else if (v.phase === "reveal") state = ready.has(p.id) ? "ready" : "looking";
      return h(
        "li",
        { class: `hc-player${p.id === ctx.me ? " is-me" : ""}${p.left ? " left" : ""}`, dataset: { player: p.id, state: state || "" } },
        ctx.avatar(p.id, p.nickname, { offline: p.online === false }),
        h(
          "span",
          { class: "hc-player-main" },
          h("span", { class: "name" }, p.nickname),
          p.id === ctx.me ? ht("span", { class: "pill you" }, "lobby.you") : null,
          p.online === false && !p.left ? ht("span", { class: "pill" }, "lobby.offline") : null,
          state ? ht("span", { class: `pill hc-state state-${state}${waiting.has(p.id) ? " waiting" : ""}` }, `game.haiclue.players.${state}${state === "author" && p.id === ctx.me ? "_you" : ""}`) : null,
        ),
        v.cooperative ? null : h("span", { class: "score" }, String(p.score)),
      );
    }),
  );
}

/** The clues scored earlier this round (or last round, while building and at the end). */
export function paintHistory(historyBox, ctx, v, nick) {
  const current = currentResult(v);
  let list = (v.results || []).filter((r) => r !== current);
  let key = "game.haiclue.history.this_round";
  if (v.phase === "build" || v.phase === "ended") {
    list = v.last_round || [];
    key = "game.haiclue.history.last_round";
  }
  historyBox.hidden = !list.length;
  if (!list.length) return void replace(historyBox);
  replace(
    historyBox,
    ht("h2", { id: "hc-history-title" }, key),
    h(
      "ol",
      { class: "hc-history-list" },
      list.map((r) => {
        const right = Object.values(r.guesses).filter((c) => c === r.card).length;
        return h(
          "li",
          { class: "hc-history-row" },
          h("span", { class: "hc-history-who" }, ctx.avatar(r.author, nick(r.author), { size: "sm" }), h("span", { class: "name" }, nick(r.author))),
          h("span", { class: "hc-history-clue" }, r.words.join(" ")),
          h("span", { class: "hc-history-card" }, colourChip(r.card), ht("span", { class: "muted" }, "game.haiclue.history.right", { count: right })),
        );
      }),
    ),
  );
}
