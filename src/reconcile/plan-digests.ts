/**
 * What a saved plan keeps of what it was made with, as keyed digests
 * (./keyed-digest.ts): the configuration's content, every field of every
 * planned object (secrets, `${file:}` content and a module's packed content
 * included), every field of each touched live object, and the whole file.
 * A digest binds its object and field, so equal values in two places do not
 * show as equal, and nobody without the key can test a guess of a secret
 * against the file (docs/security.md, "Saved plans").
 */
import { randomBytes } from 'node:crypto';
import { deriveKeyWithCheck, keyedHash } from './keyed-digest.ts';
import type { Digests, PlanKeyRecord, SavedPlan } from './plan-file.ts';
import type { Provider } from './provider.ts';
import { stableStringify } from './stable-json.ts';
import type { DesiredObject, Fields, Json, LiveObject } from './types.ts';

const KEY_CHECK = 'converge saved plan key check';
/** Digest names for what is not a field: they cannot collide with a spec key. */
export const ENSURE = '(ensure)';
export const REF = '(ref)';

export class PlanDigester {
  readonly #key: Buffer;
  readonly record: PlanKeyRecord;

  private constructor(key: Buffer, record: PlanKeyRecord) {
    this.#key = key;
    this.record = record;
  }

  /** A new key for a plan being saved: a fresh salt. */
  static create(from: PlanKeyRecord['from'], secret: string): PlanDigester {
    return PlanDigester.derive(from, secret, randomBytes(16).toString('base64'));
  }

  /** The key a saved plan was made with, if `secret` is what it came from (see `matches`). */
  static derive(from: PlanKeyRecord['from'], secret: string, salt: string): PlanDigester {
    const { key, check } = deriveKeyWithCheck(secret, `converge-plan|${salt}`, KEY_CHECK);
    return new PlanDigester(key, { from, salt, check });
  }

  /** Whether this is the key the saved plan was made with. */
  matches(record: PlanKeyRecord): boolean {
    return record.from === this.record.from && record.check === this.record.check;
  }

  #digest(...parts: Json[]): string {
    return keyedHash(this.#key, stableStringify(parts));
  }

  /** The configuration's sections (tokens already left out by the caller). */
  config(sections: Record<string, Json>): Digests {
    return Object.fromEntries(
      Object.entries(sections).map(([name, value]) => [name, this.#digest('config', name, value)]),
    );
  }

  /** Every field of a desired object as it is planned, secret or not, and its `ensure`. */
  desired(key: string, object: DesiredObject, provider: Provider | undefined): Digests {
    const fields: Fields = { ...object.spec, ...(provider ? provider.canonicalDesired(object.spec) : {}) };
    return {
      [ENSURE]: this.#digest('desired', key, ENSURE, object.ensure),
      ...this.#fields('desired', key, fields),
    };
  }

  live(key: string, object: LiveObject | undefined, provider: Provider | undefined): Digests | null {
    if (!object) return null;
    const fields: Fields = object.fields && provider ? provider.canonicalLive(object.fields) : (object.fields ?? {});
    return { [REF]: this.#digest('live', key, REF, object.ref), ...this.#fields('live', key, fields) };
  }

  /** Over every part of the file but this digest itself, as JSON reads it back. */
  integrity(plan: Omit<SavedPlan, 'integrity'> & { integrity?: string }): string {
    const { integrity: _ignored, ...rest } = plan;
    return this.#digest('integrity', JSON.parse(JSON.stringify(rest)) as Json);
  }

  #fields(side: string, key: string, fields: Fields): Digests {
    return Object.fromEntries(
      Object.entries(fields)
        .filter(([, value]) => value !== undefined)
        .map(([field, value]) => [field, this.#digest(side, key, field, value)]),
    );
  }
}
