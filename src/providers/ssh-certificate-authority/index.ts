/**
 * The SSH engine's certificate authority, one per mount (docs/kinds.md,
 * SSHCertificateAuthority). The API reads back only the public key, so an
 * existing CA is compared by it: a declared public key that differs is a
 * replacement, which invalidates every certificate the old key signed and
 * so needs `--allow-replace`. A generated CA is compared by the type and
 * size of its live public key, and by the key converge saw after generating
 * it (a key swapped by hand is drift). The private key is sent, never read,
 * shown nor exported, so a CA cannot be put back once deleted, and export
 * writes every CA as generated.
 */

import type { SpecProblem } from '../../manifest/catalog.ts';
import type { DesiredObject, Fields, Json, LiveObject } from '../../reconcile/types.ts';
import { type FieldsConfig, fromPlaceholder } from '../shared/fields.ts';
import { mountSingletonProvider } from '../shared/mount-singleton.ts';
import { writeOnly } from '../shared/rules.ts';
import { keyShape } from './key-shape.ts';
import { keyPairProblem } from './keys.ts';

const kind = 'SSHCertificateAuthority';
const DEFAULT_MOUNT = 'ssh';

/** `type base64`: the comment and surrounding space of a public key line do not change the key. */
const publicKeyLine = (value: Json): Json => {
  if (typeof value !== 'string') return value;
  const [type, blob] = value.trim().split(/\s+/);
  return type && blob ? `${type} ${blob}` : value.trim();
};

const keysGiven = (fields: Fields) => fields.private_key !== undefined || fields.public_key !== undefined;

const generated = (fields: Fields) => fields.generate_signing_key === true;

const FIELDS: FieldsConfig = {
  fields: {
    generate_signing_key: { default: (fields) => !keysGiven(fields), createOnly: true },
    // a generated key's type and size, as `rsa 4096` (src/providers/ssh-certificate-authority/key-shape.ts)
    key_type: { default: 'ssh-rsa', appliesWhen: generated, immutable: true },
    key_bits: { appliesWhen: generated, immutable: true },
    // never exported: see toManifest
    private_key: { ...writeOnly({ exported: false }), createOnly: true, sensitive: 'a private key' },
    // a generated CA's key, as converge saw it after creating the CA: a key swapped by hand is drift
    public_key: { normalize: publicKeyLine, immutable: true, remembered: true },
  },
  finish: keyShape,
};

export const sshCertificateAuthority = mountSingletonProvider({
  kind,
  defaultMount: DEFAULT_MOUNT,
  path: ['config', 'ca'],
  // never updated in place: every compared field is immutable, and a change to one is a replacement
  updateStyle: 'never',
  ...FIELDS,
  extra: (forms) => ({
    replaceConsent: 'a new CA key invalidates every certificate the old key signed',
    // the service does not say how its key came to be, and nobody can supply the private key of a
    // key it generated: export writes a generated CA of the live key's type and size, which plans
    // clean and validates; an imported CA's owner swaps in private_key and public_key
    toManifest: (live: LiveObject) => {
      const { key_type, key_bits } = forms.exportSpec(live.fields ?? {});
      return {
        kind,
        metadata: { mount: live.address.scope ?? DEFAULT_MOUNT },
        spec: { generate_signing_key: true, ...(key_type !== undefined && { key_type, key_bits: key_bits ?? 0 }) },
      };
    },
    check: checkCa,
  }),
});

/**
 * With the private key (from `${file:}` or `${env:}`: a rule of the field table), its public key;
 * neither for a generated one.
 */
function checkCa(object: DesiredObject): SpecProblem[] {
  const { spec } = object;
  const problems: SpecProblem[] = [];
  if ((spec.private_key === undefined) !== (spec.public_key === undefined)) {
    problems.push({
      path: 'spec',
      message: 'private_key and public_key are given together, or neither (a generated key)',
    });
  }
  const interpolated = fromPlaceholder(object, 'private_key');
  if (interpolated && typeof spec.private_key === 'string' && typeof spec.public_key === 'string') {
    const pair = keyPairProblem(spec.private_key, spec.public_key);
    if (pair) problems.push({ path: `spec.${pair.field}`, message: pair.message });
  }
  if (spec.generate_signing_key === true && keysGiven(spec)) {
    problems.push({ path: 'spec.generate_signing_key', message: 'cannot be true when the keys are given' });
  }
  return problems;
}
