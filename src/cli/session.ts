/**
 * Everything a planning command needs, built in one place and in a safe
 * order: configuration and manifests are validated completely (offline)
 * before any client is created, so bad input never reaches an API.
 */
import { dirname } from 'node:path';
import { API_NAMES, type ApiName, isApiName } from '../api/profiles.ts';
import { type ConvergeConfig, loadConfig } from '../config/load.ts';
import { ConvergeError, formatProblem } from '../errors.ts';
import { defaultRoots, loadManifestSet, TOKEN_VARIABLES } from '../manifest/load.ts';
import { unknownKind } from '../manifest/suggest.ts';
import { policyCompiler } from '../policy/hooks.ts';
import type { Policy } from '../policy/policy.ts';
import { catalog, providerMap } from '../providers/index.ts';
import { type AddressPattern, formatAddressPattern, parseAddressPattern, scopeInName } from '../reconcile/address.ts';
import { expandChildren } from '../reconcile/children.ts';
import { serverIdentity } from '../reconcile/plan-file.ts';
import { identityOf, type Provider } from '../reconcile/provider.ts';
import { isSelected, matchesTarget, type Selection } from '../reconcile/selection.ts';
import type { DesiredObject, PlanProblem } from '../reconcile/types.ts';
import { processOutput } from '../ui/output.ts';
import { registerDesiredSecrets, shortSecretWarnings } from './desired-secrets.ts';
import { type CommonFlags, parseSelectors } from './flags.ts';
import { givenValues } from './given-values.ts';
import { checkIgnoreRules, withIgnoreRules } from './ignore-rules.ts';
import { resolveKind } from './kind-name.ts';
import { capYoungGeneration } from './young-generation.ts';

export interface Inputs {
  config: ConvergeConfig;
  desired: DesiredObject[];
  selection: Selection;
  providers: ReadonlyMap<string, Provider>;
  /** The manifests' policies, compiled (docs/policies.md). */
  policies: Policy[];
}

export { providerMap };

/** The configuration file named by --config, or the one found from the current directory, with the environment. */
export function loadCommandConfig(flags: Pick<CommonFlags, 'config' | 'allowCodeConfig'>): Promise<ConvergeConfig> {
  return loadConfig({
    cwd: process.cwd(),
    env: process.env,
    allowCode: flags.allowCodeConfig === true,
    ...(flags.config && { file: flags.config }),
  });
}

/** Loads and validates configuration (unless given, loaded already), manifests and flags. Throws before any request. */
export async function loadInputs(
  paths: readonly string[],
  flags: CommonFlags,
  loaded?: ConvergeConfig,
): Promise<Inputs> {
  if (paths.length === 0) {
    throw new ConvergeError('INPUT_INVALID', 'no manifest paths given', { hint: 'pass files or directories' });
  }
  const config = loaded ?? (await loadCommandConfig(flags));
  let selectors: Record<string, string>;
  try {
    selectors = parseSelectors(flags.selector);
  } catch (error) {
    throw new ConvergeError('INPUT_INVALID', (error as Error).message);
  }
  // the kinds are checked before the manifests are read; the scopes they declare resolve the rest
  const targetKinds = flags.target.map((target) => targetKind(parseAddressPattern(target, () => false).kind));
  for (const [i, rule] of config.ownership.entries()) {
    if (!providerMap.has(rule.kind)) {
      const message = `${config.file ?? 'configuration'}: ownership[${i}]: ${unknownKind(rule.kind, providerMap.keys())}`;
      throw new ConvergeError('CONFIG_INVALID', message);
    }
  }
  checkIgnoreRules(config);
  if (flags.prune && Object.keys(selectors).length > 0) {
    throw new ConvergeError('INPUT_INVALID', '--prune cannot be combined with --selector', {
      hint: 'live objects carry no labels, so a selector cannot say which of them to prune',
    });
  }
  const policies: Policy[] = [];
  const { objects, variables } = await loadManifestSet([...paths], catalog, {
    env: process.env,
    cwd: process.cwd(),
    ...interpolationAccess(config, paths),
    checkDocuments: policyCompiler(policies, providerMap),
    variables: givenValues(flags, config, process.env, process.cwd()),
    // loading is synchronous: no collection is reported while it grows the young generation, so the
    // heap is looked at after each file (a heap under the cap cannot hold a young generation at it)
    afterFile: capYoungGeneration,
  });
  const desired = withIgnoreRules(objects, config);
  registerDesiredSecrets(desired, variables);
  for (const warning of shortSecretWarnings(desired)) processOutput().err(warning);
  const targets = flags.target.map((target, i) => targetPattern(target, targetKinds[i] ?? '', desired));
  // a module's versions are targeted by their own addresses too, as plans print them
  const addresses = targets.length > 0 ? expandChildren(desired, providerMap).map((d) => d.address) : [];
  for (const [i, pattern] of targets.entries()) {
    if (!addresses.some((address) => matchesTarget({ targets: [pattern], selectors: {} }, address))) {
      const pruned = flags.prune ? '; with --prune, the live objects it names in an ownership scope are deleted' : '';
      processOutput().err(`converge: --target ${flags.target[i]} matches no object in the manifests${pruned}`);
    }
  }
  const selection = { targets, selectors };
  if (Object.keys(selectors).length > 0 && !desired.some((d) => isSelected(selection, d))) {
    processOutput().err(
      `converge: --selector ${flags.selector.join(' --selector ')} matches no object in the manifests`,
    );
  }
  return { config, desired, selection, providers: providerMap, policies };
}

