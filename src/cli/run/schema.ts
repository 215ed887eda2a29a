/**
 * `converge schema`: the JSON Schemas converge validates manifests with, for
 * editors (yaml-language-server) and other tooling. Offline.
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ConvergeError } from '../../errors.ts';
import { MANIFEST_ONLY_KINDS } from '../../manifest/manifest-only.ts';
import { DEFAULT_SCHEMA_DIR } from '../../manifest/schema-dir.ts';
import { providers } from '../../providers/index.ts';
import { processOutput } from '../../ui/output.ts';
import { resolveKind } from '../kind-name.ts';
import { EXIT_OK } from '../run-main.ts';

export interface SchemaFlags {
  all: boolean;
  out?: string;
}

type Schema = Record<string, unknown>;

export async function runSchema(kind: string | undefined, flags: SchemaFlags): Promise<number> {
  const output = processOutput();
  // the API kinds, then the documents that are part of the manifests only (a Policy)
  const kinds = [...providers.map((p) => p.kind), ...MANIFEST_ONLY_KINDS];
  if (kind !== undefined && flags.all) {
    throw new ConvergeError('INPUT_INVALID', 'give a kind or --all, not both');
  }
  const chosen = kind === undefined ? kinds : [resolveKind(kind, kinds)];

  if (flags.out) {
    const dir = resolve(flags.out);
    await mkdir(dir, { recursive: true });
    for (const k of chosen) await writeFile(join(dir, `${k}.schema.json`), `${JSON.stringify(load(k), null, 2)}\n`);
    output.out(`Wrote ${chosen.length} schema file(s) to ${flags.out}.`);
    return EXIT_OK;
  }
  if (kind !== undefined) {
    output.out(JSON.stringify(load(chosen[0]!), null, 2));
  } else if (flags.all) {
    output.out(JSON.stringify(Object.fromEntries(kinds.map((k) => [k, load(k)])), null, 2));
  } else {
    const width = Math.max(...kinds.map((k) => k.length));
    for (const k of kinds) output.out(`${k.padEnd(width)}  ${firstSentence(load(k).description)}`);
    output.out('');
    output.out('`converge schema KIND` prints one schema; `--out DIR` writes them for editors.');
  }
  return EXIT_OK;
}

function load(kind: string): Schema {
  return JSON.parse(readFileSync(join(DEFAULT_SCHEMA_DIR, `${kind}.schema.json`), 'utf8')) as Schema;
}

/** The first sentence of a description, without Markdown code marks. */
export function firstSentence(description: unknown): string {
  if (typeof description !== 'string') return '';
  const text = description.replace(/`/g, '');
  const end = text.search(/\.(\s|$)/);
  return end === -1 ? text : text.slice(0, end + 1);
}
