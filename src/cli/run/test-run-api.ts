/**
 * The module tests API as `converge test run` uses it (the endpoints are
 * listed in docs/commands.md, "converge test run"): a configuration version
 * and its upload, the test run (started by the upload, or explicitly with
 * variables), its state, cancel and force-cancel, and its log.
 */
import type { HttpClientOptions } from '../../api/client.ts';
import { connectFamily } from '../../api/connect.ts';
import { ApiError } from '../../api/errors.ts';
import { resourceOf } from '../../api/jsonapi.ts';
import { sleep } from '../../api/sleep.ts';
import type { HttpClient, Resource } from '../../api/types.ts';
import type { ConvergeConfig } from '../../config/load.ts';
import { ConvergeError } from '../../errors.ts';
import { testsPath } from '../../providers/registry-module/api.ts';
import type { TestRunState, TestRunStatus } from '../../ui/test-run/events.ts';
import type { ModuleAddress, RunVariable } from './test-run-args.ts';

/** The platform API's client, with the same configuration errors as the other commands (src/api/connect.ts). */
export function platformClient(config: ConvergeConfig, onRetry: HttpClientOptions['onRetry']) {
  return connectFamily('platform', config.platform, {
    concurrency: { initial: 2, max: 2 },
    ...(onRetry && { onRetry }),
  });
}

export interface StartOptions {
  variables: RunVariable[];
  filters: string[];
  testDirectory: string;
  verbose: boolean;
}

/** What a cancel request came to: sent (202), or refused because the run is not (or no longer) running (409). */
export type CancelAnswer = 'sent' | 'refused';

const FINAL: readonly TestRunStatus[] = ['finished', 'errored', 'canceled'];
export const isFinal = (status: TestRunStatus): boolean => FINAL.includes(status);

export class TestRunApi {
  readonly #client: HttpClient;
  readonly #module: ModuleAddress;
  readonly #prefix: string;

  constructor(client: HttpClient, module: ModuleAddress) {
    this.#client = client;
    this.#module = module;
    this.#prefix = testsPath(module.organization, module.name, module.provider);
  }

  /** A configuration version to upload to; a missing module is a 404 that says what to check. */
  async createConfigurationVersion(signal?: AbortSignal): Promise<{ id: string; uploadUrl: string }> {
    const path = `${this.#prefix}/test-runs/configuration-versions`;
    let resource: Resource;
    try {
      const response = await this.#client.request({ method: 'POST', path, ...(signal && { signal }) });
      resource = resourceOf(response.body, `POST ${path}`);
    } catch (error) {
      throw this.#moduleError(error);
    }
    const uploadUrl = resource.attributes['upload-url'];
    if (typeof uploadUrl !== 'string' || uploadUrl === '') {
      throw new ConvergeError('API_ERROR', `POST ${path}: the configuration version has no upload-url`);
    }
    return { id: resource.id, uploadUrl };
  }

