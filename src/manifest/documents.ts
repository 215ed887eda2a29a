/**
 * YAML text -> plain documents, each with the source position of every value
 * (and of every key, for "unknown field" problems that point at the key).
 */
import {
  Composer,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  Parser,
  type Scalar,
  type YAMLError,
} from 'yaml';
import type { InputProblem } from '../errors.ts';
import type { Position } from '../reconcile/types.ts';
import { joinPath, parentPath } from './paths.ts';

export interface SourceDocument {
  /** The file as shown to the user. */
  file: string;
  /** Where the document's content starts. */
  start: Position;
  data: unknown;
  /** Positions of values by dotted path (the document itself is `start`). */
  values: Record<string, Position>;
  /** Positions of mapping keys by the dotted path of their value. */
  keys: Record<string, Position>;
}

/**
 * Limits that keep loading linear and bounded (docs/security.md, "Reading input"): a string
 * value, the keys of one mapping and the nodes of one document. The file size is checked
 * before reading (src/manifest/load.ts).
 */
export const LIMITS = { valueBytes: 1024 * 1024, keysPerMapping: 10_000, nodesPerDocument: 500_000 };

export function parseDocuments(text: string, file: string): { documents: SourceDocument[]; problems: InputProblem[] } {
  const lineCounter = new LineCounter();
  const documents: SourceDocument[] = [];
  const problems: InputProblem[] = [];
  const at = (offset: number): Position => ({ file, ...lineCounter.linePos(offset) });
  // Composed one document at a time, each dropped once read: a file of thousands of documents
  // never holds all their syntax trees at once (parseAllDocuments would, tripling peak memory).
  const tokens = new Parser(lineCounter.addNewLine).parse(text);
  // the yaml library's own unique-key check compares every pair of keys (quadratic in the
  // mapping's size); collectPositions checks with a set instead
  for (const doc of new Composer({ uniqueKeys: false }).compose(tokens)) {
    // After a syntax error the parser's recovery reports a cascade of follow-on errors: the first one is the real one.
    const firstError = doc.errors[0] ?? doc.warnings[0];
    if (firstError) {
      problems.push(yamlProblem(firstError, at));
      continue;
    }
    const root = doc.contents;
    if (root === null || (isScalar(root) && root.value === null)) continue; // empty document: `---` or comments only
    const start = at(root.range[0]);
    const values: Record<string, Position> = {};
    const keys: Record<string, Position> = {};
    const aliases = new Map<string, Position>();
    const collector: Collector = { at, values, keys, aliases, problems: [], nodes: 0 };
    collectPositions(root, '', collector);
    if (collector.problems.length > 0) {
      problems.push(...collector.problems);
      continue;
    }
    let data: unknown;
    try {
      data = doc.toJS({ maxAliasCount: 100 });
    } catch (error) {
      problems.push(aliasProblem(error as Error, aliases) ?? { ...start, message: (error as Error).message });
      continue;
    }
    documents.push({ file, start, data, values, keys });
  }
  return { documents, problems };
}

interface Collector {
  at: (offset: number) => Position;
  values: Record<string, Position>;
  keys: Record<string, Position>;
  /** First use of each alias name, to place an alias that names no anchor. */
  aliases: Map<string, Position>;
  /** Duplicate keys, values the loader refuses, limits passed. */
  problems: InputProblem[];
  nodes: number;
}

function collectPositions(node: Node, path: string, c: Collector): void {
  if (++c.nodes === LIMITS.nodesPerDocument + 1) {
    const where = node.range ? c.at(node.range[0]) : undefined;
    if (where) c.problems.push({ ...where, message: `a document may hold at most ${LIMITS.nodesPerDocument} values` });
  }
  if (c.nodes > LIMITS.nodesPerDocument) return;
  if (isAlias(node)) {
    if (node.range && !c.aliases.has(node.source)) c.aliases.set(node.source, c.at(node.range[0]));
  } else if (isScalar(node)) {
    scalarProblems(node, c);
  } else if (isMap(node)) {
    const seen = new Map<string, Position | undefined>();
    if (node.items.length > LIMITS.keysPerMapping && node.range) {
      const message = `a mapping may hold at most ${LIMITS.keysPerMapping} keys (this one has ${node.items.length})`;
      c.problems.push({ ...c.at(node.range[0]), message });
      return;
    }
    for (const pair of node.items) {
      const key = pair.key;
      const name = isScalar(key) ? String(key.value) : String(key);
      const childPath = joinPath(path, name);
      const keyPosition = isScalar(key) && key.range ? c.at(key.range[0]) : own(c.values, path);
      if (seen.has(name)) {
        const first = seen.get(name);
        const also = first ? ` (first at line ${first.line})` : '';
        if (keyPosition) c.problems.push({ ...keyPosition, message: `duplicate key "${name}"${also}` });
        continue;
      }
      seen.set(name, keyPosition);
      if (keyPosition) c.keys[childPath] = keyPosition;
      const value = pair.value as Node | null;
      const valuePosition = value?.range ? c.at(value.range[0]) : keyPosition;
      if (valuePosition) c.values[childPath] = valuePosition;
      if (value) collectPositions(value, childPath, c);
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, index) => {
      const childPath = joinPath(path, index);
      const child = item as Node | null;
      if (child?.range) c.values[childPath] = c.at(child.range[0]);
      if (child) collectPositions(child, childPath, c);
    });
  }
}

/**
 * A string beyond the value limit, or an integer beyond 2^53 (JSON numbers
 * are doubles: `99999999999999999999999` would be sent as 1e+23).
 */
function scalarProblems(node: Scalar, c: Collector): void {
  if (!node.range) return;
  const value = node.value;
  if (typeof value === 'string' && value.length > LIMITS.valueBytes) {
    const message = `a value may hold at most ${LIMITS.valueBytes} characters (this one has ${value.length})`;
    c.problems.push({ ...c.at(node.range[0]), message });
  } else if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value)) {
    const message = `the number ${node.source ?? value} is too large to be kept exactly (beyond 2^53); quote it if it is text`;
    c.problems.push({ ...c.at(node.range[0]), message });
  }
}

/** yaml resolves aliases only in toJS, and its error there carries no position. */
function aliasProblem(error: Error, aliases: Map<string, Position>): InputProblem | undefined {
  const name = /^Unresolved alias.*: (.+)$/.exec(error.message)?.[1];
  const position = name === undefined ? undefined : aliases.get(name);
  if (name === undefined || position === undefined) return undefined;
  return { ...position, message: `alias *${name} names no anchor: define &${name} before using it` };
}

function yamlProblem(error: YAMLError, at: (offset: number) => Position): InputProblem {
  const position = at(Math.max(0, error.pos[0]));
  // the first line is the message; parseAllDocuments would add " at line N, column M" and an excerpt
  const message = (error.message.split('\n')[0] ?? error.message).replace(/ at line \d+, column \d+:?$/, '');
  return { ...position, message };
}

/** Where to point for a path: its value (or key), else the nearest enclosing value, else the document. */
export function positionOf(doc: SourceDocument, path: string, atKey = false): Position {
  const key = atKey ? own(doc.keys, path) : undefined;
  if (key) return key;
  for (let p = path; p !== ''; p = parentPath(p)) {
    const position = own(doc.values, p);
    if (position) return position;
  }
  return doc.start;
}

/** A YAML key may be `constructor` or `toString`: look only at own entries. */
function own(record: Record<string, Position>, key: string): Position | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
