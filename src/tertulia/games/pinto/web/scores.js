// The players (everyone's progress in phase B, the scores), the round's results when a new
// round starts, and the final scores with the tie-break explained (best single round, then a
// shared victory).

import { h, ht, replace, tx } from "../../js/dom.js";
import { drawingView } from "./canvas.js";
import { createAlbum, readings } from "./recap.js";
import { nicknameOf, signed } from "./util.js";

/** One line of progress for a player in phase B. */
function progressKey(p) {
  const g = p.progress;
  if (!g) return ["game.pinto.progress.next_round", {}, "next"];
  if (g.done) return ["game.pinto.progress.done", {}, "done"];
  if (!g.titled) return ["game.pinto.progress.title", {}, "title"];
  if (!g.revealed) return ["game.pinto.progress.drawing", {}, "drawing"];
  return ["game.pinto.progress.interpreting", { done: g.interpreted, of: g.of }, "interpreting"];
}

export function createPlayers(ctx) {
  const list = h("ol", { class: "pn-players", id: "pn-players", "aria-labelledby": "pn-players-title" });
  const el = h("section", { class: "card pn-players-card", "aria-labelledby": "pn-players-title" }, ht("h2", { id: "pn-players-title" }, "game.pinto.players.title"), list);

  function update(push) {
    const view = push.view || {};
    const artist = view.judging?.artist;
    replace(
      list,
      (view.players || []).map((p) => {
        const [key, params, state] = progressKey(p);
        const offline = p.online === false;
        let line = null;
        if (p.left) line = ht("span", { class: "pn-progress" }, "game.pinto.progress.left");
        else if (view.phase === "create") line = ht("span", { class: `pn-progress is-${state}` }, key, params);
        else if (view.phase === "judge" && p.id === artist) line = ht("span", { class: "pn-progress is-artist" }, "game.pinto.progress.artist");
        const bar = view.phase === "create" && p.progress && !p.left ? progressBar(p.progress) : null;
        return h(
          "li",
          { class: `pn-player${p.id === ctx.me ? " is-me" : ""}${p.left ? " left" : ""}`, dataset: { player: p.id, state: p.left ? "left" : state } },
          ctx.avatar(p.id, p.nickname, { offline }),
          h(
            "div",
            { class: "pn-player-main" },
            h("span", { class: "name" }, p.nickname),
            h("span", { class: "pn-player-sub" }, p.id === ctx.me ? ht("span", { class: "pill you" }, "lobby.you") : null, p.id === view.host ? ht("span", { class: "pill host" }, "lobby.host") : null, offline && !p.left ? ht("span", { class: "pill" }, "lobby.offline") : null, line),
            bar,
          ),
          h("span", { class: "score", "aria-label": ctx.t("game.pinto.players.points", { count: p.score }) }, String(p.score)),
        );
      }),
    );
  }
  return { el, update };
}

function progressBar(g) {
  // Title, drawing, then one step per drawing to interpret.
  const total = 2 + g.of;
  const done = (g.titled ? 1 : 0) + (g.revealed ? 1 : 0) + g.interpreted;
  return h("span", { class: "pn-bar", "aria-hidden": "true" }, h("span", { class: "pn-bar-fill", style: `width: ${Math.round((100 * Math.min(done, total)) / total)}%` }));
}

/** The result of each drawing of a round: thumbnail, title, points, who said what. */
function resultList(ctx, push, judgements, titles, blobs, round) {
  return h(
    "ul",
    { class: "pn-results" },
    judgements.map((j) => {
      const name = nicknameOf(push, j.artist);
      const strokes = blobs.get(`drawing:${round}:${j.artist}`);
      const entries = Object.entries(j.points || {});
      const title = titles?.[j.artist] ?? j.title;
      return h(
        "li",
        { class: "pn-result", dataset: { artist: j.artist } },
        drawingView(strokes, { labelKey: "game.pinto.drawing.by", labelParams: { name }, className: "pn-thumb" }),
        h(
          "div",
          { class: "pn-result-text" },
          h("span", { class: "name" }, name),
          title ? h("strong", { class: "pn-result-title" }, title) : null,
          entries.length
            ? h("span", { class: "pn-result-points" }, entries.map(([seat, p]) => `${nicknameOf(push, seat)} ${signed(p)}`).join(" · "))
            : ht("span", { class: "hint" }, "game.pinto.show.no_points"),
          readings(push, j),
        ),
      );
    }),
  );
}