/** A kind named by --target: as written, or the same kind in another case. */
function targetKind(kind: string): string {
  return resolveKind(kind, [...providerMap.keys()], '--target');
}

/**
 * A --target as an address pattern: a scope written with its `/` unencoded
 * is read as the declared scope it names; a name no object of the kind can
 * have (`SSHRole/teams/ssh-prod/web`, a role name holds no `/`) is refused
 * with the form that names the scope.
 */
function targetPattern(target: string, kind: string, desired: readonly DesiredObject[]): AddressPattern {
  const provider = providerMap.get(kind)!;
  const scopes = new Set(desired.filter((d) => d.kind === kind).map((d) => d.address.scope ?? ''));
  const written = parseAddressPattern(
    target,
    () => provider.scoped,
    () => scopes,
  );
  const pattern = { ...written, kind };
  const meant = scopeInName(identityOf(provider), pattern);
  if (meant) {
    throw new ConvergeError(
      'INPUT_INVALID',
      `--target ${target}: no ${kind} in scope "${pattern.scope}" is named "${pattern.name}"`,
      {
        hint: `a scope that holds "/" is written percent-encoded: --target ${formatAddressPattern(meant)}`,
      },
    );
  }
  return pattern;
}

/**
 * What `${file:}` and `${env:}` may read (docs/security.md, "Interpolation"):
 * files below the configuration's directory, the manifests' common directory
 * and `interpolation.fileRoots`; any variable but converge's own tokens, or
 * only those `interpolation.env` lists.
 */
function interpolationAccess(config: ConvergeConfig, paths: readonly string[]) {
  const roots = [
    ...(config.file ? [dirname(config.file)] : []),
    ...defaultRoots(paths, process.cwd()),
    ...config.interpolation.fileRoots,
  ];
  const tokens = API_NAMES.map((api) => config[api]?.tokenEnv).filter((t) => t !== undefined);
  return {
    files: { roots, ...(config.interpolation.maxFileBytes && { maxBytes: config.interpolation.maxFileBytes }) },
    envAccess: {
      forbidden: new Set([...TOKEN_VARIABLES, ...tokens]),
      ...(config.interpolation.env && { allow: config.interpolation.env }),
    },
  };
}

/** The APIs the desired objects use. */
export function apisOf(desired: readonly DesiredObject[]): ApiName[] {
  return [...new Set(desired.map((d) => providerMap.get(d.kind)?.api).filter((a) => a !== undefined))];
}

/**
 * The server each of the APIs is configured with, as a saved plan records it (no credentials);
 * an API without a URL, or one converge does not know, is left out.
 */
export function serversOf(config: ConvergeConfig, apis: Iterable<string>): Record<string, string> {
  const servers: Record<string, string> = {};
  for (const api of [...new Set(apis)].sort()) {
    const url = isApiName(api) ? config[api]?.url : undefined;
    if (url !== undefined) servers[api] = serverIdentity(url);
  }
  return servers;
}

/** Plan problems (a declared user that does not exist) name the manifest place; nothing was changed. */
export function planProblemsError(problems: readonly PlanProblem[]): ConvergeError {
  const lines = problems.map((p) =>
    p.source ? formatProblem({ ...p.source, message: p.message }) : `${p.key}: ${p.message}`,
  );
  return new ConvergeError('PLAN_INVALID', `the plan cannot be made:\n${lines.join('\n')}`, {
    hint: 'fix the manifests above; nothing was changed',
  });
}
