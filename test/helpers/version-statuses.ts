/** A private module's versions as the emulator has them: `[version, status]`, sorted. */
import type { RunningEmulator } from '../../src/emulator/server.ts';

export async function versionStatuses(
  emulator: RunningEmulator,
  module: { organization: string; name: string; provider: string },
): Promise<Array<[string, string]>> {
  const { organization, name, provider } = module;
  const response = await fetch(
    `${emulator.url}/api/v2/organizations/${organization}/registry-modules/private/${organization}/${name}/${provider}`,
    { headers: { authorization: `Bearer ${emulator.tokens.admin}` } },
  );
  const entries: Array<{ version: string; status: string }> = (await response.json()).data.attributes[
    'version-statuses'
  ];
  return entries.map((s): [string, string] => [s.version, s.status]).sort();
}
