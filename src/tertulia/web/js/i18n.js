// Every visible string comes from /static/i18n/<lang>.json (flat keys, "{name}" placeholders),
// and each game's from /static/games/<game>/i18n/<lang>.json, merged in (see loadGameStrings).
// A key missing in the chosen language falls back to English, then to the caller's fallback
// (for errors: the server's English message), then to the key itself.
//
// Error codes: a game words its own as "games.<game>.errors.<code>" in its files; the
// platform's are "errors.<code>" here. errorKey(code) picks the game in play's first (so two
// games may use the same code, each with its own sentence), then the platform's.
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

// Each game keeps its own strings in its folder (games/<game>/web/i18n/<lang>.json). The page loads every
// game's at start (the home page and the lobby show games' names and settings labels before
// any screen loads); each part is kept per language, and the tables that `t` reads are built
// again from the parts whenever one arrives, so parts fetched at once never overwrite each
// other and a language change fetches what is missing.
const shared = new Map(); // lang -> the strings of i18n/<lang>.json
const games = new Map(); // game -> Map(lang -> its strings)
const fetching = new Map(); // "<game or ''>/<lang>" -> the fetch under way, which everyone awaits
let gameInPlay = null;

async function fetchGameStrings(game, lang) {
  const response = await fetch(`/static/games/${game}/i18n/${lang}.json`);
  return response.ok ? response.json() : {};
}

/** Fetch `key`'s table into `into` once; callers while it is under way wait for that fetch. */
function once(key, into, lang, fetcher) {
  if (into.has(lang)) return null;
  if (!fetching.has(key)) {
    const job = fetcher()
      .then((table) => into.set(lang, table))
      .finally(() => fetching.delete(key));
    fetching.set(key, job);
  }
  return fetching.get(key);
}

/** Fetch what `lang` still misses: the shared file and every known game's part. */
async function fetchLanguage(lang) {
  const jobs = [once(`/${lang}`, shared, lang, () => fetchStrings(lang))];
  for (const [game, parts] of games) {
    jobs.push(once(`${game}/${lang}`, parts, lang, () => fetchGameStrings(game, lang)));
  }
  await Promise.all(jobs);
}

function rebuild() {
  const partsIn = (lang) => [...games.values()].map((parts) => parts.get(lang) || {});
  english = Object.assign({}, shared.get("en"), ...partsIn("en"));
  strings = current === "en" ? english : Object.assign({}, shared.get(current), ...partsIn(current));
}

/**
 * Load the strings of `game` (in the current language and English) and merge them in; resolves
 * true when this call brought them, false when they were already there.
 */
export async function loadGameStrings(game) {
  if (games.has(game)) return false;
  games.set(game, new Map());
  let lang;
  do {
    lang = current; // and again if the language changed while fetching
    await Promise.all([...new Set(["en", lang])].map((l) => fetchLanguage(l)));
  } while (lang !== current);
  rebuild();
  return true;
}

/** The game of the room on screen (null: none), whose own error sentences come first. */
export function setGameInPlay(game) {
  gameInPlay = game || null;
}

/** The key that words error `code`: the game in play's own, else the platform's. */
export function errorKey(code) {
  const own = gameInPlay ? `games.${gameInPlay}.errors.${code}` : null;
  return own && has(own) ? own : `errors.${code}`;
}

/** Load `lang` (and English as the fallback), remember it, tell the listeners. */
export async function setLanguage(lang) {
  if (!LANGUAGES.some((l) => l.code === lang)) lang = "en";
  await fetchLanguage("en");
  await fetchLanguage(lang).catch((err) => {
    console.error(`could not load the ${lang} strings`, err);
    if (!shared.has(lang)) shared.set(lang, {}); // English stands in
  });
  current = lang;
  // The games whose strings started loading meanwhile (a game part that cannot be fetched
  // is asked for again next time; English stands in).
  await fetchLanguage(lang).catch((err) => console.error(`could not load ${lang} strings`, err));
  rebuild();
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
  return t(errorKey(error.code), error.params || {}, error.message || error.code);
}