/** "Round 2 results", shown when the next round starts, until dismissed. */
export function createRoundResults(ctx) {
  const el = h("section", { class: "card pn-round-results", id: "pn-round-results", hidden: true, "aria-labelledby": "pn-round-results-title" });
  let shownFor = null;
  let dismissed = null;

  function update(push, blobs, titlesByRound) {
    const view = push.view || {};
    const round = (view.round || 1) - 1;
    const show = view.phase === "create" && round >= 1 && (view.last_round || []).length && dismissed !== round;
    el.hidden = !show;
    if (!show || shownFor === round) return;
    shownFor = round;
    const rows = [...(view.players || [])]
      .filter((p) => !p.left)
      .sort((a, b) => b.score - a.score)
      .map((p) => {
        const gained = p.round_scores?.[round - 1] ?? 0;
        return h("tr", { dataset: { player: p.id } }, h("th", { scope: "row" }, h("span", { class: "pn-cell-name" }, ctx.avatar(p.id, p.nickname, { size: "sm" }), p.nickname)), h("td", {}, signed(gained)), h("td", {}, String(p.score)));
      });
    const close = ht("button", { type: "button", class: "ghost", id: "pn-round-results-close" }, "game.pinto.results.close");
    close.addEventListener("click", () => {
      dismissed = round;
      el.hidden = true;
    });
    replace(
      el,
      h("div", { class: "pn-card-head" }, ht("h2", { id: "pn-round-results-title" }, "game.pinto.results.title", { round }), close),
      h(
        "table",
        { class: "pn-table" },
        h("thead", {}, h("tr", {}, ht("th", { scope: "col" }, "game.pinto.results.player"), ht("th", { scope: "col" }, "game.pinto.results.round_points"), ht("th", { scope: "col" }, "game.pinto.results.total"))),
        h("tbody", {}, rows),
      ),
      resultList(ctx, push, view.last_round, titlesByRound.get(round), blobs, round),
    );
  }
  return { el, update };
}

/** The final scores: podium, points per round, the tie-break explained, and the album. */
export function createFinal(ctx) {
  const el = h("section", { class: "card pn-final", id: "pn-final", hidden: true, "aria-labelledby": "pn-final-title" });
  const album = createAlbum(ctx); // every round's drawings, downloadable as an image
  let signature = null;

  function tieNotes(push, ranking) {
    const notes = [];
    const byScore = new Map();
    for (const p of ranking) byScore.set(p.score, [...(byScore.get(p.score) || []), p]);
    for (const [score, group] of byScore) {
      if (group.length < 2) continue;
      const places = new Set(group.map((p) => p.place));
      const who = group.map((p) => p.nickname).join(", ");
      if (places.size === 1) {
        const key = group[0].place === 1 ? "game.pinto.final.shared_win" : "game.pinto.final.shared_place";
        notes.push(ht("li", {}, key, { names: who, score, best: group[0].best_round, place: group[0].place }));
      } else {
        const order = group.map((p) => ctx.t("game.pinto.final.best_of", { name: p.nickname, best: p.best_round })).join(", ");
        notes.push(ht("li", {}, "game.pinto.final.tiebreak", { names: who, score, order, name: group[0].nickname }));
      }
    }
    return notes;
  }

  function update(push, blobs) {
    const view = push.view || {};
    const ranking = view.ranking;
    el.hidden = !(push.room.status === "ended" || view.phase === "ended") || !Array.isArray(ranking);
    if (el.hidden) return;
    const sig = JSON.stringify([ranking, view.round, (view.past_rounds || []).length, blobs.size]);
    if (sig === signature) return;
    signature = sig;
    const rounds = Math.max(0, ...(view.players || []).map((p) => (p.round_scores || []).length));
    const byId = new Map((view.players || []).map((p) => [p.id, p]));
    const notes = tieNotes(push, ranking);
    replace(
      el,
      ht("h2", { id: "pn-final-title" }, "game.pinto.final.title"),
      view.end_reason === "too_few_players" ? ht("p", { class: "hint" }, "game.pinto.final.too_few") : null,
      h(
        "ol",
        { class: "podium pn-podium", id: "pn-podium" },
        ranking.map((p) =>
          h(
            "li",
            { class: `podium-row place-${Math.min(p.place, 4)}${p.winner ? " winner" : ""}`, dataset: { player: p.seat } },
            h("span", { class: "place" }, String(p.place)),
            ctx.avatar(p.seat, p.nickname),
            h("span", { class: "name" }, p.nickname),
            p.winner ? ht("span", { class: "pill win" }, "home.winner") : null,
            ht("span", { class: "pn-best hint" }, "game.pinto.final.best_round", { best: p.best_round }),
            h("span", { class: "score" }, String(p.score)),
          ),
        ),
      ),
      h(
        "div",
        { class: "pn-table-wrap" },
        h(
          "table",
          { class: "pn-table", id: "pn-final-table" },
          h("thead", {}, h("tr", {}, ht("th", { scope: "col" }, "game.pinto.results.player"), Array.from({ length: rounds }, (_, i) => ht("th", { scope: "col" }, "game.pinto.final.round_short", { round: i + 1 })), ht("th", { scope: "col" }, "game.pinto.results.total"))),
          h(
            "tbody",
            {},
            ranking.map((p) => {
              const scores = byId.get(p.seat)?.round_scores || [];
              const best = Math.max(...scores, -Infinity);
              return h("tr", {}, h("th", { scope: "row" }, p.nickname), Array.from({ length: rounds }, (_, i) => h("td", { class: scores[i] === best && best > 0 ? "pn-best-cell" : null }, scores[i] === undefined ? "–" : String(scores[i]))), h("td", {}, h("strong", {}, String(p.score))));
            }),
          ),
        ),
      ),
      ht("p", { class: "hint pn-tiebreak-rule" }, "game.pinto.final.rule"),
      notes.length ? h("ul", { class: "pn-tie-notes", id: "pn-tie-notes" }, notes) : null,
      album.el,
    );
    album.update(push, blobs);
  }
  return { el, update };
}
