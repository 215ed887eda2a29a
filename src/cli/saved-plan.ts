/**
 * Saved plans at the command line's edge: the key their digests are made
 * with, what `plan --out` writes, and what `apply FILE` checks before and
 * after it plans (src/reconcile/plan-verify.ts). The file decides nothing by
 * itself: a configuration it names is loaded only once its integrity digest
 * shows converge wrote it, and nothing is written unless that digest and
 * every other check hold; an edited file is still planned (reads only, with
 * the configuration of the command line) so that the refusal lists what
 * differs (docs/security.md, "Saved plans").
 */
import { isApiName, PROFILES } from '../api/profiles.ts';
import { registerSecret } from '../api/redact.ts';
import type { ConvergeConfig } from '../config/load.ts';
import { ConvergeError } from '../errors.ts';
import type { PlanRun } from '../reconcile/engine.ts';
import { serverNamespace } from '../reconcile/fingerprint-store.ts';
import { PlanDigester } from '../reconcile/plan-digests.ts';
import {
  type Digests,
  PLAN_FORMAT,
  PLAN_VERSION,
  type SavedPlan,
  type SavedPlanOptions,
} from '../reconcile/plan-file.ts';
import { checkKey, verifySavedPlan } from '../reconcile/plan-verify.ts';
import type { Provider } from '../reconcile/provider.ts';
import type { DesiredObject, Json, Plan } from '../reconcile/types.ts';
import type { CommonFlags } from './flags.ts';
import { apisOf, type Inputs, loadCommandConfig, serversOf } from './session.ts';
import { VERSION } from './version.ts';

/** A secret shared by the job that plans and the one that applies, when their tokens differ. */
export const PLAN_KEY_VARIABLE = 'CONVERGE_PLAN_KEY';

/**
 * The key of a plan's digests: CONVERGE_PLAN_KEY when set, else the tokens of
 * the APIs the plan reads (with their servers), so that nobody without them
 * can forge the file or test a guess of a secret against it.
 */
export function planDigester(
  config: ConvergeConfig,
  apis: readonly string[],
  env: Record<string, string | undefined>,
  salt?: string,
): PlanDigester {
  // like a token, the key loses a trailing line end (a secret pasted with one)
  const shared = env[PLAN_KEY_VARIABLE]?.replace(/\r?\n$/, '');
  if (shared) registerSecret(shared);
  const tokens = () =>
    JSON.stringify(
      [...apis].sort().map((api) => {
        const family = isApiName(api) ? api : undefined;
        const conn = family && config[family];
        if (!conn?.token) {
          throw new ConvergeError('CONFIG_INVALID', `no token for the ${api} API`, {
            hint: family
              ? `set the environment variable ${conn?.tokenEnv ?? PROFILES[family].env.token}`
              : `converge knows no ${api} API: make the plan again with \`converge plan --out\``,
          });
        }
        return [serverNamespace(api, conn.url), conn.token];
      }),
    );
  const [from, secret] = shared ? (['plan-key', shared] as const) : (['tokens', tokens()] as const);
  return salt === undefined ? PlanDigester.create(from, secret) : PlanDigester.derive(from, secret, salt);
}

/** Sections named as the configuration file writes them, where that differs. */
const SECTION_NAMES: Record<string, string> = { maxDeletes: 'guard.maxDeletes' };

/** The effective configuration by top-level section, its tokens left out; not where it came from. */
export function configSections(config: ConvergeConfig): Record<string, Json> {
  const { file: _where, ...content } = config;
  const sections = JSON.parse(
    JSON.stringify(content, (key, value: unknown) => (key === 'token' ? undefined : value)),
  ) as Record<string, Json>;
  return Object.fromEntries(Object.entries(sections).map(([name, value]) => [SECTION_NAMES[name] ?? name, value]));
}

function desiredDigests(digester: PlanDigester, run: PlanRun, providers: ReadonlyMap<string, Provider>) {
  return Object.fromEntries(
    [...run.desiredByKey].map(([key, d]) => [key, digester.desired(key, d, providers.get(d.kind))]),
  );
}

/** The digests of what is live at a key, as a plan file records them: null where nothing is. */
function liveDigests(digester: PlanDigester, run: PlanRun, providers: ReadonlyMap<string, Provider>) {
  return (key: string): Digests | null => {
    const live = run.liveByKey.get(key);
    return digester.live(key, live, live ? providers.get(live.kind) : undefined);
  };
}

/** What `plan --out` writes. */
export function savedPlanOf(args: {
  manifests: string[];
  inputs: Inputs;
  options: SavedPlanOptions;
  run: PlanRun;
  env: Record<string, string | undefined>;
}): SavedPlan {
  const { inputs, run } = args;
  const servers = serversOf(inputs.config, apisOf(inputs.desired));
  const digester = planDigester(inputs.config, Object.keys(servers), args.env);
  const liveOf = liveDigests(digester, run, inputs.providers);
  const config: { file?: string; digests: Digests } = {
    ...(inputs.config.file && { file: inputs.config.file }),
    digests: digester.config(configSections(inputs.config)),
  };
  const plan: Omit<SavedPlan, 'integrity'> = {
    format: PLAN_FORMAT,
    version: PLAN_VERSION,
    createdAt: new Date().toISOString(),
    converge: VERSION,
    manifests: args.manifests,
    config,
    options: args.options,
    servers,
    key: digester.record,
    desired: desiredDigests(digester, run, inputs.providers),
    live: Object.fromEntries(run.plan.actions.filter((a) => a.action !== 'noop').map((a) => [a.key, liveOf(a.key)])),
    plan: run.plan,
  };
  return { ...plan, integrity: digester.integrity(plan) };
}

