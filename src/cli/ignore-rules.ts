/**
 * The configuration's `ignore` entries (docs/configuration.md): checked before any manifest is
 * read, then folded once into every declared object they select, so the engine sees one list
 * per object (DesiredObject.ignore) whichever place said it.
 */
import type { ConvergeConfig } from '../config/load.ts';
import { ConvergeError } from '../errors.ts';
import { unknownField } from '../manifest/field-patterns.ts';
import { DEFAULT_SCHEMA_DIR } from '../manifest/schema-dir.ts';
import { ShippedSchemas } from '../manifest/shipped-schemas.ts';
import { unknownKind } from '../manifest/suggest.ts';
import { catalog, providerMap } from '../providers/index.ts';
import { isOwned } from '../reconcile/ownership.ts';
import type { DesiredObject } from '../reconcile/types.ts';

/** Every entry naming a kind a manifest may declare, and fields of that kind's table. */
export function checkIgnoreRules(config: Pick<ConvergeConfig, 'file' | 'ignore'>): void {
  if (config.ignore.length === 0) return;
  const where = config.file ?? 'configuration';
  // the package's schemas, as the manifests' own ignore lists are checked against (document.ts)
  const schemas = new ShippedSchemas(DEFAULT_SCHEMA_DIR);
  const problems = config.ignore.flatMap((rule, i) => {
    const entry = `${where}: ignore[${i}]`;
    if (!catalog.kinds.includes(rule.kind)) return [`${entry}: ${unknownKind(rule.kind, catalog.kinds)}`];
    const rows = providerMap.get(rule.kind)?.fieldPaths ?? [];
    return rule.fields.flatMap((field) => {
      const unknown = unknownField(field, rule.kind, rows, (path) => schemas.hasPath(rule.kind, `spec.${path}`));
      return unknown ? [`${entry}: ${unknown}`] : [];
    });
  });
  if (problems.length > 0) {
    throw new ConvergeError('CONFIG_INVALID', problems.join('\n'), {
      hint: 'an ignore entry names a kind and fields of its table (docs/configuration.md, "ignore")',
    });
  }
}

/** The declared objects, each with the fields of the entries that select it added to its own list. */
export function withIgnoreRules(objects: DesiredObject[], config: Pick<ConvergeConfig, 'ignore'>): DesiredObject[] {
  if (config.ignore.length === 0) return objects;
  return objects.map((object) => {
    const fields = config.ignore.filter((rule) => isOwned([rule], object.address)).flatMap((rule) => rule.fields);
    if (fields.length === 0) return object;
    return { ...object, ignore: [...new Set([...(object.ignore ?? []), ...fields])] };
  });
}
