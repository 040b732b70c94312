// rtfig.toml as the server sees it: parsed by toml-eslint-parser, which (unlike smol-toml, rt's
// loader) keeps the range of every key and value, so each schema problem is underlined where it
// is written; a syntax error comes back with its offset.
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

export interface RtfigDocument {
  readonly value?: Record<string, unknown>;
  /** Where each key path is written (first place), by JSON.stringify(path). */
  readonly locations: ReadonlyMap<string, Location>;
  readonly syntaxError?: { readonly offset: number; readonly message: string };
}

export function parseRtfig(text: string): RtfigDocument {
  let ast: AST.TOMLProgram;
  try {
    ast = parseTOML(text);
  } catch (error) {
    const { index, message } = error as { index?: number; message: string };
    return { locations: new Map(), syntaxError: { offset: index ?? 0, message } };
  }
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
  const top = ast.body[0]!;
  for (const node of top.body) {
    if (node.type === "TOMLKeyValue") {
      keyValue(node, []);
      continue;
    }
    const last = node.key.keys[node.key.keys.length - 1]!;
    note(node.resolvedKey, { keyStart: last.range[0], keyEnd: last.range[1], valueStart: node.range[0], valueEnd: last.range[1] + 1 });
    for (const entry of node.body) keyValue(entry, node.resolvedKey);
  }
  return { value: getStaticTOMLValue(ast) as Record<string, unknown>, locations };
}

export function keyName(key: AST.TOMLBare | AST.TOMLQuoted): string {
  return key.type === "TOMLBare" ? key.name : key.value;
}
