// Haiclue's small pieces: colour symbols, the four targets, the co-op meter, the podium, and
// keeping the keyboard focus across a re-render.

import { h, ht, replace, tx } from "../../js/dom.js";
import { keepFocus as sharedKeepFocus } from "../../js/view_helpers.js";

export const COLOURS = ["red", "yellow", "green", "blue"];
export const SYMBOL_OF = { red: "circle", yellow: "triangle", green: "square", blue: "diamond" };

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/** The colour's symbol, filled with the colour (colour-blind players read the shape). */
export function symbol(colour, size = 22) {
  const shape = SYMBOL_OF[colour] || "circle";
  const root = svg("svg", { viewBox: "0 0 20 20", width: size, height: size, class: `hc-symbol hc-c-${colour}`, "aria-hidden": "true", focusable: "false" });
  const paint = { class: "hc-symbol-shape" };
  if (shape === "circle") root.append(svg("circle", { cx: 10, cy: 10, r: 8, ...paint }));
  else if (shape === "triangle") root.append(svg("polygon", { points: "10,1.5 18.8,17.5 1.2,17.5", ...paint }));
  else if (shape === "square") root.append(svg("rect", { x: 2.5, y: 2.5, width: 15, height: 15, rx: 1.5, ...paint }));
  else root.append(svg("polygon", { points: "10,0.8 19.2,10 10,19.2 0.8,10", ...paint }));
  return root;
}

/** A small chip: the symbol and the colour's name. */
export function colourChip(colour, attrs = {}) {
  return h(
    "span",
    { class: `hc-chip hc-c-${colour}`, dataset: { colour }, ...attrs },
    symbol(colour, 16),
    ht("span", {}, `game.haiclue.colour.${colour}`),
  );
}

/**
 * Run `fn` (which rebuilds part of `root`) and give the focus back to the element with the same
 * data-focus key, or to a fallback ("clue:ocean" falls back to "rack:ocean").
 */
export function keepFocus(root, fn) {
  sharedKeepFocus(root, fn, (key) => {
    const rest = key.includes(":") ? key.slice(key.indexOf(":") + 1) : key;
    return [key, `clue:${rest}`, `rack:${rest}`, `guess:${rest}`];
  });
}

/**
 * The four targets. `marks` decorates them: {mine: colour|null, mineQuiet (your card as a
 * small reminder, not a highlight: while you guess another's clue), card: {colour, author,
 * name}|null, guesses: {colour: [{id, nickname}]}, myGuess, pick: fn(colour)|null (guess
 * buttons), anim}.
 */
export function paintTargets(list, ctx, targets, marks) {
  replace(
    list,
    targets.map((target) => {
      const { colour, word } = target;
      const mine = marks.mine === colour;
      const card = marks.card && marks.card.colour === colour ? marks.card : null;
      const picked = marks.myGuess === colour;
      const guessers = marks.guesses?.[colour] || [];
      const classes = ["hc-target", `hc-c-${colour}`];
      if (mine) classes.push(marks.mineQuiet ? "is-my-card quiet" : "is-my-card");
      if (card) classes.push("is-card");
      if (picked) classes.push("is-picked");
      if (marks.anim === "flip") classes.push("hc-anim-flip");
      if (marks.anim === "pass") classes.push("hc-anim-new");
      const inner = [
        h(
          "span",
          { class: "hc-target-top" },
          symbol(colour, 26),
          ht("span", { class: "hc-target-colour" }, `game.haiclue.colour.${colour}`),
          ht("span", { class: "hc-target-left" }, "game.haiclue.stack_left", { count: target.left }),
        ),
        h("span", { class: `hc-target-word side-${marks.side}` }, word ?? "—"),
      ];
      if (mine && !marks.mineQuiet) inner.push(ht("span", { class: "hc-flag hc-flag-mine", dataset: { cardOf: ctx.me } }, "game.haiclue.your_card"));
      if (card) inner.push(ht("span", { class: "hc-flag hc-flag-card", dataset: { cardOf: card.author } }, card.author === ctx.me ? "game.haiclue.your_card" : "game.haiclue.reveal.card_of", { name: card.name }));
      if (picked) inner.push(ht("span", { class: "hc-flag hc-flag-pick" }, "game.haiclue.guess.your_pick"));
      // After your guess, a small reminder (no highlight) of the card your own clue is for.
      if (mine && marks.mineQuiet) inner.push(ht("span", { class: "hc-flag hc-flag-mine quiet", dataset: { cardOf: ctx.me } }, "game.haiclue.your_clue_card"));
      if (guessers.length) {
        inner.push(
          h(
            "span",
            { class: "hc-guessers" },
            guessers.map((p) => h("span", { class: "hc-guesser" }, ctx.avatar(p.id, p.nickname, { size: "sm" }), h("span", { class: "name" }, p.nickname))),
          ),
        );
      }
      let body;
      if (marks.pick) {
        // Named by what it shows (colour, tiles left, word, its marks), after a hidden "Guess:":
        // a label of its own hid the visible words from speech input (axe:
        // label-content-name-mismatch).
        body = h("button", { type: "button", class: "hc-target-body hc-guess", dataset: { colour, focus: `guess:${colour}` } }, ht("span", { class: "visually-hidden" }, "game.haiclue.guess.button"), " ", inner);
        body.addEventListener("click", () => marks.pick(colour));
      } else {
        body = h("div", { class: "hc-target-body" }, inner);
      }
      return h("li", { class: classes.join(" "), dataset: { colour, symbol: SYMBOL_OF[colour] } }, body);
    }),
  );
}

