// Every visible string comes from /static/i18n/<lang>.json (flat keys, "{name}" placeholders).
// A key missing in the chosen language falls back to English, then to the caller's fallback
// (for errors: the server's English message), then to the key itself.
//
// Plurals: when params.count is a number and "<key>.<category>" exists (category from
// Intl.PluralRules: one, few, many, other), that form is used. Polish needs few/many.

import { prefs } from "./prefs.js";

// `short`: what the header's menu shows on a phone, where a full name is cut ("Portug…").
export const LANGUAGES = [
  { code: "en", name: "English", short: "EN" },
  { code: "pt-BR", name: "Português (Brasil)", short: "PT-BR" },
  { code: "es", name: "Español", short: "ES" },
  { code: "pl", name: "Polski", short: "PL" },
];

let current = "en";
let strings = {};
let english = {};
let plural = new Intl.PluralRules("en");
const listeners = new Set();

/** The language stored by the player, else the browser's, else English. */
export function preferredLanguage() {
  const stored = prefs.get("lang");
  if (LANGUAGES.some((l) => l.code === stored)) return stored;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const lower = String(tag).toLowerCase();
    if (lower.startsWith("pt")) return "pt-BR";
    if (lower.startsWith("es")) return "es";
    if (lower.startsWith("pl")) return "pl";
    if (lower.startsWith("en")) return "en";
  }
  return "en";
}

async function fetchStrings(lang) {
  const response = await fetch(`/static/i18n/${lang}.json`);
  if (!response.ok) throw new Error(`i18n ${lang}: HTTP ${response.status}`);
  return response.json();
}

// Each game screen keeps its own strings in i18n/games/<game>/<lang>.json, merged in when the
// screen loads (and again on every language change), so game screens never share a file.
const gameParts = new Set();

async function fetchGameStrings(game, lang) {
  const response = await fetch(`/static/i18n/games/${game}/${lang}.json`);
  return response.ok ? response.json() : {};
}

async function withGames(base, lang) {
  const parts = await Promise.all([...gameParts].map((g) => fetchGameStrings(g, lang)));
  return Object.assign({}, base, ...parts);
}

/** Merge the strings of `game` into every language's table; true if they were new. */
export async function loadGameStrings(game) {
  if (gameParts.has(game)) return false;
  gameParts.add(game);
  english = Object.assign({}, english, await fetchGameStrings(game, "en"));
  strings = current === "en" ? english : Object.assign({}, strings, await fetchGameStrings(game, current));
  return true;
}

/** Load `lang` (and English as the fallback), remember it, tell the listeners. */
export async function setLanguage(lang) {
  if (!LANGUAGES.some((l) => l.code === lang)) lang = "en";
  english = await withGames(await fetchStrings("en"), "en");
  strings = lang === "en" ? english : await withGames(await fetchStrings(lang).catch(() => ({})), lang);
  current = lang;
  plural = new Intl.PluralRules(lang);
  prefs.set("lang", lang);
  document.documentElement.lang = lang;
  for (const fn of listeners) fn(lang);
}

export function language() {
  return current;
}

export function onLanguageChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function has(key) {
  return key in strings || key in english;
}

function lookup(key, params) {
  if (params && typeof params.count === "number") {
    const form = `${key}.${plural.select(params.count)}`;
    const other = `${key}.other`;
    for (const k of [form, other]) {
      if (k in strings) return strings[k];
      if (k in english) return english[k];
    }
  }
  if (key in strings) return strings[key];
  if (key in english) return english[key];
  return undefined;
}

/** Translate `key`, filling "{name}" placeholders from `params`. */
export function t(key, params = {}, fallback = undefined) {
  const template = lookup(key, params);
  if (template === undefined) return fallback !== undefined ? fallback : key;
  return template.replace(/\{(\w+)\}/g, (_, name) =>
    params && params[name] !== undefined && params[name] !== null ? String(params[name]) : "",
  );
}

/** A refused action in the player's language (the server's English message as fallback). */
export function tError(error) {
  return t(`errors.${error.code}`, error.params || {}, error.message || error.code);
}
