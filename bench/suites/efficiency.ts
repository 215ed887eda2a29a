/**
 * Request efficiency: for each kind, plan and apply N objects and compare
 * the requests the emulator saw with the fewest the API allows (the kind's
 * `planBound`/`applyBound` in bench/kinds.ts). Target: equal. Counts do
 * not depend on timing, so the emulator runs in this process (it starts faster).
 */
import { join } from 'node:path';
import { type BenchKind, KINDS, providersFor } from '../kinds.ts';
import { type PopulateClients, UNLIMITED, withEmulator } from '../lib/emulator.ts';
import { ADAPTIVE, desiredFrom, timedApply, timedPlan } from '../lib/engine.ts';
import { writeManifests } from '../lib/manifests.ts';
import { tempDir } from '../lib/paths.ts';
import { bySize, type Checked, type SuiteOptions } from '../lib/report.ts';

export interface EfficiencyRow extends Checked {
  kind: string;
  reads: BenchKind['reads'];
  phase: 'plan' | 'apply';
  /** Declared objects. */
  objects: number;
  /** Requests the emulator counted. */
  requests: number;
  lowerBound: number;
  /** Requests by route, for finding the extra ones when there are. */
  byRoute: Record<string, number>;
}

/**
 * A smoke run's size: every kind's requests per object, per folder and per module show from a
 * few objects on: 12 is two modules of test variables (ten a module), a live LDAP object in each
 * of the four folders, six module versions published (a tenth of a second of CPU each, packing
 * and ingesting the archive). Reading more than one page is the memory suite's smoke run (and
 * test/unit/providers/jsonapi.test.ts).
 */
const SMOKE = 12;

export async function efficiency(options: SuiteOptions): Promise<EfficiencyRow[]> {
  const sizes = bySize(options, [1, 250, 1000], [150], [SMOKE]);
  const dir = await tempDir('efficiency');
  const rows: EfficiencyRow[] = [];
  for (const kind of KINDS) {
    for (const size of sizes) {
      if (kind.singleton && size !== sizes[sizes.length - 1]) continue;
      const n = kind.singleton ? 1 : size;
      const manifests = await writeManifests(join(dir, `${kind.name}-${n}`), kind.documents(n), kind.files);
      const desired = await desiredFrom(manifests);
      const providers = providersFor([kind]);
      const launch = {
        dir,
        seed: kind.seed(n),
        raiseLimitTo: UNLIMITED,
        inProcess: true,
        ...(kind.populate && { populate: (clients: PopulateClients) => kind.populate!(clients, n) }),
      };
      await withEmulator(launch, async (emulator) => {
        const plan = await timedPlan(emulator, desired, providers, ADAPTIVE);
        const planStats = await emulator.stats();
        await emulator.resetStats();
        const apply = await timedApply(emulator, plan.run, providers, ADAPTIVE);
        const applyStats = await emulator.stats();
        if (apply.failed > 0) throw new Error(`${kind.name}: ${apply.failed} actions failed`);
        for (const [phase, stats, bound] of [
          ['plan', planStats, kind.planBound(n)],
          ['apply', applyStats, kind.applyBound(n)],
        ] as const) {
          const row: EfficiencyRow = {
            kind: kind.name,
            reads: kind.reads,
            phase,
            objects: n,
            requests: stats.total,
            lowerBound: bound,
            byRoute: stats.byRoute,
            target: '== lower bound',
            met: stats.total === bound,
          };
          rows.push(row);
          options.log(
            `efficiency ${kind.name} ${phase} ${n}: ${row.requests} requests, lower bound ${bound}` +
              (row.met ? '' : `  MISSED ${JSON.stringify(stats.byRoute)}`),
          );
        }
      });
    }
  }
  return rows;
}
