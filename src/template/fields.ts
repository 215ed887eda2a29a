/**
 * The data each kind of LDAP secrets-engine template may reference, and the
 * default username template, as documented by the API spec the project
 * follows. Kept apart from the language so that the emulator and `validate`
 * share one list.
 */

/** Fields of LDIF templates (creation, deletion and rollback LDIF of dynamic roles). */
export const LDIF_FIELDS: readonly string[] = Object.freeze([
  'Username',
  'Password',
  'RoleName',
  'DisplayName',
  'IssueTime',
  'IssueTimeSeconds',
  'ExpirationTime',
  'ExpirationTimeSeconds',
]);

/** Fields of username templates. */
export const USERNAME_FIELDS: readonly string[] = Object.freeze(['RoleName', 'DisplayName']);

/** What the engine uses when a role sets no username template. */
export const DEFAULT_USERNAME_TEMPLATE = 'v_{{.DisplayName}}_{{.RoleName}}_{{random 10}}_{{unix_time}}';

/** The fixed clock of sample renders: 2024-01-02T15:04:05Z (the Go reference time, in January 2024). */
export const SAMPLE_TIME = new Date(Date.UTC(2024, 0, 2, 15, 4, 5));

/**
 * Sample values for a render without real data (`converge validate`). The
 * types match the engine's: times are RFC 3339 strings, the *Seconds fields
 * are integers, so a template that pipes an integer into a string function
 * fails here as it would in the engine.
 */
export const SAMPLE_VALUES: Readonly<Record<string, string | number>> = Object.freeze({
  Username: 'v_token_dev_Ab3dE9gH1k_1704207845',
  Password: 'S4mple-Passw0rd',
  RoleName: 'dev',
  DisplayName: 'token',
  IssueTime: '2024-01-02T15:04:05Z',
  IssueTimeSeconds: 1704207845,
  ExpirationTime: '2024-01-02T16:04:05Z',
  ExpirationTimeSeconds: 1704211445,
});
