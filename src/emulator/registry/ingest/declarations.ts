/**
 * The declarations of one module directory, gathered across its files the way
 * Terraform loads a directory: primary files in name order, then override
 * files (`override.tf`, `*_override.tf`), whose blocks change the attributes
 * of a block declared elsewhere instead of declaring a second one. A name
 * declared twice in primary files is an error Terraform would stop on, so the
 * version fails to ingest with the same complaint.
 */
import { IngestError } from './errors.ts';
import { type Body, bodiesOf, doublyLabelledBodies, labelledBodies } from './hcl-json.ts';

export interface ConfigFile {
  /** Path in the archive, e.g. `modules/subnet/main.tf`. */
  path: string;
  body: Body;
}

export interface Declared {
  file: string;
  body: Body;
}

/** Keyed by name; resources and data sources by `type.name`. */
export interface Declarations {
  variables: Map<string, Declared>;
  outputs: Map<string, Declared>;
  moduleCalls: Map<string, Declared>;
  resources: Map<string, Declared & { type: string; name: string }>;
  /** `data` and `ephemeral` blocks: not resources the module manages, but they need providers. */
  readOnlyResources: Map<string, Declared & { type: string; name: string }>;
  providerConfigs: Array<Declared & { name: string }>;
  terraformBlocks: Declared[];
}

const isOverrideFile = (path: string): boolean => /(^|\/|_)override\.tf(\.json)?$/.test(path);

export function collectDeclarations(files: ConfigFile[]): Declarations {
  const found: Declarations = {
    variables: new Map(),
    outputs: new Map(),
    moduleCalls: new Map(),
    resources: new Map(),
    readOnlyResources: new Map(),
    providerConfigs: [],
    terraformBlocks: [],
  };
  const ordered = [...files].sort(
    (a, b) => Number(isOverrideFile(a.path)) - Number(isOverrideFile(b.path)) || compare(a.path, b.path),
  );
  for (const { path, body } of ordered) {
    const add = adder(path, isOverrideFile(path));
    for (const [name, block] of labelledBodies(body.variable)) add(found.variables, 'variable', name, block, {});
    for (const [name, block] of labelledBodies(body.output)) add(found.outputs, 'output', name, block, {});
    for (const [name, block] of labelledBodies(body.module)) add(found.moduleCalls, 'module call', name, block, {});
    for (const [type, name, block] of doublyLabelledBodies(body.resource)) {
      add(found.resources, `resource "${type}"`, `${type}.${name}`, block, { type, name });
    }
    for (const kind of ['data', 'ephemeral'] as const) {
      for (const [type, name, block] of doublyLabelledBodies(body[kind])) {
        add(found.readOnlyResources, `${kind} "${type}"`, `${kind}.${type}.${name}`, block, { type, name });
      }
    }
    // Provider configurations (aliases) and terraform blocks may repeat; they are read, not keyed.
    for (const [name, block] of labelledBodies(body.provider))
      found.providerConfigs.push({ file: path, body: block, name });
    for (const block of bodiesOf(body.terraform)) found.terraformBlocks.push({ file: path, body: block });
  }
  return found;
}

function adder(path: string, override: boolean) {
  return <Extra extends object>(
    into: Map<string, Declared & Extra>,
    what: string,
    key: string,
    body: Body,
    extra: Extra,
  ): void => {
    const existing = into.get(key);
    const shown = key.split('.').at(-1);
    if (override) {
      if (!existing) {
        throw new IngestError(
          `${path}: Missing base ${what} declaration to override; there is no ${what} named "${shown}"`,
          'config',
        );
      }
      Object.assign(existing.body, body);
      return;
    }
    if (existing) {
      throw new IngestError(
        `${path}: Duplicate ${what} declaration; a ${what} named "${shown}" was already declared in ${existing.file}`,
        'config',
      );
    }
    into.set(key, { file: path, body: { ...body }, ...extra });
  };
}

/** Terraform orders a directory's files by name; byte order keeps that independent of locale. */
export const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
