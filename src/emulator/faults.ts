/**
 * Injected faults for reliability tests. Each API request fails with
 * probability `rate`, with a kind picked uniformly from `kinds`:
 * - `429`, `500`, `503`: an error answer; the request is not applied.
 * - `drop`: the connection is closed before the request is read: not applied.
 * - `timeout`: no answer; the connection is held (`holdMs`, or until the
 *   client gives up or the emulator closes) and then closed: not applied.
 * - `lost`: the request IS applied, then the connection is closed instead of
 *   answering: the client cannot know whether its change happened.
 */

export const FAULT_KINDS = ['429', '500', '503', 'drop', 'timeout', 'lost'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultSettings {
  rate: number;
  kinds: FaultKind[];
  /** Makes the sequence of faults reproducible. */
  seed?: number;
  /** How long a `timeout` fault holds the connection; default 30 s. */
  holdMs?: number;
}

export const DEFAULT_HOLD_MS = 30_000;

/** The settings, or a message saying what is wrong with them. */
export function checkFaults(value: unknown): FaultSettings | string {
  if (typeof value !== 'object' || value === null) return 'faults must be an object {rate, kinds}';
  const { rate, kinds, seed, holdMs } = value as Record<string, unknown>;
  if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1)) return 'rate must be a number from 0 to 1';
  if (!Array.isArray(kinds) || kinds.length === 0) return `kinds must be a non-empty list of ${FAULT_KINDS.join(', ')}`;
  const unknown = kinds.filter((k) => !FAULT_KINDS.includes(k as FaultKind));
  if (unknown.length > 0) return `unknown fault kind(s) ${unknown.join(', ')}; known: ${FAULT_KINDS.join(', ')}`;
  if (seed !== undefined && !Number.isInteger(seed)) return 'seed must be an integer';
  if (holdMs !== undefined && !(typeof holdMs === 'number' && holdMs >= 0)) return 'holdMs must be a number >= 0';
  return {
    rate,
    kinds: kinds as FaultKind[],
    ...(seed !== undefined && { seed: seed as number }),
    ...(holdMs !== undefined && { holdMs: holdMs as number }),
  };
}

export class Faults {
  #settings: FaultSettings | undefined;
  #random: () => number = Math.random;

  get settings(): FaultSettings | undefined {
    return this.#settings;
  }

  set(settings: FaultSettings | undefined): void {
    this.#settings = settings && settings.rate > 0 ? settings : undefined;
    this.#random = settings?.seed === undefined ? Math.random : mulberry32(settings.seed);
  }

  /** The fault for this request, if any. */
  pick(): FaultKind | undefined {
    const settings = this.#settings;
    if (!settings || this.#random() >= settings.rate) return undefined;
    return settings.kinds[Math.floor(this.#random() * settings.kinds.length)];
  }
}

/** A small seeded PRNG: the same seed gives the same faults, run after run. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
