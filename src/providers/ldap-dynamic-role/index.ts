/**
 * LDAP dynamic roles (docs/kinds.md, LDAPDynamicRole): templated LDIF that
 * creates an account per credential and deletes it when the lease ends.
 * The engine returns LDIF decoded, so base64 and plain LDIF compare equal.
 */
import { seconds, text } from '../shared/rules.ts';
import { secretsRoleProvider } from '../shared/secrets-role.ts';
import { ttlWithinMax } from '../shared/ttl-order.ts';
import { checkDynamicRole, ldifText } from './ldif.ts';

const ldif = { normalize: ldifText };

export const ldapDynamicRole = secretsRoleProvider({
  kind: 'LDAPDynamicRole',
  defaultMount: 'ldap',
  collection: 'role',
  hierarchical: true,
  fields: {
    creation_ldif: ldif,
    deletion_ldif: ldif,
    rollback_ldif: { ...ldif, default: '' },
    username_template: text(''),
    default_ttl: seconds(0),
    max_ttl: seconds(0),
  },
  extra: () => ({
    check: (object) => [
      ...checkDynamicRole(object),
      ...ttlWithinMax(object, { ttl: 'default_ttl', max: 'max_ttl', defaults: { ttl: 0, max: 0 } }),
    ],
    dependsOn: ['LDAPConfig'],
  }),
});
