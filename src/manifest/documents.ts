/**
 * YAML text -> plain documents, each with the source position of every value
 * (and of every key, for "unknown field" problems that point at the key).
 *
 * Positions are worked out only when something reads them: the first read of
 * any document's positions parses its file again and collects them for every
 * document of the file (lazy-record.ts). A valid manifest never reads them
 * during loading, and a plan only for the objects it reports a problem about;
 * collecting them for every value took a sixth of parsing (docs/performance.md,
 * "Validation"). The checks that need a position only when they fail (duplicate
 * keys, limits) run on every document, and place a problem when they find one.
 */
import {
  Composer,
  type Document,
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
import { lazyRecord } from './lazy-record.ts';
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
 * before reading (src/manifest/read-manifest.ts).
 */
export const LIMITS = { valueBytes: 1024 * 1024, keysPerMapping: 10_000, nodesPerDocument: 500_000 };

type Positions = Pick<SourceDocument, 'values' | 'keys'>;

export function parseDocuments(text: string, file: string): { documents: SourceDocument[]; problems: InputProblem[] } {
  const parsed = parseDocumentData(text, file);
  return { documents: withPositions(text, file, parsed.documents), problems: parsed.problems };
}

/**
 * A document as the first pass leaves it: plain data; `index` is its place among the file's
 * documents, for withPositions.
 */
export interface ParsedDocument {
  index: number;
  start: Position;
  data: unknown;
}

/** The first pass over a file: its documents' data and start, and its problems; no positions yet. */
export function parseDocumentData(
  text: string,
  file: string,
): { documents: ParsedDocument[]; problems: InputProblem[] } {
  const documents: ParsedDocument[] = [];
  const problems: InputProblem[] = [];
  eachDocument(text, file, (doc, index, at) => {
    // After a syntax error the parser's recovery reports a cascade of follow-on errors: the first one is the real one.
    const firstError = doc.errors[0] ?? doc.warnings[0];
    if (firstError) {
      problems.push(yamlProblem(firstError, at));
      return;
    }
    const root = doc.contents;
    if (root === null || (isScalar(root) && root.value === null)) return; // empty document: `---` or comments only
    const start = at(root.range[0]);
    const walker: Walker = { at, values: undefined, keys: undefined, aliases: new Map(), problems: [], nodes: 0 };
    walk(root, '', undefined, walker);
    if (walker.problems.length > 0) {
      problems.push(...walker.problems);
      return;
    }
    try {
      documents.push({ index, start, data: doc.toJS({ maxAliasCount: 100 }) });
    } catch (error) {
      problems.push(
        aliasProblem(error as Error, walker.aliases, at) ?? { ...start, message: (error as Error).message },
      );
    }
  });
  return { documents, problems };
}

/**
 * The first pass's documents with their positions, computed from `text` when first read: the
 * first read of any of them parses the file again for all of them.
 */
export function withPositions(text: string, file: string, parsed: readonly ParsedDocument[]): SourceDocument[] {
  let positions: Map<number, Positions> | undefined;
  const positionsOf = (index: number): Positions => {
    positions ??= collectAllPositions(text, file);
    return positions.get(index) ?? { values: {}, keys: {} };
  };
  return parsed.map(({ index, start, data }) => ({
    file,
    start,
    data,
    values: lazyRecord(() => positionsOf(index).values),
    keys: lazyRecord(() => positionsOf(index).keys),
  }));
}

/**
 * Every document of the text, composed one at a time and each dropped once read: a file of
 * thousands of documents never holds all their syntax trees at once (parseAllDocuments would,
 * tripling peak memory). `index` counts every document, so that a second pass meets the same
 * document at the same index.
 */
function eachDocument(
  text: string,
  file: string,
  visit: (doc: Document.Parsed, index: number, at: (offset: number) => Position) => void,
): void {
  const lineCounter = new LineCounter();
  const at = (offset: number): Position => ({ file, ...lineCounter.linePos(offset) });
  const tokens = new Parser(lineCounter.addNewLine).parse(text);
  let index = 0;
  // the yaml library's own unique-key check compares every pair of keys (quadratic in the
  // mapping's size); walk() checks with a set instead
  for (const doc of new Composer({ uniqueKeys: false }).compose(tokens)) visit(doc, index++, at);
}

/** The second pass: the positions of every document of the file that the first one kept. */
function collectAllPositions(text: string, file: string): Map<number, Positions> {
  const all = new Map<number, Positions>();
  eachDocument(text, file, (doc, index, at) => {
    const root = doc.contents;
    if (doc.errors.length > 0 || doc.warnings.length > 0 || root === null) return;
    const walker: Walker = { at, values: {}, keys: {}, aliases: new Map(), problems: [], nodes: 0 };
    walk(root, '', undefined, walker);
    all.set(index, { values: walker.values ?? {}, keys: walker.keys ?? {} });
  });
  return all;
}

interface Walker {
  at: (offset: number) => Position;
  /** Where positions are collected: only on the second pass (collectAllPositions). */
  values: Record<string, Position> | undefined;
  keys: Record<string, Position> | undefined;
  /** Offset of the first use of each alias name, to place an alias that names no anchor. */
  aliases: Map<string, number>;
  /** Duplicate keys, values the loader refuses, limits passed. */
  problems: InputProblem[];
  nodes: number;
}

/**
 * Checks a node and what it holds, and collects their positions when asked to. Positions
 * are source offsets until one is needed; `self` is the offset recorded for the node's own
 * path (its value position), which a key without a position of its own falls back to.
 */
function walk(node: Node, path: string, self: number | undefined, w: Walker): void {
  if (++w.nodes === LIMITS.nodesPerDocument + 1) {
    if (node.range) {
      w.problems.push({
        ...w.at(node.range[0]),
        message: `a document may hold at most ${LIMITS.nodesPerDocument} values`,
      });
    }
  }
  if (w.nodes > LIMITS.nodesPerDocument) return;
  if (isAlias(node)) {
    if (node.range && !w.aliases.has(node.source)) w.aliases.set(node.source, node.range[0]);
  } else if (isScalar(node)) {
    scalarProblems(node, w);
  } else if (isMap(node)) {
    const seen = new Map<string, number | undefined>();
    if (node.items.length > LIMITS.keysPerMapping && node.range) {
      const message = `a mapping may hold at most ${LIMITS.keysPerMapping} keys (this one has ${node.items.length})`;
      w.problems.push({ ...w.at(node.range[0]), message });
      return;
    }
    for (const pair of node.items) {
      const key = pair.key;
      const name = isScalar(key) ? String(key.value) : String(key);
      const childPath = joinPath(path, name);
      const keyOffset = isScalar(key) && key.range ? key.range[0] : self;
      if (seen.has(name)) {
        const first = seen.get(name);
        const also = first === undefined ? '' : ` (first at line ${w.at(first).line})`;
        if (keyOffset !== undefined) w.problems.push({ ...w.at(keyOffset), message: `duplicate key "${name}"${also}` });
        continue;
      }
      seen.set(name, keyOffset);
      const value = pair.value as Node | null;
      const valueOffset = value?.range ? value.range[0] : keyOffset;
      if (w.keys && keyOffset !== undefined) w.keys[childPath] = w.at(keyOffset);
      if (w.values && valueOffset !== undefined) w.values[childPath] = w.at(valueOffset);
      if (value) walk(value, childPath, valueOffset, w);
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, index) => {
      const childPath = joinPath(path, index);
      const child = item as Node | null;
      const childOffset = child?.range ? child.range[0] : undefined;
      if (w.values && childOffset !== undefined) w.values[childPath] = w.at(childOffset);
      if (child) walk(child, childPath, childOffset, w);
    });
  }
}

