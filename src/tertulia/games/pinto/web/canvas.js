// Drawings as vectors on a 1000 × 1000 canvas (drawing.py): the renderer, the same on every
// device whatever the displayed size, and the drawing pad (pointer events, so a mouse, a pen
// and a finger all draw; `touch-action: none` in pinto.css keeps the page from scrolling).

import { h, ht, label, tx } from "../../js/dom.js";

export const CANVAS = 1000;
export const PAPER = "#ffffff";
export const PALETTE = ["#1d1d1f", "#e03131", "#f08c00", "#fcc419", "#2f9e44", "#1971c2", "#7048e8", "#e64980", "#8d5524", "#ffffff"];
export const COLOUR_NAMES = ["black", "red", "orange", "yellow", "green", "blue", "violet", "pink", "brown", "white"];
export const ERASER = "eraser";
export const SIZES = [2, 5, 10, 20, 40];
export const SIZE_NAMES = ["xs", "s", "m", "l", "xl"];
const SIZE_DOTS = [3, 6, 10, 16, 24]; // px of the size buttons' dots: each visibly apart
// The server's caps are 600 strokes and 30,000 points; we stop well below.
const MAX_STROKES = 580;
const MAX_POINTS = 24000;
const MIN_STEP = 3; // canvas units between two kept points: the simplification

function strokeStyle(stroke) {
  return stroke.colour === ERASER ? PAPER : stroke.colour;
}

/** Paint `strokes` on a 2D context whose canvas is `pixels` wide (square). */
export function paintStrokes(g, strokes, pixels) {
  const scale = pixels / CANVAS;
  g.setTransform(scale, 0, 0, scale, 0, 0);
  g.fillStyle = PAPER;
  g.fillRect(0, 0, CANVAS, CANVAS);
  g.lineCap = "round";
  g.lineJoin = "round";
  for (const stroke of strokes || []) paintStroke(g, stroke);
  g.setTransform(1, 0, 0, 1, 0, 0);
}

function paintStroke(g, stroke) {
  const p = stroke.points;
  if (!Array.isArray(p) || p.length < 2) return;
  const colour = strokeStyle(stroke);
  g.strokeStyle = colour;
  g.fillStyle = colour;
  g.lineWidth = stroke.size;
  if (p.length === 2) {
    g.beginPath();
    g.arc(p[0], p[1], stroke.size / 2, 0, Math.PI * 2);
    g.fill();
    return;
  }
  // Quadratic curves through the midpoints: smooth, and the same on every screen.
  g.beginPath();
  g.moveTo(p[0], p[1]);
  for (let i = 2; i < p.length - 2; i += 2) {
    g.quadraticCurveTo(p[i], p[i + 1], (p[i] + p[i + 2]) / 2, (p[i + 1] + p[i + 3]) / 2);
  }
  g.lineTo(p[p.length - 2], p[p.length - 1]);
  g.stroke();
}

export function countPoints(strokes) {
  return strokes.reduce((sum, s) => sum + s.points.length / 2, 0);
}

// One observer for every canvas on the page: repaint at the displayed size × devicePixelRatio.
const painters = new WeakMap();
const observer = typeof ResizeObserver === "function" ? new ResizeObserver((entries) => {
  for (const entry of entries) painters.get(entry.target)?.();
}) : null;

function fitAndPaint(canvas, strokesOf) {
  const paint = () => {
    const css = canvas.clientWidth;
    if (!css) return;
    const pixels = Math.max(1, Math.round(css * (window.devicePixelRatio || 1)));
    if (canvas.width !== pixels) {
      canvas.width = pixels;
      canvas.height = pixels;
    }
    paintStrokes(canvas.getContext("2d"), strokesOf(), pixels);
  };
  painters.set(canvas, paint);
  observer?.observe(canvas);
  return paint;
}

/** A finished drawing (read-only): a square canvas named for screen readers. */
export function drawingView(strokes, { labelKey, labelParams, className = "" } = {}) {
  const canvas = h("canvas", { class: "pn-art", role: "img" });
  if (labelKey) label(canvas, labelKey, labelParams);
  const frame = h("div", { class: `pn-art-frame ${className}`.trim() }, canvas);
  if (!strokes) {
    frame.classList.add("missing");
    frame.append(ht("p", { class: "pn-art-missing" }, "game.pinto.drawing.missing"));
  }
  const paint = fitAndPaint(canvas, () => strokes || []);
  requestAnimationFrame(paint);
  return frame;
}

