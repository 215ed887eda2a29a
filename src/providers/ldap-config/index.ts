/**
 * The LDAP engine's configuration, one per mount (docs/kinds.md,
 * LDAPConfig). A POST updates the fields it sends, so only changes go out.
 * `bindpass` is write-only, and once the engine has rotated its root
 * password (`last_bind_password_rotation` in the read) the manifest's value
 * is never sent again unless the user changed it: the old password would
 * lock the engine out of its directory.
 */
import type { SpecProblem } from '../../manifest/catalog.ts';
import type { DesiredObject, Json } from '../../reconcile/types.ts';
import type { FieldsConfig } from '../shared/fields.ts';
import { mountSingletonProvider } from '../shared/mount-singleton.ts';
import * as normalize from '../shared/normalize.ts';
import { flag, integer, pemCertificate, seconds, text, writeOnly } from '../shared/rules.ts';

const USER_ATTR: Record<string, string> = { openldap: 'cn', ad: 'userPrincipalName', racf: 'racfid' };

/** `a, b` and `a,b` are the same URL list; order matters (tried in order). */
const urlList: normalize.Normalizer = (value) =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((u) => u.trim())
        .filter((u) => u !== '')
        .join(',')
    : value;

const FIELDS: FieldsConfig = {
  fields: {
    binddn: text(),
    bindpass: writeOnly(),
    url: { default: 'ldap://127.0.0.1', normalize: urlList },
    schema: { default: 'openldap', normalize: normalize.lowerCase },
    userdn: text(''),
    userattr: { default: (fields) => USER_ATTR[String(fields.schema)] ?? 'cn' },
    upndomain: text(''),
    password_policy: text(''),
    length: integer(0),
    request_timeout: seconds(90),
    connection_timeout: seconds(30),
    starttls: flag(false),
    insecure_tls: flag(false),
    certificate: pemCertificate('', 'client_tls_key'),
    // optional, and never exported: the engine's read does not show a client certificate, so export
    // leaves both out, unmanaged, rather than ask for a key the engine may not use
    client_tls_cert: writeOnly({ secret: false, exported: false }),
    client_tls_key: writeOnly({ exported: false }),
    skip_static_role_import_rotation: flag(false),
    rotation_period: seconds(0),
    rotation_schedule: text(''),
    rotation_window: seconds(0),
    disable_automated_rotation: flag(false),
  },
  // the engine leaves out a password policy and a length that are not set
  finish: (fields) => ({ ...fields, password_policy: fields.password_policy ?? '', length: fields.length ?? 0 }),
};

export const ldapConfig = mountSingletonProvider({
  kind: 'LDAPConfig',
  defaultMount: 'ldap',
  path: ['config'],
  updateStyle: 'patch',
  ...FIELDS,
  extra: () => ({
    heldSecrets(live) {
      const rotated = live.last_bind_password_rotation;
      if (typeof rotated !== 'string' || rotated === '') return new Map();
      return new Map([
        [
          'bindpass',
          `the engine rotated its root password at ${rotated}; the manifest's old value would lock it out of the directory (a changed bindpass is sent)`,
        ],
      ]);
    },
    check: checkConfig,
  }),
});

function checkConfig(object: DesiredObject): SpecProblem[] {
  const spec = object.spec;
  const problems: SpecProblem[] = [];
  const at = (field: string, message: string) => problems.push({ path: `spec.${field}`, message });
  if (spec.password_policy && Number(spec.length ?? 0) > 0) at('length', 'cannot be set together with password_policy');
  const secondsOf = (value: Json | undefined) => {
    const n = value === undefined ? undefined : normalize.duration(value);
    return typeof n === 'number' ? n : undefined;
  };
  const period = secondsOf(spec.rotation_period) ?? 0;
  const window = secondsOf(spec.rotation_window) ?? 0;
  const schedule = typeof spec.rotation_schedule === 'string' ? spec.rotation_schedule.trim() : '';
  if (period > 0 && period < 10) at('rotation_period', 'must be at least 10 seconds (or 0: never)');
  if (period > 0 && schedule) at('rotation_schedule', 'cannot be set together with rotation_period');
  if (window > 0 && !schedule) at('rotation_window', 'applies to rotation_schedule only');
  if (window > 0 && window < 3600) at('rotation_window', 'must be at least 1h');
  if (schedule && schedule.split(/\s+/).length !== 5) at('rotation_schedule', 'must be a cron schedule of five fields');
  return problems;
}
