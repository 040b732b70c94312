// rtfig.toml as the server sees it: parsed by toml-eslint-parser, which (unlike smol-toml, rt's
// loader) keeps the range of every key and value, so each schema problem is underlined where it
// is written; a syntax error comes back with its offset. A key defined twice is a parse error
// too, and the parse stops there: each one is noted, renamed in a copy of the text and left out
// of the value, so the file's other problems are still found.
import { getStaticTOMLValue, parseTOML, type AST } from "toml-eslint-parser";
import type { Path } from "./schema.js";

export interface Location {
  /** The key's last segment as written (`shell` of `run.shell`), or a table header's name. */
  readonly keyStart: number;
  readonly keyEnd: number;
  /** The value (for a table header, the header itself). */
  readonly valueStart: number;
  readonly valueEnd: number;
}

/** A key (or table header) that defines again what an earlier line defined. */
export interface Duplicate {
  /** The key's offsets (the header's last key for a table). */
  readonly start: number;
  readonly end: number;
  /** The path it defines again (undefined when the rest of the file does not parse). */
  readonly path?: Path;
}

export interface RtfigDocument {
  readonly value?: Record<string, unknown>;
  /** Where each key path is written (first place), by JSON.stringify(path). */
  readonly locations: ReadonlyMap<string, Location>;
  readonly duplicates: readonly Duplicate[];
  readonly syntaxError?: { readonly offset: number; readonly message: string };
}

/** toml-eslint-parser's message for a key defined twice. */
const DUPLICATE_KEY = "Defining a key multiple times is invalid";
/** A key as written: bare, "basic" or 'literal'. */
const KEY_TOKEN = /[A-Za-z0-9_-]+|"(?:[^"\\\r\n]|\\.)*"|'[^'\r\n]*'/y;
const BARE_CHARS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/**
 * The key token at `offset` replaced by the `n`-th stand-in name of the same length (offsets
 * elsewhere do not move), or undefined if there is no key there or no name fits.
 */
function renameKey(text: string, offset: number, n: number): { text: string; end: number } | undefined {
  KEY_TOKEN.lastIndex = offset;
  const token = KEY_TOKEN.exec(text)?.[0];
  const quoted = token?.[0] === '"' || token?.[0] === "'" ? 2 : 0;
  if (!token || token.length - quoted < 1) return undefined;
  let name = "";
  for (let rest = n; name === "" || rest > 0; rest = Math.floor(rest / BARE_CHARS.length)) name = BARE_CHARS[rest % BARE_CHARS.length] + name;
  if (name.length > token.length - quoted) return undefined;
  const standIn = name.padStart(token.length - quoted, "_");
  const end = offset + token.length;
  return { text: text.slice(0, offset) + (quoted ? `"${standIn}"` : standIn) + text.slice(end), end };
}

/** A key's name from its text as written (the original of a renamed key). */
function writtenName(token: string): string {
  if (token.startsWith("'")) return token.slice(1, -1);
  if (!token.startsWith('"')) return token;
  try {
    return JSON.parse(token) as string;
  } catch {
    return token.slice(1, -1);
  }
}

export function parseRtfig(text: string): RtfigDocument {
  let ast: AST.TOMLProgram | undefined;
  let source = text;
  const renamed = new Map<number, number>();
  // Each pass renames one duplicate (a stand-in name that happens to be taken is renamed again).
  for (let n = 0; !ast; n++) {
    try {
      ast = parseTOML(source);
    } catch (error) {
      const { index, message } = error as { index?: number; message: string };
      const rename = message === DUPLICATE_KEY && index !== undefined && n < 1000 ? renameKey(source, index, n) : undefined;
      const duplicates = [...renamed].map(([start, end]) => ({ start, end }));
      if (!rename) return { locations: new Map(), duplicates, syntaxError: { offset: index ?? 0, message } };
      renamed.set(index!, rename.end);
      source = rename.text;
    }
  }
  const duplicates: Duplicate[] = [];
  // The path of a key whose keys are `keys` (under `table`) if one of them is renamed: it is dropped.
  const dropped = (table: Path, keys: readonly (AST.TOMLBare | AST.TOMLQuoted)[]): boolean => {
    const index = keys.findIndex((key) => renamed.has(key.range[0]));
    if (index === -1) return false;
    const key = keys[index]!;
    const path = [...table, ...keys.slice(0, index).map(keyName), writtenName(text.slice(key.range[0], key.range[1]))];
    duplicates.push({ start: key.range[0], end: key.range[1], path });
    return true;
  };
  const prune = (body: AST.TOMLKeyValue[], table: Path): AST.TOMLKeyValue[] =>
    body.filter((entry) => {
      if (dropped(table, entry.key.keys)) return false;
      pruneValue(entry.value, [...table, ...entry.key.keys.map(keyName)]);
      return true;
    });
  const pruneValue = (node: AST.TOMLContentNode, path: Path): void => {
    if (node.type === "TOMLInlineTable") node.body = prune(node.body, path);
    else if (node.type === "TOMLArray") node.elements.forEach((element, index) => pruneValue(element, [...path, index]));
  };
  const top = ast.body[0]!;
  top.body = top.body.filter((node) => {
    if (node.type === "TOMLKeyValue") return prune([node], []).length > 0;
    if (dropped([], node.key.keys)) return false;
    node.body = prune(node.body, node.resolvedKey);
    return true;
  });
  const locations = new Map<string, Location>();
  const note = (path: Path, location: Location): void => {
    const id = JSON.stringify(path);
    if (!locations.has(id)) locations.set(id, location);
  };
  const keyValue = (node: AST.TOMLKeyValue, table: Path): void => {
    const path = [...table];
    for (const key of node.key.keys) {
      path.push(keyName(key));
      note([...path], { keyStart: key.range[0], keyEnd: key.range[1], valueStart: node.value.range[0], valueEnd: node.value.range[1] });
    }
    content(node.value, path);
  };
  const content = (node: AST.TOMLContentNode, path: Path): void => {
    if (node.type === "TOMLArray") {
      node.elements.forEach((element, index) => {
        note([...path, index], { keyStart: element.range[0], keyEnd: element.range[1], valueStart: element.range[0], valueEnd: element.range[1] });
        content(element, [...path, index]);
      });
    } else if (node.type === "TOMLInlineTable") {
      for (const entry of node.body) keyValue(entry, path);
    }
  };
  for (const node of top.body) {
    if (node.type === "TOMLKeyValue") {
      keyValue(node, []);
      continue;
    }
    const last = node.key.keys[node.key.keys.length - 1]!;
    note(node.resolvedKey, { keyStart: last.range[0], keyEnd: last.range[1], valueStart: node.range[0], valueEnd: last.range[1] + 1 });
    for (const entry of node.body) keyValue(entry, node.resolvedKey);
  }
  return { value: getStaticTOMLValue(ast) as Record<string, unknown>, locations, duplicates };
}

export function keyName(key: AST.TOMLBare | AST.TOMLQuoted): string {
  return key.type === "TOMLBare" ? key.name : key.value;
}