/**
 * The drawing pad. `onChange(strokes)` after every finished stroke, undo and clear.
 * Returns {el, strokes(), setStrokes(list), setLocked(key|null), destroy()}.
 */
export function createPad({ onChange }) {
  let strokes = [];
  const undoStack = []; // "stroke" or {cleared: the strokes before}
  let colour = PALETTE[0];
  let size = SIZES[2];
  let eraser = false;
  let active = null; // {id, stroke}
  let locked = null;
  let frame = 0;

  const canvas = h("canvas", { class: "pn-pad-canvas", id: "pn-pad", role: "img" });
  label(canvas, "game.pinto.pad.label");
  const rule = ht("p", { class: "pn-rule", id: "pn-rule" }, "game.pinto.pad.rule");
  const lockText = h("p", { class: "pn-pad-lock-text" });
  const lock = h("div", { class: "pn-pad-lock", hidden: true }, lockText);
  const full = ht("p", { class: "pn-pad-full", hidden: true, role: "status" }, "game.pinto.pad.full");
  const surface = h("div", { class: "pn-pad-surface" }, canvas, lock);

  const swatches = PALETTE.map((value, i) =>
    label(
      h("button", { type: "button", class: "pn-swatch", dataset: { colour: value }, style: `--swatch: ${value}`, id: `pn-colour-${COLOUR_NAMES[i]}` }),
      `game.pinto.colour.${COLOUR_NAMES[i]}`,
    ),
  );
  const sizeButtons = SIZES.map((value, i) =>
    label(
      h(
        "button",
        { type: "button", class: "pn-size", dataset: { size: String(value) }, id: `pn-size-${value}` },
        h("span", { class: "pn-size-dot", style: `--dot: ${SIZE_DOTS[i]}px` }),
      ),
      `game.pinto.size.${SIZE_NAMES[i]}`,
    ),
  );
  const eraserButton = ht("button", { type: "button", class: "pn-tool", id: "pn-eraser" }, "game.pinto.pad.eraser");
  const undoButton = ht("button", { type: "button", class: "pn-tool", id: "pn-undo" }, "game.pinto.pad.undo");
  const clearButton = ht("button", { type: "button", class: "pn-tool", id: "pn-clear" }, "game.pinto.pad.clear");
  const colourGroup = h("div", { class: "pn-swatches", role: "group" }, swatches);
  label(colourGroup, "game.pinto.pad.colours");
  const sizeGroup = h("div", { class: "pn-sizes", role: "group" }, sizeButtons);
  label(sizeGroup, "game.pinto.pad.sizes");
  const tools = h(
    "div",
    { class: "pn-tools", id: "pn-tools" },
    colourGroup,
    h("div", { class: "pn-tool-row" }, sizeGroup, eraserButton),
    h("div", { class: "pn-tool-row" }, undoButton, clearButton),
  );
  // The rule sits above the paper, not on it: over the drawing it had to fade to be out of
  // the way, and players did not see it (issue 19).
  const el = h("div", { class: "pn-pad" }, rule, surface, full, tools);

  swatches.forEach((button) =>
    button.addEventListener("click", () => {
      colour = button.dataset.colour;
      eraser = false;
      paintTools();
    }),
  );
  sizeButtons.forEach((button) =>
    button.addEventListener("click", () => {
      size = Number(button.dataset.size);
      paintTools();
    }),
  );
  eraserButton.addEventListener("click", () => {
    eraser = !eraser;
    paintTools();
  });
  undoButton.addEventListener("click", () => {
    const last = undoStack.pop();
    if (!last) return;
    if (last === "stroke") strokes = strokes.slice(0, -1);
    else strokes = last.cleared;
    changed();
  });
  clearButton.addEventListener("click", () => {
    if (!strokes.length) return;
    undoStack.push({ cleared: strokes });
    strokes = [];
    changed();
  });

  function paintTools() {
    for (const b of swatches) b.setAttribute("aria-pressed", String(!eraser && b.dataset.colour === colour));
    for (const b of sizeButtons) b.setAttribute("aria-pressed", String(Number(b.dataset.size) === size));
    eraserButton.setAttribute("aria-pressed", String(eraser));
    undoButton.disabled = !undoStack.length && !strokes.length;
    clearButton.disabled = !strokes.length;
    surface.classList.toggle("erasing", eraser);
    const budget = strokes.length >= MAX_STROKES || countPoints(strokes) >= MAX_POINTS;
    full.hidden = !budget;
  }

  function changed() {
    schedule();
    paintTools();
    onChange?.(strokes);
  }

  const paintNow = fitAndPaint(canvas, () => (active ? [...strokes, active.stroke] : strokes));
  function schedule() {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      paintNow();
    });
  }

  function point(event) {
    const rect = canvas.getBoundingClientRect();
    const x = Math.round(((event.clientX - rect.left) / rect.width) * CANVAS);
    const y = Math.round(((event.clientY - rect.top) / rect.height) * CANVAS);
    return [Math.min(CANVAS, Math.max(0, x)), Math.min(CANVAS, Math.max(0, y))];
  }

  function onDown(event) {
    if (locked || active) return;
    if (event.pointerType === "mouse" && event.button !== 0) return;
    if (strokes.length >= MAX_STROKES || countPoints(strokes) >= MAX_POINTS) {
      paintTools();
      return;
    }
    event.preventDefault();
    try {
      canvas.setPointerCapture(event.pointerId);
    } catch {
      // a synthetic pointer cannot be captured; drawing still works
    }
    active = { id: event.pointerId, stroke: { colour: eraser ? ERASER : colour, size, points: point(event) } };
    surface.classList.add("drawing");
    schedule();
  }

  function onMove(event) {
    if (!active || event.pointerId !== active.id) return;
    event.preventDefault();
    const events = typeof event.getCoalescedEvents === "function" ? event.getCoalescedEvents() : [];
    for (const e of events.length ? events : [event]) add(point(e));
    schedule();
  }

  function add([x, y], force = false) {
    const p = active.stroke.points;
    const dx = x - p[p.length - 2];
    const dy = y - p[p.length - 1];
    if (!force && dx * dx + dy * dy < MIN_STEP * MIN_STEP) return;
    if (dx === 0 && dy === 0) return;
    if (countPoints(strokes) + p.length / 2 >= MAX_POINTS) return;
    p.push(x, y);
  }

  function onUp(event) {
    if (!active || event.pointerId !== active.id) return;
    if (event.type === "pointerup") add(point(event), true);
    const stroke = active.stroke;
    active = null;
    surface.classList.remove("drawing");
    strokes = [...strokes, { colour: stroke.colour, size: stroke.size, points: stroke.points }];
    undoStack.push("stroke");
    changed();
  }

  canvas.addEventListener("pointerdown", onDown);
  canvas.addEventListener("pointermove", onMove);
  canvas.addEventListener("pointerup", onUp);
  canvas.addEventListener("pointercancel", onUp);
  canvas.addEventListener("lostpointercapture", onUp);
  canvas.addEventListener("contextmenu", (event) => event.preventDefault());
  paintTools();
  requestAnimationFrame(paintNow);

  return {
    el,
    strokes: () => strokes,
    setStrokes(list) {
      strokes = Array.isArray(list) ? list : [];
      undoStack.length = 0;
      for (let i = 0; i < strokes.length; i++) undoStack.push("stroke");
      schedule();
      paintTools();
    },
    /** Block drawing with a reason shown over the canvas (null: draw freely). */
    setLocked(key) {
      locked = key;
      lock.hidden = !key;
      if (key) tx(lockText, key);
      for (const b of [...swatches, ...sizeButtons, eraserButton, undoButton, clearButton]) {
        if (key) b.disabled = true;
      }
      if (!key) {
        for (const b of [...swatches, ...sizeButtons, eraserButton]) b.disabled = false;
        paintTools();
      }
    },
    destroy() {
      if (frame) cancelAnimationFrame(frame);
      observer?.unobserve(canvas);
    },
  };
}
