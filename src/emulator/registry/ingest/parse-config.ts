/**
 * One configuration file (`*.tf` or `*.tf.json`) as hcl2json's JSON. hcl2json
 * (`@cdktf/hcl2json`) runs HashiCorp's own HCL parser compiled to WebAssembly,
 * so syntax errors read exactly as Terraform's. Quirks handled here:
 * - it is loaded on the first parse, not when the emulator starts: importing it
 *   starts reading and instantiating its WASM (≈15 ms to import, then 70-120 ms
 *   before the first parse returns; later parses take well under 3 ms;
 *   test/emulator/registry-ingest/measure-ingest.ts measures this);
 * - its errors arrive as `parse config: [<diag> <diag> …]`, all diagnostics on
 *   one line; they are unwrapped and put one per line;
 * - it keeps a multi-line expression's source text, line endings included, so
 *   CRLF files are read as LF (the only text this changes is heredocs and
 *   type expressions; line numbers are unchanged).
 * `*.tf.json` is already JSON and is read with JSON.parse.
 */
import { IngestError } from './errors.ts';
import type { Body } from './hcl-json.ts';

type Parse = (filename: string, contents: string) => Promise<Record<string, unknown>>;

let loaded: Promise<Parse> | undefined;

function hcl2json(): Promise<Parse> {
  loaded ??= import('@cdktf/hcl2json').then((module) => module.parse);
  return loaded;
}

/** `path` is the file's path in the archive, so diagnostics name it as the author knows it. */
export async function parseConfigFile(path: string, text: string): Promise<Body> {
  if (path.endsWith('.json')) return parseJsonConfig(path, text);
  const parse = await hcl2json();
  try {
    return await parse(path, text.replaceAll('\r\n', '\n'));
  } catch (error) {
    throw new IngestError(diagnostics(path, (error as Error).message), 'config');
  }
}

function parseJsonConfig(path: string, text: string): Body {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new IngestError(`${path}: invalid JSON: ${(error as Error).message}`, 'config');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new IngestError(`${path}: the file must hold a JSON object`, 'config');
  }
  return json as Body;
}

/** `parse config: [main.tf:1,1-2: A; a. main.tf:4,2-3: B; b.]` → one diagnostic per line. */
function diagnostics(path: string, message: string): string {
  const inner = message.replace(/^parse config: \[/, '').replace(/\]$/, '');
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return inner
    .split(new RegExp(` (?=${escaped}:\\d+,\\d+)`))
    .map((line) => line.trim())
    .join('\n');
}
