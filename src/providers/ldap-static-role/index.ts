/**
 * LDAP static roles (docs/kinds.md, LDAPStaticRole): an existing directory
 * entry whose password the engine rotates. `username` and `dn` cannot
 * change (a change is a replacement); `skip_import_rotation` counts on
 * creation only. Names may hold `/`; the engine lower-cases them, so the
 * schema asks for lower case.
 */

import { dnKey } from '../../ldif/dn.ts';
import type { SpecProblem } from '../../manifest/catalog.ts';
import type { DesiredObject, Json } from '../../reconcile/types.ts';
import * as normalize from '../shared/normalize.ts';
import { flag, secondsDuration, text } from '../shared/rules.ts';
import { secretsRoleProvider } from '../shared/secrets-role.ts';

function dnForm(value: Json): Json {
  if (typeof value !== 'string') return value;
  try {
    return dnKey(value);
  } catch {
    return value; // not a DN: shown as written, and the engine refuses it
  }
}

/** The engine's queue ticks every 5 s: a shorter period cannot be kept. */
const MIN_ROTATION_SECONDS = 5;

export const ldapStaticRole = secretsRoleProvider({
  kind: 'LDAPStaticRole',
  defaultMount: 'ldap',
  collection: 'static-role',
  hierarchical: true,
  fields: {
    username: { ...text(), immutable: true },
    // the engine reads back the directory's spelling: `CN=x,OU=y` and `cn=x, ou=y` are one DN
    dn: { immutable: true, normalize: dnForm },
    rotation_period: {
      ...secondsDuration(),
      export: (value) => (typeof value === 'number' ? normalize.formatDuration(value) : value),
    },
    skip_import_rotation: { ...flag(), createOnly: true },
  },
  extra: () => ({ check: checkStaticRole, dependsOn: ['LDAPConfig'] }),
});

function checkStaticRole(object: DesiredObject): SpecProblem[] {
  const period = normalize.duration(object.spec.rotation_period ?? null);
  if (typeof period === 'number' && period < MIN_ROTATION_SECONDS) {
    return [
      {
        path: 'spec.rotation_period',
        message: `rotation_period must be at least ${MIN_ROTATION_SECONDS}s (the engine rotates on a 5-second tick)`,
      },
    ];
  }
  // a fraction of a second: the field's own rule (src/providers/shared/rules.ts)
  return [];
}