/**
 * A string beyond the value limit, or an integer beyond 2^53 (JSON numbers
 * are doubles: `99999999999999999999999` would be sent as 1e+23).
 */
function scalarProblems(node: Scalar, c: Walker): void {
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
function aliasProblem(
  error: Error,
  aliases: Map<string, number>,
  at: (offset: number) => Position,
): InputProblem | undefined {
  const name = /^Unresolved alias.*: (.+)$/.exec(error.message)?.[1];
  const offset = name === undefined ? undefined : aliases.get(name);
  if (name === undefined || offset === undefined) return undefined;
  return { ...at(offset), message: `alias *${name} names no anchor: define &${name} before using it` };
}

function yamlProblem(error: YAMLError, at: (offset: number) => Position): InputProblem {
  const position = at(Math.max(0, error.pos[0]));
  // the first line is the message; parseAllDocuments would add " at line N, column M" and an excerpt
  const message = (error.message.split('\n')[0] ?? error.message).replace(/ at line \d+, column \d+:?$/, '');
  return { ...position, message };
}

/** Where to point for a path: its value (or key), else the nearest enclosing value, else the document. */
export function positionOf(
  doc: Pick<SourceDocument, 'start' | 'values' | 'keys'>,
  path: string,
  atKey = false,
): Position {
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