/** The co-op meter: 0…perfect, with the goal (6) and perfect (8) marks. */
export function paintMeter(box, view) {
  const goal = view.team_goal ?? 6;
  const perfect = view.team_perfect ?? 8;
  const score = view.team_score ?? 0;
  const top = Math.max(perfect, score);
  const cells = [];
  for (let i = 1; i <= top; i++) {
    cells.push(
      h(
        "span",
        { class: `hc-meter-cell${i <= score ? " filled" : ""}${i === goal ? " goal" : ""}${i === perfect ? " perfect" : ""}` },
        i === goal || i === perfect ? h("span", { class: "hc-meter-mark" }, String(i)) : null,
      ),
    );
  }
  const meter = h(
    "div",
    { class: "hc-meter", role: "meter", id: "hc-meter", "aria-valuemin": 0, "aria-valuemax": top, "aria-valuenow": score },
    cells,
  );
  tx(meter, "game.haiclue.coop.meter_label", { score, goal, perfect }, "aria-label");
  const state = score >= perfect ? "perfect" : score >= goal ? "won" : "short";
  replace(
    box,
    h(
      "div",
      { class: "hc-meter-head" },
      ht("h2", { id: "hc-meter-title" }, "game.haiclue.coop.title"),
      h("strong", { class: "hc-team-score", id: "hc-team-score" }, String(score)),
    ),
    meter,
    h(
      "div",
      { class: "hc-meter-legend" },
      ht("span", { class: "goal" }, "game.haiclue.coop.goal_mark", { goal }),
      ht("span", { class: "perfect" }, "game.haiclue.coop.perfect_mark", { perfect }),
    ),
    ht("p", { class: `hc-meter-note ${state}` }, `game.haiclue.coop.${state}`, { count: Math.max(0, goal - score), score, goal, perfect }),
  );
}

/** The end screen: places (ties share one), or the team's result. */
export function paintPodium(box, ctx, view) {
  const ranking = view.ranking || [];
  if (view.cooperative) {
    const score = view.team_score ?? 0;
    const state = score >= (view.team_perfect ?? 8) ? "perfect" : score >= (view.team_goal ?? 6) ? "won" : "lost";
    replace(
      box,
      ht("h2", { id: "hc-end-title" }, "game.haiclue.end.title"),
      ht("p", { class: `hc-end-team ${state}`, id: "hc-end-result" }, `game.haiclue.end.team_${state}`, { score, goal: view.team_goal ?? 6, perfect: view.team_perfect ?? 8 }),
      h(
        "ol",
        { class: "podium hc-podium" },
        ranking.map((p) =>
          h(
            "li",
            { class: `podium-row place-1${p.winner ? " winner" : ""}` },
            h("span", { class: "place" }, "1"),
            ctx.avatar(p.seat, p.nickname),
            h("span", { class: "name" }, p.nickname),
            p.winner ? ht("span", { class: "pill win" }, "home.winner") : null,
          ),
        ),
      ),
    );
    return;
  }
  const places = new Map();
  for (const p of ranking) places.set(p.place, (places.get(p.place) || 0) + 1);
  replace(
    box,
    ht("h2", { id: "hc-end-title" }, "game.haiclue.end.title"),
    h(
      "ol",
      { class: "podium hc-podium", id: "hc-podium" },
      ranking.map((p) =>
        h(
          "li",
          { class: `podium-row place-${Math.min(p.place, 4)}${p.winner ? " winner" : ""}`, dataset: { place: p.place, seat: p.seat } },
          h("span", { class: "place" }, String(p.place)),
          ctx.avatar(p.seat, p.nickname),
          h("span", { class: "name" }, p.nickname),
          places.get(p.place) > 1 ? ht("span", { class: "pill shared" }, "game.haiclue.end.shared") : null,
          p.winner ? ht("span", { class: "pill win" }, "home.winner") : null,
          ht("span", { class: "score" }, "game.haiclue.points", { count: p.score }),
        ),
      ),
    ),
  );
}
