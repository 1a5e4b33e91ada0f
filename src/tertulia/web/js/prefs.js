// What this browser remembers (localStorage): the secret token, nickname, language, theme.
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
