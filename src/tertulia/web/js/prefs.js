// What this browser remembers (localStorage): the secret token, nickname, language, theme;
// and, through `local` (JSON values under full keys), what a player was making when the page
// went away: a drawing, typed interpretations, a half-built clue.
// A browser that refuses storage (private mode, quotas) still works for the open tab.

const PREFIX = "tertulia.";
const memory = new Map();

export const prefs = {
  get(name) {
    try {
      const value = localStorage.getItem(PREFIX + name);
      return value === null ? memory.get(name) ?? null : value;
    } catch {
      return memory.get(name) ?? null;
    }
  },
  set(name, value) {
    memory.set(name, value);
    try {
      if (value === null || value === undefined) localStorage.removeItem(PREFIX + name);
      else localStorage.setItem(PREFIX + name, String(value));
    } catch {
      // Storage refused: the in-memory copy keeps this tab working.
    }
  },
};

/** localStorage that never throws (private mode, quotas). */
export const local = {
  get(key) {
    try {
      const raw = localStorage.getItem(key);
      return raw === null ? null : JSON.parse(raw);
    } catch {
      return null;
    }
  },
  set(key, value) {
    try {
      if (value === null || value === undefined) localStorage.removeItem(key);
      else localStorage.setItem(key, JSON.stringify(value));
    } catch {
      // Storage refused: the draft lives on in memory for this tab.
    }
  },
  keys(prefix) {
    try {
      return Object.keys(localStorage).filter((k) => k.startsWith(prefix));
    } catch {
      return [];
    }
  },
};
