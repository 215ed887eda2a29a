/**
 * `defineProvider(shape, table)`: a provider from the calls its API needs
 * (the shape) and its field table. Everything the table decides (canonical
 * forms, write-only, immutable and create-only fields, plan notes, how values
 * are shown, secrets a manifest must not write as literals) is derived here
 * once, and the common choices have defaults, so a kind states only what is
 * its own.
 */
import type { Provider } from '../../reconcile/provider.ts';
import { type CanonicalForms, canonicalForms, type FieldsConfig } from './fields.ts';
import { reservedMountProblems } from './secrets-api.ts';

type FromTable =
  | 'fieldPaths'
  | 'writeOnly'
  | 'exportedWriteOnly'
  | 'immutable'
  | 'createOnly'
  | 'remembers'
  | 'defaulted'
  | 'canonicalDesired'
  | 'canonicalLive'
  | 'canonicalKeysFollowSpec'
  | 'present'
  | 'wire';
type Defaulted = 'api' | 'cardinality' | 'scoped' | 'updateStyle' | 'dependsOn';

/** What a kind says itself; the rest comes from its table or the defaults below. */
export type ProviderShape = Omit<Provider, FromTable | Defaulted> & Partial<Pick<Provider, Defaulted>>;

export function defineProvider(shape: (forms: CanonicalForms) => ProviderShape, table: FieldsConfig): Provider {
  const forms = canonicalForms(table);
  const own = shape(forms);
  const api = own.api ?? 'platform';
  return {
    api,
    cardinality: 'many',
    scoped: false,
    updateStyle: 'patch',
    dependsOn: [],
    fieldPaths: forms.paths,
    writeOnly: forms.writeOnly,
    exportedWriteOnly: forms.exportedWriteOnly,
    immutable: forms.immutable,
    createOnly: forms.createOnly,
    defaulted: forms.defaulted,
    ...(forms.remembered.length > 0 && { remembers: forms.remembered }),
    canonicalDesired: forms.desired,
    canonicalLive: forms.live,
    // the claim is the table's: a kind that made its own canonical form (which its shape's type
    // forbids, but a spread could slip in) makes none
    canonicalKeysFollowSpec: forms.keysFollowSpecKeys && !('canonicalDesired' in own),
    present: forms.present,
    wire: forms.wire,
    // every secret that is configuration, whether or not export would ask for it (a generated CA's key)
    unrestorable: (live) => unreadable(forms.configurationWriteOnly(live.fields ?? {})),
    ...own,
    // the table's notes (a field that does not apply), then the kind's own
    notes: own.notes ? (spec, secret) => [...forms.notes(spec), ...(own.notes?.(spec, secret) ?? [])] : forms.notes,
    // a secrets engine's reserved mount and the table's rules first (a secret written as a literal,
    // an empty secret), then the kind's own
    check: (object, all) => [
      ...reservedMountProblems(api, object.metadata),
      ...forms.tableProblems(object),
      ...(own.check?.(object, all) ?? []),
    ],
  };
}

/** Why a deleted object cannot be put back from what was read: its write-only fields were never read. */
function unreadable(writeOnly: readonly string[]): string | undefined {
  if (writeOnly.length === 0) return undefined;
  return `${writeOnly.join(', ')} ${writeOnly.length === 1 ? 'is' : 'are'} never read back, so cannot be sent again`;
}
