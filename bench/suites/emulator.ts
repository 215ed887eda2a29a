/**
 * Emulator throughput: autocannon (its own process) against the emulator
 * (its own process) on loopback, rate limit off, no latency. The headline is
 * a small GET (general settings); a full page of 100 tool versions, and one
 * SSH role of the secrets API (what a plan of SSH roles reads per object),
 * are shown for scale.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { KINDS } from '../kinds.ts';
import { type PopulateClients, withEmulator } from '../lib/emulator.ts';
import { tempDir } from '../lib/paths.ts';
import { atLeast, type Checked, fmt, mark, round, type SuiteOptions } from '../lib/report.ts';

export interface ThroughputRow {
  request: string;
  connections: number;
  durationS: number;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  non2xx: number;
  errors: number;
  check?: Checked;
}

export interface EmulatorResult {
  rows: ThroughputRow[];
}

const TARGET = 5000;
const CONNECTIONS = 10;

/** The part of autocannon's `--json` output used here. */
interface AutocannonJson {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}

export async function emulatorThroughput(options: SuiteOptions): Promise<EmulatorResult> {
  const durationS = options.quick ? 1 : 10;
  const dir = await tempDir('emulator');
  const versions = KINDS.find((k) => k.name === 'ToolVersion');
  const roles = KINDS.find((k) => k.name === 'SSHRole');
  const launch = {
    dir,
    rateLimit: false,
    ...(versions && { seed: versions.seed(200) }),
    ...(roles?.populate && { populate: (clients: PopulateClients) => roles.populate!(clients, 2) }),
  };
  const rows: ThroughputRow[] = [];
  await withEmulator(launch, async (emulator) => {
    const platform = `authorization=Bearer ${emulator.token}`;
    const requests = [
      {
        request: 'GET /api/v2/admin/general-settings',
        path: '/api/v2/admin/general-settings',
        header: platform,
        target: true,
      },
      {
        request: 'GET /api/v2/admin/tool-versions (page of 100)',
        path: '/api/v2/admin/tool-versions?page%5Bsize%5D=100',
        header: platform,
        target: false,
      },
      ...(roles
        ? [
            {
              request: 'GET /v1/ssh/roles/:name (secrets API)',
              // the first role the SSH entry of bench/kinds.ts makes live
              path: `/v1/ssh/roles/${roles.documents(1)[0]?.metadata?.name ?? ''}`,
              header: `x-service-token=${emulator.tokens.secrets}`,
              target: false,
            },
          ]
        : []),
    ];
    for (const { request, path, header, target } of requests) {
      const result = await autocannon(`${emulator.url}${path}`, header, durationS);
      const rps = round(result.requests.average);
      const row: ThroughputRow = {
        request,
        connections: CONNECTIONS,
        durationS,
        requestsPerSecond: rps,
        latencyP50Ms: result.latency.p50,
        latencyP99Ms: result.latency.p99,
        non2xx: result.non2xx,
        errors: result.errors,
        ...(target && { check: atLeast(rps, TARGET, ' requests/s') }),
      };
      rows.push(row);
      options.log(
        `emulator ${request}: ${fmt(rps)} requests/s, p50 ${row.latencyP50Ms} ms, p99 ${row.latencyP99Ms} ms` +
          (row.check ? ` (${mark(row.check)} ${row.check.target})` : '') +
          (row.non2xx + row.errors > 0 ? `, ${row.non2xx} non-2xx, ${row.errors} errors` : ''),
      );
    }
  });
  return { rows };
}

/** autocannon's CLI on this Node, JSON on stdout. */
async function autocannon(url: string, header: string, durationS: number): Promise<AutocannonJson> {
  const require = createRequire(import.meta.url);
  const bin = join(dirname(require.resolve('autocannon/package.json')), 'autocannon.js');
  const args = [bin, '--json', '-c', String(CONNECTIONS), '-d', String(durationS)];
  args.push('-H', header, url);
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
    (resolve, reject) => {
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        err = (err + chunk.toString()).slice(-4000);
      });
      child.on('error', reject);
      child.on('close', (exit) => resolve({ code: exit, stdout: out, stderr: err }));
    },
  );
  if (code !== 0) throw new Error(`autocannon exited ${code}: ${stderr}`);
  return JSON.parse(stdout) as AutocannonJson;
}
