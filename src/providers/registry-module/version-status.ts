/**
 * A module version's state, read afresh from one GET of its module (never
 * the organization's list a run read before, which a version created since
 * is missing from), its deletion, and the wait for the registry to read an
 * upload.
 */
import { resourceOf } from '../../api/jsonapi.ts';
import { ConvergeError } from '../../errors.ts';
import type { Address } from '../../reconcile/address.ts';
import type { ProviderContext } from '../../reconcile/provider.ts';
import type { Fields } from '../../reconcile/types.ts';
import { moduleOf, moduleParts, modulePathOf, versionOf } from './names.ts';

/** How long an upload may take to be parsed before the version counts as failed. */
const INGEST_WAIT_MS = 60_000;

/** Statuses of a version the registry could not read (an upload, or a VCS clone). */
export const FAILED_STATUSES: ReadonlySet<string> = new Set([
  'reg_ingress_failed',
  'reg_ingress_req_failed',
  'clone_failed',
]);

/** The API path of the module a version belongs to. */
export function versionModulePath(address: Address): string {
  return modulePathOf(moduleOf(address));
}

/**
 * Work on a version that no other delete or repair in its module runs alongside (the engine's
 * one-at-a-time work, keyed by the module): see pruneVersion.
 */
export function inModule<T>(ctx: ProviderContext, address: Address, work: () => Promise<T>): Promise<T> {
  return ctx.serial(versionModulePath(address), work);
}

/**
 * Every `version-statuses` entry of the version's module; undefined when the
 * module does not exist, unless `moduleMustExist` (then its 404 is the error).
 */
export async function moduleVersions(
  ctx: ProviderContext,
  address: Address,
  moduleMustExist = false,
): Promise<Fields[] | undefined> {
  const response = await ctx.client.request({
    method: 'GET',
    path: versionModulePath(address),
    ...(!moduleMustExist && { accept: [404] }),
    signal: ctx.signal,
  });
  if (response.status === 404) return undefined;
  const statuses = resourceOf(response.body, 'GET module').attributes['version-statuses'];
  return (Array.isArray(statuses) ? statuses : []) as Fields[];
}

/** The `version-statuses` entry of one version; undefined when it does not exist (or its module either, unless `moduleMustExist`). */
export async function versionEntry(
  ctx: ProviderContext,
  address: Address,
  moduleMustExist = false,
): Promise<Fields | undefined> {
  const version = versionOf(address);
  return (await moduleVersions(ctx, address, moduleMustExist))?.find((s) => s.version === version);
}

/**
 * Deletes a version that no manifest keeps, alone in its module (the engine's
 * one-at-a-time work, with the repairs of ./publish.ts): the delete cascade
 * makes a module's versions depend on each other, as deleting a module's last
 * version deletes the module, which deleting a version never does (declared or
 * not, a module goes only by its own delete). So it counts the module's
 * versions afresh, and no two deletes or repairs count on the same version to
 * remain.
 */
export function pruneVersion(ctx: ProviderContext, address: Address, ref: string): Promise<void> {
  return inModule(ctx, address, async () => {
    const versions = await moduleVersions(ctx, address);
    if (versions === undefined) return; // the module is gone, and the version with it
    if (versions.length === 1 && versions[0]?.version === ref) throw lastVersion(address);
    await removeVersion(ctx, address);
  });
}

/**
 * Refusing to delete a module's last version: the registry would delete the module with it. The
 * module may be declared (a replacement of its only version, a prune beside it) or not (a prune
 * where ownership covers versions but not modules): the words hold for both, and name both ways
 * to delete a module, since the delete has no manifest to ask.
 */
function lastVersion(address: Address): ConvergeError {
  const { name, provider } = moduleParts(moduleOf(address));
  const version = versionOf(address);
  return new ConvergeError(
    'GUARD_REFUSED',
    `not deleted: ${version} is the only version of ${name}/${provider}, and deleting a module's last version deletes the module too, which deleting a version never does; ` +
      `keep the module by declaring another version of it, or delete the module itself: \`ensure: absent\`, or --prune with an ownership rule for RegistryModule and no manifest declaring it`,
    {
      hint: 'declare another version to keep (it is published before any is deleted), or delete the module itself (`ensure: absent`, or --prune where an ownership rule covers RegistryModule and no manifest declares it)',
    },
  );
}

/** Deletes one version; gone already (a retry after a lost answer) is done too. */
export async function removeVersion(ctx: ProviderContext, address: Address): Promise<void> {
  const version = versionOf(address);
  await ctx.client.request({
    method: 'DELETE',
    accept: [404],
    path: `${versionModulePath(address)}/${encodeURIComponent(version)}`,
    signal: ctx.signal,
  });
}

/** The version's status after its upload: `ok`, or the failure with the registry's reason. */
export async function waitForIngestion(ctx: ProviderContext, address: Address): Promise<void> {
  const version = versionOf(address);
  const started = Date.now();
  for (let delay = 100; ; delay = Math.min(delay * 2, 2000)) {
    const entry = await versionEntry(ctx, address, true);
    if (entry?.status === 'ok') return;
    if (FAILED_STATUSES.has(String(entry?.status))) {
      throw new ConvergeError(
        'API_ERROR',
        `version ${version} was uploaded but the registry could not read it: ${String(entry?.error ?? entry?.status)}`,
        {
          hint: 'fix the module (the message says where), publish it as a new version, and delete this one',
        },
      );
    }
    if (Date.now() - started > INGEST_WAIT_MS)
      throw new ConvergeError(
        'API_ERROR',
        `version ${version} is still ${String(entry?.status ?? 'unknown')} after the upload`,
      );
    await new Promise((r) => setTimeout(r, delay));
  }
}
