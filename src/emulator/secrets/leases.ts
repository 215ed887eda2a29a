/**
 * Leases of the secrets API: what an engine hands out for a while (an LDAP
 * dynamic credential, a library check-out). They expire on their own, and
 * are renewed and revoked through `PUT /v1/sys/leases/renew` and
 * `PUT /v1/sys/leases/revoke` (body `lease_id`), as the real service does.
 * The records are plain JSON and saved with the state; what expiring means
 * is the engine's, registered per mount and kind.
 */
import { randomBytes } from 'node:crypto';
import { refused } from './envelope.ts';

export interface Lease {
  id: string;
  mount: string;
  /** The engine's name for what was leased: `creds`, `check-out`. */
  kind: string;
  /** What the engine needs to end it (the rendered deletion LDIF, the account to check in). */
  data: Record<string, unknown>;
  /** Seconds the lease was given, the increment a renewal without one gets; 0: no end. */
  ttl: number;
  /** Epoch ms; null: no end. */
  expiresAt: number | null;
  /** Epoch ms a renewal cannot go past; null: none. */
  maxExpiresAt: number | null;
  renewable: boolean;
}

/** What ends a lease of one kind in one mount (revoke and expiry alike). */
export type LeaseEnd = (lease: Lease) => Promise<void>;

export class Leases {
  readonly #records = new Map<string, Lease>();
  readonly #ends = new Map<string, LeaseEnd>();
  readonly #now: () => number;

  constructor(saved: readonly Lease[], now: () => number) {
    for (const lease of saved) this.#records.set(lease.id, lease);
    this.#now = now;
  }

  onEnd(mount: string, kind: string, end: LeaseEnd): void {
    this.#ends.set(`${mount}\u0000${kind}`, end);
  }

  /** A new lease; `ttl` and `maxTtl` in seconds, 0 for none. */
  issue(mount: string, kind: string, path: string, data: Record<string, unknown>, ttl: number, maxTtl: number): Lease {
    const now = this.#now();
    const lease: Lease = {
      id: `${mount}/${path}/${randomBytes(12).toString('base64url')}`,
      mount,
      kind,
      data,
      ttl,
      expiresAt: ttl > 0 ? now + ttl * 1000 : null,
      maxExpiresAt: maxTtl > 0 ? now + maxTtl * 1000 : null,
      renewable: true,
    };
    this.#records.set(lease.id, lease);
    return lease;
  }

  get(id: string): Lease | undefined {
    return this.#records.get(id);
  }

  /** Seconds left of a lease (0 for one without an end). */
  secondsLeft(lease: Lease): number {
    return lease.expiresAt === null ? 0 : Math.max(0, Math.round((lease.expiresAt - this.#now()) / 1000));
  }

  renew(id: string, increment: number): Lease {
    const lease = this.#records.get(id);
    if (!lease) throw refused('lease not found');
    if (!lease.renewable) throw refused('lease is not renewable');
    const wanted = this.#now() + (increment > 0 ? increment : lease.ttl) * 1000;
    if (lease.expiresAt !== null) lease.expiresAt = Math.min(wanted, lease.maxExpiresAt ?? wanted);
    return lease;
  }

  /** Ends a lease now: the engine undoes what it handed out, then the lease is gone. */
  async revoke(id: string): Promise<void> {
    const lease = this.#records.get(id);
    if (!lease) throw refused('lease not found');
    await this.#end(lease);
  }

  /** Leases of a mount and kind matching `test` (a check-in ends the check-out's lease). */
  find(mount: string, kind: string, test: (lease: Lease) => boolean): Lease[] {
    return [...this.#records.values()].filter((l) => l.mount === mount && l.kind === kind && test(l));
  }

  forget(id: string): void {
    this.#records.delete(id);
  }

  /** Ends every lease whose time is up. */
  async expire(): Promise<void> {
    const now = this.#now();
    const due = [...this.#records.values()].filter((l) => l.expiresAt !== null && l.expiresAt <= now);
    for (const lease of due) await this.#end(lease);
  }

  async #end(lease: Lease): Promise<void> {
    this.#records.delete(lease.id);
    await this.#ends.get(`${lease.mount}\u0000${lease.kind}`)?.(lease);
  }

  save(): Lease[] {
    return [...this.#records.values()];
  }
}
