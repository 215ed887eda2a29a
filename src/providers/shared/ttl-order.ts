/**
 * A lease's TTL must not exceed its maximum: the secrets engines refuse such a write (an SSH role,
 * an LDAP library set, an LDAP dynamic role), so `validate` says so at the TTL, offline. Each side
 * is the manifest's value or, left out, the field table's default; 0 is the engine's own default
 * or maximum, which converge does not know, so it is never compared.
 */
import type { SpecProblem } from '../../manifest/catalog.ts';
import type { DesiredObject, Json } from '../../reconcile/types.ts';
import { checkValues } from './check-values.ts';
import * as normalize from './normalize.ts';

export interface TtlPair {
  ttl: string;
  max: string;
  /** The table's defaults, in seconds (0: the engine's own). */
  defaults: { ttl: number; max: number };
}

export function ttlWithinMax(object: DesiredObject, { ttl, max, defaults }: TtlPair): SpecProblem[] {
  const written = (field: string) => object.spec[field];
  const seconds = (value: Json | undefined, fallback: number) => {
    if (value === undefined) return fallback;
    const parsed = normalize.duration(value);
    return typeof parsed === 'number' ? parsed : undefined;
  };
  const lease = seconds(written(ttl), defaults.ttl);
  const most = seconds(written(max), defaults.max);
  if (lease === undefined || most === undefined || lease === 0 || most === 0 || lease <= most) return [];
  const values = checkValues(object);
  const shown = (field: string, fallback: number) =>
    written(field) === undefined
      ? `${normalize.formatDuration(fallback)}, its default`
      : values.bare(field, written(field));
  return [
    {
      path: `spec.${ttl}`,
      message: `${ttl} (${shown(ttl, defaults.ttl)}) must not exceed ${max} (${shown(max, defaults.max)})`,
    },
  ];
}
