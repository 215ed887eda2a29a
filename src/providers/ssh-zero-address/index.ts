/**
 * The SSH engine's zero-address list, one per mount (docs/kinds.md,
 * SSHZeroAddress): OTP roles that accept any address. It names roles, so it
 * is written after them; a role that is neither declared nor live is a plan
 * error, because the API refuses the list.
 */
import { mountSingletonProvider } from '../shared/mount-singleton.ts';
import { commaSet } from '../shared/rules.ts';

export const sshZeroAddress = mountSingletonProvider({
  kind: 'SSHZeroAddress',
  defaultMount: 'ssh',
  path: ['config', 'zeroaddress'],
  updateStyle: 'replace',
  fields: { roles: commaSet() },
  extra: (forms) => ({
    dependsOn: ['SSHRole'],
    references(desired) {
      const roles = forms.desired(desired.spec).roles;
      const mount = desired.address.scope ?? 'ssh';
      return Array.isArray(roles) ? roles.map((name) => ({ kind: 'SSHRole', scope: mount, name: String(name) })) : [];
    },
  }),
});
