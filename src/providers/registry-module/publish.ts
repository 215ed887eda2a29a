/**
 * Publishing one module version: create it (the answer carries the only
 * upload link the registry ever gives for it), upload its archive, wait
 * until the registry has read it. A version that exists is not a published
 * one: when the create is cut short after the POST (its answer lost, or the
 * upload failed), the version is left `pending`, without content, and no
 * later request can upload it. Such a version, made by this very action, is
 * deleted and created anew at once, unless it is its module's only version
 * (deleting a provider's last version deletes the provider and the module):
 * then the action fails and says what to do, never reports it created.
 */
import { isUnknownOutcome } from '../../api/errors.ts';
import { resourceBody, resourceOf } from '../../api/jsonapi.ts';
import { ConvergeError } from '../../errors.ts';
import type { Address } from '../../reconcile/address.ts';
import type { ProviderContext } from '../../reconcile/provider.ts';
import type { PackedModule } from '../../registry/pack.ts';
import { versionOf } from './names.ts';
import {
  FAILED_STATUSES,
  inModule,
  moduleVersions,
  removeVersion,
  versionEntry,
  versionModulePath,
  waitForIngestion,
} from './version-status.ts';

/** Statuses of a version whose upload arrived: it has content, or the registry's reason why not. */
const RECEIVED: ReadonlySet<string> = new Set(['reg_ingressing', 'ok', ...FAILED_STATUSES]);

/** Creates the version and uploads `content`; a version this left without content is made anew when that is safe. */
export async function publishVersion(ctx: ProviderContext, address: Address, content: PackedModule): Promise<void> {
  const why = await publishOnce(ctx, address, content);
  if (why === undefined) return;
  await republish(ctx, address, content, why);
}

/** Undefined when published; else why the version that now exists has no content. */
async function publishOnce(ctx: ProviderContext, address: Address, content: PackedModule): Promise<string | undefined> {
  const version = versionOf(address);
  const client = ctx.client;
  const path = versionsPath(address);
  let upload: unknown;
  try {
    const created = await client.request({
      method: 'POST',
      path,
      body: resourceBody('registry-module-versions', { version }),
      signal: ctx.signal,
    });
    upload = resourceOf(created.body, `POST ${path}`).links?.upload;
  } catch (error) {
    if (!isUnknownOutcome(error)) throw error;
    // read afresh (never the list the plan read): was the version made?
    if ((await versionEntry(ctx, address)) === undefined) throw error; // not made: the engine creates it again
    return 'the answer carrying its upload link was lost';
  }
  if (typeof upload !== 'string') throw new ConvergeError('API_ERROR', `POST ${path}: the answer has no links.upload`);
  try {
    // an upload link carries its authorization: the client sends no token to another host
    await client.request({ method: 'PUT', path: upload, body: content.bytes, signal: ctx.signal });
  } catch (error) {
    // the upload may have arrived all the same (a lost answer; its retry finds the link spent)
    const entry = await versionEntry(ctx, address);
    // (said without the link, which would let whoever reads the log upload into the version)
    const said = String((error as Error).message).replace(/^PUT \S+: /, '');
    if (!RECEIVED.has(String(entry?.status))) return `its upload failed (${said})`;
  }
  await waitForIngestion(ctx, address);
  return undefined;
}

/** Deletes the contentless version and publishes it anew, once, when another version keeps the module. */
function republish(ctx: ProviderContext, address: Address, content: PackedModule, why: string): Promise<void> {
  // alone in its module, with the version prunes (./version-status.ts)
  return inModule(ctx, address, async () => {
    const version = versionOf(address);
    const statuses = (await moduleVersions(ctx, address)) ?? [];
    const self = statuses.find((s) => s.version === version);
    if (self !== undefined && RECEIVED.has(String(self.status))) return waitForIngestion(ctx, address);
    // the cascade: a module without versions is deleted, with its tests' settings and variables
    if (self !== undefined && statuses.length === 1) throw contentless(address, why, true);
    if (self !== undefined) await removeVersion(ctx, address);
    const again = await publishOnce(ctx, address, content);
    if (again !== undefined) throw contentless(address, again, false);
  });
}

/** Why a version has no content, what to do about it, and that it is not published. */
function contentless(address: Address, why: string, onlyVersion: boolean): ConvergeError {
  const version = versionOf(address);
  return new ConvergeError(
    'API_ERROR',
    `POST ${versionsPath(address)}: version ${version} was created, but ${why}: it has no content, and the registry gives an upload link only when a version is created`,
    {
      hint: onlyVersion
        ? 'it is the module’s only version, and deleting a module’s last version deletes the module: publish another version first (declare it and apply), then apply again: the plan replaces this one (--allow-replace RegistryModuleVersion)'
        : 'apply again: the plan replaces this version (it has no content) with --allow-replace RegistryModuleVersion',
    },
  );
}

function versionsPath(address: Address): string {
  return `${versionModulePath(address)}/versions`;
}
