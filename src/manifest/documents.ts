/**
 * YAML text -> plain documents, each with the source position of every value
 * (and of every key, for "unknown field" problems that point at the key).
 */
import { Composer, isAlias, isMap, isScalar, isSeq, LineCounter, type Node, Parser, type YAMLError } from 'yaml';
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

export function parseDocuments(text: string, file: string): { documents: SourceDocument[]; problems: InputProblem[] } {
  const lineCounter = new LineCounter();
  const documents: SourceDocument[] = [];
  const problems: InputProblem[] = [];
  const at = (offset: number): Position => ({ file, ...lineCounter.linePos(offset) });
  // Composed one document at a time, each dropped once read: a file of thousands of documents
  // never holds all their syntax trees at once (parseAllDocuments would, tripling peak memory).
  const tokens = new Parser(lineCounter.addNewLine).parse(text);
  for (const doc of new Composer().compose(tokens)) {
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
    collectPositions(root, '', { at, values, keys, aliases });
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
}

function collectPositions(node: Node, path: string, c: Collector): void {
  if (isAlias(node)) {
    if (node.range && !c.aliases.has(node.source)) c.aliases.set(node.source, c.at(node.range[0]));
  } else if (isMap(node)) {
    for (const pair of node.items) {
      const key = pair.key;
      const name = isScalar(key) ? String(key.value) : String(key);
      const childPath = joinPath(path, name);
      const keyPosition = isScalar(key) && key.range ? c.at(key.range[0]) : own(c.values, path);
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
