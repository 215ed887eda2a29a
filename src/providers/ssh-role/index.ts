/** SSH roles (docs/kinds.md, SSHRole): `/v1/<mount>/roles/:name` of the secrets API's SSH engine. */
import { secretsRoleProvider } from '../shared/secrets-role.ts';
import { checkSshRole } from './checks.ts';
import { SSH_ROLE_FIELDS } from './fields.ts';

export const sshRole = secretsRoleProvider({
  kind: 'SSHRole',
  defaultMount: 'ssh',
  collection: 'roles',
  ...SSH_ROLE_FIELDS,
  extra: () => ({ check: checkSshRole }),
});
