/**
 * Request counts for tests and benchmarks. Only API requests count (the
 * control endpoints under `/_emulator` do not), by route pattern
 * (`GET /api/v2/admin/tool-versions/:id`) and by answered status.
 */

export interface EmulatorStats {
  total: number;
  byRoute: Record<string, number>;
  byStatus: Record<string, number>;
  /** Injected faults of any kind. */
  faults: number;
  /** 429s of the real rate limit (not injected ones). */
  rateLimited: number;
}

export class Stats {
  #total = 0;
  #byRoute = new Map<string, number>();
  #byStatus = new Map<number, number>();
  #faults = 0;
  #rateLimited = 0;

  request(route: string): void {
    this.#total++;
    this.#byRoute.set(route, (this.#byRoute.get(route) ?? 0) + 1);
  }

  status(status: number): void {
    this.#byStatus.set(status, (this.#byStatus.get(status) ?? 0) + 1);
  }

  fault(): void {
    this.#faults++;
  }

  rateLimited(): void {
    this.#rateLimited++;
  }

  snapshot(): EmulatorStats {
    return {
      total: this.#total,
      byRoute: Object.fromEntries(this.#byRoute),
      byStatus: Object.fromEntries([...this.#byStatus].map(([status, n]) => [String(status), n])),
      faults: this.#faults,
      rateLimited: this.#rateLimited,
    };
  }

  reset(): void {
    this.#total = 0;
    this.#byRoute.clear();
    this.#byStatus.clear();
    this.#faults = 0;
    this.#rateLimited = 0;
  }
}
