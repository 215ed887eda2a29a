/**
 * Module test runs: queued when created, running a moment later, then
 * finished with the outcome ./tests decides from the uploaded `*.tftest.hcl`
 * files and the variables. States advance with time, worked out when a run
 * is read, so no timer is needed and a saved state resumes where it was.
 * Cancel is 202 only for a running run, which then ends canceled;
 * force-cancel only after a cancel (the spec's state table). A run of a
 * configuration upload that could not be read has no outcome: it ends errored.
 */
import type { EmulatorContext } from '../context.ts';
import { newId, randomBase62 } from '../ids.ts';
import type { Attributes, ResourceObject } from '../jsonapi.ts';
import type { RegistrySlice, TestRun } from './state.ts';
import { decideTestRun } from './tests/index.ts';

/** How long a run stays queued, and then running: long enough to watch, short enough for tests. */
export const QUEUED_MS = 200;
export const RUNNING_MS = 600;
/** How long a run takes to stop after a cancel. */
export const CANCEL_MS = 300;

export type RunStatus = 'queued' | 'running' | 'finished' | 'errored' | 'canceled';

/**
 * When a cancel takes effect: CANCEL_MS after the request, or when the run
 * would have ended anyway, whichever comes first. Without the second bound a
 * cancel in a run's last CANCEL_MS showed it `finished` (with its outcome)
 * and then, moments later, `canceled`.
 */
function cancelEndsAt(run: TestRun): number | null {
  if (run.canceledAt !== null) return run.canceledAt;
  return run.cancelRequestedAt === null ? null : Math.min(run.cancelRequestedAt + CANCEL_MS, run.endAt);
}

export function runStatus(ctx: EmulatorContext, run: TestRun): RunStatus {
  const now = ctx.now();
  const canceled = cancelEndsAt(run);
  if (canceled !== null && canceled <= now) return 'canceled';
  if (now < run.startAt) return 'queued';
  if (now < run.endAt) return 'running';
  return run.outcome ? 'finished' : 'errored';
}

/** The run as it is now: its outcome only once it finished. */
export function currentRun(ctx: EmulatorContext, _slice: RegistrySlice, run: TestRun): TestRun {
  return runStatus(ctx, run) === 'finished' ? run : { ...run, outcome: null };
}

export interface NewRun {
  moduleId: string;
  configurationVersionId: string;
  source: string;
  createdBy: string;
  attributes: Attributes;
  message: string;
}

export async function startRun(ctx: EmulatorContext, slice: RegistrySlice, input: NewRun): Promise<TestRun> {
  const { attributes } = input;
  const created = ctx.now();
  const cv = slice.data.configurationVersions.find((c) => c.id === input.configurationVersionId);
  const variables = Array.isArray(attributes.variables)
    ? (attributes.variables as Array<{ key?: unknown; value?: unknown }>).map((v) => ({
        key: String(v.key ?? ''),
        value: String(v.value ?? ''),
      }))
    : [];
  const run: TestRun = {
    id: newId('trun'),
    moduleId: input.moduleId,
    configurationVersionId: input.configurationVersionId,
    source: input.source,
    createdBy: input.createdBy,
    verbose: attributes.verbose === true,
    testDirectory: typeof attributes['test-directory'] === 'string' ? attributes['test-directory'] : 'tests',
    filters: Array.isArray(attributes.filters) ? attributes.filters.map(String) : [],
    variables,
    message: input.message,
    createdAt: created,
    startAt: created + QUEUED_MS,
    endAt: created + QUEUED_MS + RUNNING_MS,
    cancelRequestedAt: null,
    canceledAt: null,
    outcome: null,
    logToken: randomBase62(32),
  };
  // the module's defaults first: its test variables override them
  const declared = slice.data.variables
    .filter((v) => v.moduleId === input.moduleId)
    .map((v) => ({ key: v.key, value: v.value, category: v.category, sensitive: v.sensitive }));
  const moduleVariables = [...(cv?.defaults ?? []).filter((d) => !declared.some((v) => v.key === d.key)), ...declared];
  // a configuration that could not be read gives no outcome: the run ends `errored`
  if (cv?.error !== undefined) {
    slice.data.runs.push(run);
    return run;
  }
  const outcome = await decideTestRun({
    files: cv?.files ?? [],
    testDirectory: run.testDirectory,
    filters: run.filters,
    moduleVariables,
    runVariables: variables,
    verbose: run.verbose,
  });
  run.outcome = {
    testStatus: outcome.testStatus,
    passed: outcome.passed,
    failed: outcome.failed,
    errored: outcome.errored,
    skipped: outcome.skipped,
    log: outcome.log,
  };
  slice.data.runs.push(run);
  return run;
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');

export function runResource(ctx: EmulatorContext, run: TestRun, logBase: string): ResourceObject {
  const status = runStatus(ctx, run);
  const done = status === 'finished' ? run.outcome : null;
  const timestamps: Attributes = { 'queued-at': iso(run.createdAt) };
  if (status !== 'queued') timestamps['started-at'] = iso(run.startAt);
  if (status === 'finished' || status === 'errored') timestamps['finished-at'] = iso(run.endAt);
  if (status === 'canceled') timestamps['canceled-at'] = iso(cancelEndsAt(run) ?? run.endAt);
  return {
    id: run.id,
    type: 'test-runs',
    attributes: {
      status,
      'status-timestamps': timestamps,
      ...(status !== 'queued' && { 'log-read-url': `${logBase}/${run.logToken}` }),
      'created-at': new Date(run.createdAt).toISOString(),
      'updated-at': new Date(ctx.now()).toISOString(),
      'test-configurable-type': 'RegistryModule',
      'test-configurable-id': run.moduleId,
      variables: run.variables,
      filters: run.filters,
      'test-directory': run.testDirectory,
      verbose: run.verbose,
      'test-status': done ? done.testStatus : null,
      'tests-passed': done ? done.passed : null,
      'tests-failed': done ? done.failed : null,
      'tests-errored': done ? done.errored : null,
      'tests-skipped': done ? done.skipped : null,
      source: run.source,
      message: run.message,
    },
    relationships: {
      'configuration-version': {
        data: { id: run.configurationVersionId, type: 'configuration-versions' },
        links: { related: `/api/v2/configuration-versions/${run.configurationVersionId}` },
      },
      'created-by': {
        data: run.createdBy ? { id: run.createdBy, type: 'users' } : null,
        links: { related: `/api/v2/users/${run.createdBy}` },
      },
    },
  };
}
