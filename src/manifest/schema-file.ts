import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A kind's schema as JSON. A kind without a schema file is a bug in converge, not bad input. */
export function readSchema(dir: string, kind: string): Record<string, unknown> {
  const file = join(dir, `${kind}.schema.json`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (cause) {
    throw new Error(`no schema for kind ${kind}: ${file}`, { cause });
  }
  return JSON.parse(text) as Record<string, unknown>;
}
