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
import { checkValues } from '../shared/check-values.ts';
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
  if (spec.generate_signing_key === false && !keysGiven(spec)) {
    problems.push({
      path: 'spec.generate_signing_key',
      message: 'false needs the keys: give private_key and public_key, or let the service generate them',
    });
  }
  if (spec.generate_signing_key !== false && !keysGiven(spec)) problems.push(...keySizeProblems(object));
  return problems;
}

/** The sizes each type of generated key may ask for, 0 being the type's default (docs/kinds.md); ed25519 has one size. */
const KEY_SIZES: Record<string, { sizes: readonly number[]; said: string }> = {
  rsa: { sizes: [0, 2048, 3072, 4096], said: '2048, 3072 or 4096 (0: 4096)' },
  ec: { sizes: [0, 256, 384, 521], said: '256, 384 or 521 (0: 256)' },
  'ecdsa-sha2-nistp256': { sizes: [0, 256], said: '256 (its curve), or 0' },
  'ecdsa-sha2-nistp384': { sizes: [0, 384], said: '384 (its curve), or 0' },
  'ecdsa-sha2-nistp521': { sizes: [0, 521], said: '521 (its curve), or 0' },
};

/**
 * A generated key's size must be one its type has: the service refuses any other when it creates
 * the CA, and for a replacement that is after the old CA was deleted, which cannot be put back.
 */
function keySizeProblems(object: DesiredObject): SpecProblem[] {
  const { spec } = object;
  const type = String(spec.key_type ?? 'ssh-rsa');
  const allowed = KEY_SIZES[type === 'ssh-rsa' ? 'rsa' : type];
  const bits = spec.key_bits;
  if (!allowed || typeof bits !== 'number' || allowed.sizes.includes(bits)) return [];
  // either value may be a secret (src/providers/shared/check-values.ts): then the sizes are not listed either
  const values = checkValues(object);
  if (values.secret('key_bits') || values.secret('key_type')) {
    return [{ path: 'spec.key_bits', message: 'is no size its key_type has (the values are hidden: they are secret)' }];
  }
  return [{ path: 'spec.key_bits', message: `${bits} is no size for key_type ${type}: ${allowed.said}` }];
}