  /** The configuration's tarball to its upload URL (which carries its own authorization). */
  async upload(uploadUrl: string, bytes: Buffer, signal?: AbortSignal): Promise<void> {
    await this.#client.request({
      method: 'PUT',
      path: uploadUrl,
      body: bytes,
      idempotent: false,
      ...(signal && { signal }),
    });
  }

  /** A run of the uploaded configuration with these options (`POST test-runs`). */
  async startRun(configurationVersionId: string, options: StartOptions, signal?: AbortSignal): Promise<TestRunState> {
    const path = `${this.#prefix}/test-runs`;
    const body = {
      data: {
        type: 'test-runs',
        attributes: {
          variables: options.variables,
          filters: options.filters,
          'test-directory': options.testDirectory,
          verbose: options.verbose,
        },
        relationships: {
          'configuration-version': { data: { id: configurationVersionId, type: 'configuration-versions' } },
        },
      },
    };
    const response = await this.#client.request({ method: 'POST', path, body, ...(signal && { signal }) });
    return runState(resourceOf(response.body, `POST ${path}`));
  }

  /**
   * The run the upload queued on its own: the newest run of source
   * `platform-configuration-version` for this configuration version. The
   * platform may take a moment to queue it, so it is looked for until
   * `timeoutMs` has passed.
   */
  async automaticRun(configurationVersionId: string, timeoutMs: number, signal: AbortSignal): Promise<TestRunState> {
    const path = `${this.#prefix}/test-runs`;
    const deadline = Date.now() + timeoutMs;
    for (let wait = 100; ; wait = Math.min(wait * 2, 2000)) {
      const response = await this.#client.request({
        method: 'GET',
        path,
        query: { 'filter[source]': 'platform-configuration-version', 'page[size]': 20 },
        signal,
      });
      const data = (response.body as { data?: unknown } | undefined)?.data;
      const runs = Array.isArray(data) ? data.map((d) => resourceOf({ data: d }, `GET ${path}`)) : [];
      const mine = runs.find((r) => configurationOf(r) === configurationVersionId);
      if (mine) return runState(mine);
      if (Date.now() + wait > deadline) {
        throw new ConvergeError(
          'API_ERROR',
          `the upload of ${configurationVersionId} queued no test run within ${Math.round(timeoutMs / 1000)} s`,
          {
            hint: 'pass --var, --filter or --verbose to start the run explicitly, or check the module on the platform',
          },
        );
      }
      await sleep(wait, signal);
    }
  }

  async getRun(id: string, signal?: AbortSignal): Promise<TestRunState> {
    const path = `${this.#prefix}/test-runs/${encodeURIComponent(id)}`;
    const response = await this.#client.request({ method: 'GET', path, ...(signal && { signal }) });
    return runState(resourceOf(response.body, `GET ${path}`));
  }

  /** `cancel`, or `force-cancel` (which the platform takes only after a cancel). */
  async cancel(id: string, force: boolean): Promise<CancelAnswer> {
    const path = `${this.#prefix}/test-runs/${encodeURIComponent(id)}/${force ? 'force-cancel' : 'cancel'}`;
    // repeating a cancel is harmless: at worst the second one is refused with 409
    const response = await this.#client.request({ method: 'POST', path, accept: [409], idempotent: true });
    return response.status === 409 ? 'refused' : 'sent';
  }

  /** The run's log, as text. The URL is a capability link: the client sends no token to another host. */
  /** The log, at most `maxBytes` of it: a run's log may be hundreds of megabytes. */
  async readLog(url: string, maxBytes: number, signal?: AbortSignal): Promise<{ text: string; truncated: boolean }> {
    const response = await this.#client.request({
      method: 'GET',
      path: url,
      headers: { accept: 'text/plain' },
      maxBodyBytes: maxBytes,
      ...(signal && { signal }),
    });
    const body = response.body;
    const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body, null, 2);
    return { text, truncated: response.truncated === true };
  }

  /** A 404 on the module's first request: the module is missing or the token may not see it. */
  #moduleError(error: unknown): unknown {
    if (!(error instanceof ApiError) || error.status !== 404) return error;
    const { organization, name, provider } = this.#module;
    return new ConvergeError('API_ERROR', error.message, {
      hint:
        `no private module ${organization}/${name}/${provider} that this token may test: the module must exist ` +
        `in organization ${organization} (publish or create it first), and module tests need a token of the ` +
        'owners team (the platform answers 404 for both)',
      cause: error,
    });
  }
}

function configurationOf(resource: Resource): string | undefined {
  const data = resource.relationships?.['configuration-version']?.data;
  return data && typeof data === 'object' && !Array.isArray(data) && typeof data.id === 'string' ? data.id : undefined;
}

const count = (value: unknown): number | null => (typeof value === 'number' ? value : null);

/** The fields of a test-run document that converge shows. */
export function runState(resource: Resource): TestRunState {
  const a = resource.attributes;
  const passed = count(a['tests-passed']);
  const failed = count(a['tests-failed']);
  const errored = count(a['tests-errored']);
  const skipped = count(a['tests-skipped']);
  const counts =
    passed === null && failed === null && errored === null && skipped === null
      ? null
      : { passed: passed ?? 0, failed: failed ?? 0, errored: errored ?? 0, skipped: skipped ?? 0 };
  const testStatus = a['test-status'] === 'pass' || a['test-status'] === 'fail' ? a['test-status'] : null;
  const cv = configurationOf(resource);
  return {
    id: resource.id,
    status: typeof a.status === 'string' ? (a.status as TestRunStatus) : 'pending',
    testStatus,
    counts,
    source: typeof a.source === 'string' ? a.source : '',
    ...(typeof a['log-read-url'] === 'string' && { logReadUrl: a['log-read-url'] }),
    ...(cv !== undefined && { configurationVersionId: cv }),
  };
}
