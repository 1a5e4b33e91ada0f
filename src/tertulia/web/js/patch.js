// JSON Patch (RFC 6902) as the server writes it (src/tertulia/patches.py): "add", "remove"
// and "replace" at JSON Pointer paths, "-" to append to a list. Patches are transport only:
// the room screen still renders the latest whole picture, which applyPatch rebuilds. The
// parts an operation touches are copied; the rest is shared with the old picture, which is
// never changed (a screen may still hold it).

/** `doc` with `ops` applied; throws on an operation that does not fit `doc`. */
export function applyPatch(doc, ops) {
  for (const op of ops) doc = applyOne(doc, op.op, pointer(op.path), op.value);
  return doc;
}

function applyOne(node, op, keys, value) {
  if (keys.length === 0) {
    if (op === "remove") throw new Error("cannot remove the whole document");
    return value;
  }
  const [key, ...rest] = keys;
  if (Array.isArray(node)) {
    const copy = node.slice();
    if (key === "-" && rest.length === 0 && op === "add") {
      copy.push(value);
      return copy;
    }
    const index = toIndex(key, copy.length + (op === "add" && rest.length === 0 ? 1 : 0));
    if (rest.length) copy[index] = applyOne(copy[index], op, rest, value);
    else if (op === "remove") copy.splice(index, 1);
    else if (op === "add") copy.splice(index, 0, value);
    else copy[index] = value;
    return copy;
  }
  if (node !== null && typeof node === "object") {
    const copy = { ...node };
    const has = Object.prototype.hasOwnProperty.call(copy, key);
    if (rest.length) {
      if (!has) throw new Error(`no member ${key}`);
      copy[key] = applyOne(copy[key], op, rest, value);
    } else if (op === "remove") {
      if (!has) throw new Error(`no member ${key} to remove`);
      delete copy[key];
    } else {
      copy[key] = value;
    }
    return copy;
  }
  throw new Error(`cannot go into ${typeof node} at ${key}`);
}

function toIndex(key, size) {
  if (!/^(0|[1-9][0-9]*)$/.test(key) || Number(key) >= size) throw new Error(`no index ${key}`);
  return Number(key);
}

function pointer(path) {
  if (path === "") return [];
  if (!path.startsWith("/")) throw new Error(`a JSON Pointer starts with "/": ${path}`);
  return path.slice(1).split("/").map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"));
}