/**
 * The flags a saved plan is applied with: its own options, and a
 * configuration from the command line (`-c` always wins), else the file the
 * plan names, else the one found as usual. A command-line option that differs
 * from the plan's is refused, never silently replaced.
 */
export function savedPlanFlags<F extends CommonFlags>(saved: SavedPlan, flags: F): F {
  const given: string[] = [];
  const { options } = saved;
  if (flags.prune && !options.prune) given.push('--prune');
  if (flags.resendSecrets && !options.resendSecrets) given.push('--resend-secrets');
  if (flags.target.length > 0 && !sameList(flags.target, options.targets)) given.push('--target');
  const selectors = Object.entries(options.selectors).map(([k, v]) => `${k}=${v}`);
  if (flags.selector.length > 0 && !sameList(flags.selector, selectors)) given.push('--selector');
  if (given.length > 0) {
    throw new ConvergeError(
      'INPUT_INVALID',
      `${given.join(', ')} cannot change a saved plan: it applies with the options it was made with (${describeOptions(options)}); nothing was sent`,
      { hint: 'make the plan again with the options you want, or apply the plan without them' },
    );
  }
  const recorded = saved.config.file;
  if (!flags.config && recorded && /\.[cm]?[jt]s$/i.test(recorded)) {
    throw new ConvergeError(
      'INPUT_INVALID',
      `the plan was made with a configuration written as code (${recorded}); converge runs no file a plan names; nothing was sent`,
      { hint: `pass it on the command line: converge apply PLAN -c ${recorded}` },
    );
  }
  return {
    ...flags,
    prune: options.prune,
    target: options.targets,
    selector: selectors,
    resendSecrets: options.resendSecrets,
    ...(!flags.config && recorded && { config: recorded }),
  };
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  const sorted = [...b].sort();
  return a.length === b.length && [...a].sort().every((v, i) => v === sorted[i]);
}

function describeOptions(options: SavedPlanOptions): string {
  const parts = [
    `prune: ${options.prune}`,
    `targets: ${options.targets.length > 0 ? options.targets.join(' ') : 'all'}`,
    ...(Object.keys(options.selectors).length > 0
      ? [
          `selectors: ${Object.entries(options.selectors)
            .map(([k, v]) => `${k}=${v}`)
            .join(' ')}`,
        ]
      : []),
  ];
  return parts.join(', ');
}

/** What checkBeforeReading found, for checkSavedPlan: the key's digester, and whether the file is intact. */
export interface CheckedPlanFile {
  config: ConvergeConfig;
  digester: PlanDigester;
  /** The file's integrity digest is the one the key gives. */
  intact: boolean;
}

/**
 * Before a saved plan's manifests are read or any request is sent: its
 * servers and key are the ones configured now, and a configuration the file
 * names (no `-c`) is used only if the file is intact, as converge wrote it.
 */
export async function checkBeforeReading(
  saved: SavedPlan,
  flags: CommonFlags,
  configFromPlan: boolean,
): Promise<CheckedPlanFile> {
  const config = await loadCommandConfig(flags);
  const digester = planDigester(config, Object.keys(saved.servers), process.env, saved.key.salt);
  // the servers the plan's APIs are configured with now: one not configured differs from the plan's
  checkKey(saved, serversOf(config, Object.keys(saved.servers)), digester);
  const intact = digester.integrity(saved) === saved.integrity;
  if (configFromPlan && saved.config.file && !intact) {
    throw new ConvergeError(
      'PLAN_INVALID',
      `the plan file was changed after converge wrote it; the configuration it names (${saved.config.file}) was not used; nothing was sent`,
      { hint: 'make the plan again with `converge plan --out`; never edit a plan file' },
    );
  }
  return { config, digester, intact };
}

/** The plan made now, if the saved one holds (src/reconcile/plan-verify.ts). */
export function checkSavedPlan(saved: SavedPlan, checked: CheckedPlanFile, inputs: Inputs, run: PlanRun): Plan {
  const { providers, config } = inputs;
  const { digester, intact } = checked;
  return verifySavedPlan(saved, {
    plan: run.plan,
    servers: serversOf(config, apisOf(inputs.desired)),
    intact,
    config: { file: config.file, digests: digester.config(configSections(config)) },
    desired: desiredDigests(digester, run, providers),
    live: liveDigests(digester, run, providers),
    changed: (key, field) => whyChanged(run.desiredByKey.get(key), field),
  });
}

/** A changed value, said with where it came from: a secret's source, a file, or the manifests. */
function whyChanged(object: DesiredObject | undefined, field: string): string {
  const placeholders = object?.placeholders?.[field];
  if (placeholders) return `its source changed since the plan (${placeholders.join(', ')})`;
  const file = object?.fileSources?.[`spec.${field}`];
  if (file) return `the content of ${file} changed since the plan`;
  return 'changed in the manifests since the plan';
}
