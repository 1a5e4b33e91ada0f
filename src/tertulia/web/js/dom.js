// Tiny DOM helpers. Text goes in with textContent only: every player-written string
// (nickname, chat line, clue) is shown as text and can never become markup.

import { errorKey, t } from "./i18n.js";

/**
 * Create an element: h("button", {class: "primary", onclick: fn, "aria-label": "x"}, child…).
 * Children are nodes or strings (strings become text nodes). Attributes whose value is
 * null, undefined or false are left out; `true` sets an empty attribute.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      el.addEventListener(name.slice(2), value);
    } else if (name === "class") {
      el.className = value;
    } else if (name === "dataset") {
      Object.assign(el.dataset, value);
    } else if (name === "value" || name === "checked" || name === "disabled") {
      el[name] = value;
    } else {
      el.setAttribute(name, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace all children of `el` with `children`. */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** Set plain text (never HTML). */
export function setText(el, text) {
  el.textContent = text === null || text === undefined ? "" : String(text);
  return el;
}

/**
 * Translated text that follows language changes: the key and params are kept on the element
 * so that `retranslate()` can render it again in the new language.
 * `attr` puts the translation in an attribute (aria-label, placeholder, title) instead.
 */
export function tx(el, key, params = null, attr = null) {
  const slot = attr ? `i18n${attrSlot(attr)}` : "i18n";
  el.dataset[slot] = key;
  if (params) el.dataset[`${slot}Params`] = JSON.stringify(params);
  else delete el.dataset[`${slot}Params`];
  paint(el, slot, attr);
  return el;
}

/** Shorthand: an element whose text is a translation. */
export function ht(tag, attrs, key, params = null) {
  return tx(h(tag, attrs), key, params);
}

/** A game's name from its own strings ("games.<game>.name"; until they load, the game's
 * folder name). */
export function gameName(tag, attrs, game) {
  return ht(tag, attrs, `games.${game}.name`, { __message: game });
}

/** An element with a translated accessible name (aria-label). */
export function label(el, key, params = null) {
  return tx(el, key, params, "aria-label");
}

const ATTRS = ["aria-label", "placeholder", "title", "alt"];

function attrSlot(attr) {
  // "aria-label" -> "AriaLabel": dataset names must be camel case.
  return attr.replace(/(^|-)([a-z])/g, (_, __, c) => c.toUpperCase());
}

function paint(el, slot, attr) {
  const key = el.dataset[slot];
  const raw = el.dataset[`${slot}Params`];
  const params = raw ? JSON.parse(raw) : {};
  const text = t(key, params, params.__message); // an error's English message, when it has one
  if (attr) el.setAttribute(attr, text);
  else el.textContent = text;
}

/** Render every translated element under `root` again (after the language changed). */
export function retranslate(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) paint(el, "i18n", null);
  for (const attr of ATTRS) {
    const slot = `i18n${attrSlot(attr)}`;
    const selector = `[data-i18n-${attr}]`;
    for (const el of root.querySelectorAll(selector)) paint(el, slot, attr);
  }
}

/**
 * Show a server error in place (translated, with the English message as the fallback).
 * `el` is the error slot next to the refused thing; passing `null` clears it.
 */
export function showError(el, error) {
  if (!error) {
    el.hidden = true;
    el.textContent = "";
    delete el.dataset.i18n;
    return;
  }
  const params = { ...(error.params || {}), __message: error.message || error.code };
  tx(el, errorKey(error.code), params);
  el.hidden = false;
}

/** A modal confirm ("Remove Ana?"), resolved with true or false. */
export function confirmDialog(messageKey, params, confirmKey) {
  return new Promise((resolve) => {
    const message = ht("p", { id: "confirm-text" }, messageKey, params);
    const cancel = ht("button", { type: "button", class: "ghost", value: "no" }, "common.cancel");
    const ok = ht("button", { type: "submit", class: "danger", value: "yes" }, confirmKey);
    const form = h("form", { method: "dialog" }, message, h("div", { class: "row end" }, cancel, ok));
    const dialog = h("dialog", { class: "confirm", "aria-labelledby": "confirm-text" }, form);
    cancel.addEventListener("click", () => dialog.close("no"));
    const opener = document.activeElement;
    dialog.addEventListener("close", () => {
      dialog.remove();
      // Give the focus back to what opened the dialog, if it is still on the page.
      if (opener && opener.isConnected && typeof opener.focus === "function") opener.focus();
      resolve(dialog.returnValue === "yes");
    });
    document.body.append(dialog);
    dialog.showModal();
    cancel.focus();
  });
}

const NARROW = matchMedia("(max-width: 959px)");

/** On a phone, when the game moves on to a new step: bring `el`'s top just under the sticky
 * status bar if it is out of sight (a player scrolled down to the last step's controls would
 * otherwise meet the new step half-hidden, its clock under the bar). Wide screens are left
 * alone: the steps sit side by side there. */
export function bringIntoView(el) {
  if (!NARROW.matches || !el || el.hidden || !el.isConnected) return;
  // After this push's status line is written: the bar may change height with it, and a scroll
  // measured against the old height left the new step's first line half under the bar.
  requestAnimationFrame(() => {
    if (el.hidden || !el.isConnected) return;
    const bar = document.getElementById("status-bar");
    const barBottom = bar ? Math.max(0, bar.getBoundingClientRect().bottom) : 0;
    const top = el.getBoundingClientRect().top;
    if (top >= barBottom && top < window.innerHeight * 0.5) return; // already in sight
    const reduce = matchMedia("(prefers-reduced-motion: reduce)").matches;
    // The bar is sticky at the top: land the step's top 8 px under its bottom.
    const y = window.scrollY + top - (bar ? bar.offsetHeight : 0) - 8;
    window.scrollTo({ top: Math.max(0, y), behavior: reduce ? "auto" : "smooth" });
  });
}
