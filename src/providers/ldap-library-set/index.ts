/**
 * LDAP library sets (docs/kinds.md, LDAPLibrarySet): service accounts that
 * callers check out. The account list changes in place; an account that is
 * checked out cannot leave its set, so reading a declared set also reads its
 * status, and the plan warns before apply would fail.
 */

import type { SpecProblem } from '../../manifest/catalog.ts';
import type { DesiredObject } from '../../reconcile/types.ts';
import { commaSet, flag, seconds } from '../shared/rules.ts';
import { readData } from '../shared/secrets-api.ts';
import { secretsRoleProvider } from '../shared/secrets-role.ts';
import { ttlWithinMax } from '../shared/ttl-order.ts';

const DAY = 24 * 3600;

/** Names the engine's own endpoints take: a set named so could never be read back. */
function checkSetName(object: DesiredObject): SpecProblem[] {
  const segments = object.address.name.split('/');
  const last = segments.at(-1) ?? '';
  if (segments[0] === 'manage' || ['status', 'check-in', 'check-out'].includes(last)) {
    return [
      {
        path: 'metadata.name',
        message: `"${object.address.name}" is taken by the engine's endpoints (manage/…, …/status, …/check-in, …/check-out)`,
      },
    ];
  }
  return [];
}

export const ldapLibrarySet = secretsRoleProvider({
  kind: 'LDAPLibrarySet',
  defaultMount: 'ldap',
  collection: 'library',
  hierarchical: true,
  fields: {
    service_account_names: commaSet(),
    ttl: seconds(DAY),
    max_ttl: seconds(DAY),
    disable_check_in_enforcement: flag(false),
  },
  extra: (forms) => ({
    dependsOn: ['LDAPConfig'],
    check: (object) => [
      ...checkSetName(object),
      ...ttlWithinMax(object, { ttl: 'ttl', max: 'max_ttl', defaults: { ttl: DAY, max: DAY } }),
    ],
    // the set, and which of its accounts are out now (`checked_out`, never compared)
    async read(ctx, live) {
      const { scope = 'ldap', name } = live.address;
      const data = await readData(ctx, scope, 'library', name);
      if (!data) return undefined;
      const status = await readData(ctx, scope, 'library', name, 'status');
      const out = Object.entries(status ?? {})
        .filter(
          ([, state]) =>
            typeof state === 'object' && state !== null && (state as { available?: unknown }).available === false,
        )
        .map(([account]) => account);
      return {
        kind: live.kind,
        address: live.address,
        ref: name,
        fields: { ...forms.readable(data), checked_out: out },
      };
    },
    liveNotes(spec, live) {
      const out = Array.isArray(live.checked_out) ? (live.checked_out as string[]) : [];
      const kept = forms.desired(spec).service_account_names;
      const keep = Array.isArray(kept) ? kept : [];
      return out
        .filter((account) => !keep.includes(account))
        .map(
          (account) =>
            `${account} is checked out: the service refuses to remove it from the set until it is checked in`,
        );
    },
  }),
});
