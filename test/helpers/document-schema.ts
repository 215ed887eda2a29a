/**
 * A validator of one of the versioned JSON documents' schemas (`schemas/documents/<name>.schema.json`,
 * docs/commands.md, "Versioned JSON documents"), compiled as a reader of the document would.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

export async function documentValidator(name: string): Promise<ValidateFunction> {
  const path = fileURLToPath(new URL(`../../schemas/documents/${name}.schema.json`, import.meta.url));
  const ajv = new Ajv({ allErrors: true, strict: true });
  addFormats.default(ajv);
  return ajv.compile(JSON.parse(await readFile(path, 'utf8')));
}
