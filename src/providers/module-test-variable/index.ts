/**
 * Test variables of a private module (docs/kinds.md, ModuleTestVariable):
 * environment variables its test runs get. Owned in the organization, listed
 * per module (one list per module that has declared variables). A sensitive
 * value is written once and never shown again: write-only, compared through
 * the fingerprint store; `sensitive` cannot be turned off in place.
 */

import { resourceBody, resourceOf } from '../../api/jsonapi.ts';
import { requireClient } from '../../api/require-client.ts';
import type { Address } from '../../reconcile/address.ts';
import type { LiveObject } from '../../reconcile/types.ts';
import { organizationModules, testsPath } from '../registry-module/api.ts';
import { moduleKey } from '../registry-module/names.ts';
import { defineProvider } from '../shared/define.ts';
import { flag, text } from '../shared/rules.ts';

const kind = 'ModuleTestVariable';

/** `<organization>/<name>/<provider>`: the module a variable lives in, which is its list unit. */
const unitOf = (organization: string, module: string) => `${organization}/${module}`;

function splitUnit(unit: string) {
  const [organization = '', name = '', provider = ''] = unit.split('/');
  return { organization, name, provider };
}

/** A variable's name in converge: `<module name>/<provider>/<key>`. */
function split(address: Address) {
  const [name = '', provider = '', key = ''] = address.name.split('/');
  return { organization: address.scope ?? '', name, provider, key };
}

export const moduleTestVariable = defineProvider(
  (forms) => {
    const varsPath = (organization: string, name: string, provider: string) =>
      `${testsPath(organization, name, provider)}/vars`;
    return {
      kind,
      scoped: true,
      dependsOn: ['RegistryModule'],
      address: (metadata) => ({
        kind,
        scope: metadata.organization ?? '',
        name: `${metadata.module ?? ''}/${metadata.name ?? ''}`,
      }),
      listUnit: (a) => {
        const v = split(a);
        return unitOf(v.organization, `${v.name}/${v.provider}`);
      },
      async listUnits(ctx, organization) {
        const modules = await organizationModules(ctx, organization);
        return modules
          .filter((m) => m.attributes['registry-name'] === 'private')
          .map((m) => unitOf(organization, moduleKey(m.attributes)));
      },
      references(desired) {
        const v = split(desired.address);
        return [{ kind: 'RegistryModule', scope: v.organization, name: `${v.name}/${v.provider}` }];
      },
      async list(ctx, unit) {
        const { organization, name, provider } = splitUnit(unit);
        const response = await requireClient(ctx.api, 'platform').request<{ data?: unknown }>({
          method: 'GET',
          path: varsPath(organization, name, provider),
          // a module that does not exist (yet) has no variables
          accept: [404],
          signal: ctx.signal,
        });
        if (response.status === 404) return [];
        const data = Array.isArray(response.body?.data) ? response.body.data : [];
        return data.flatMap((item): LiveObject[] => {
          const resource = item as { id: string; attributes: Record<string, unknown> };
          const key = resource.attributes?.key;
          if (typeof key !== 'string') return [];
          return [
            {
              kind,
              address: { kind, scope: organization, name: `${name}/${provider}/${key}` },
              ref: resource.id,
              fields: forms.readable(resource.attributes as never),
            },
          ];
        });
      },
      async create(ctx, desired, fields) {
        const v = split(desired.address);
        const path = varsPath(v.organization, v.name, v.provider);
        const response = await requireClient(ctx.api, 'platform').request({
          method: 'POST',
          path,
          body: resourceBody('vars', { key: v.key, ...forms.wire(fields, desired.spec) }),
          signal: ctx.signal,
        });
        const created = resourceOf(response.body, `POST ${path}`);
        return { kind, address: desired.address, ref: created.id, fields: forms.readable(created.attributes) };
      },
      async update(ctx, desired, live, fields) {
        if (Object.keys(fields).length === 0) return;
        const v = split(desired.address);
        await requireClient(ctx.api, 'platform').request({
          method: 'PATCH',
          path: `${varsPath(v.organization, v.name, v.provider)}/${encodeURIComponent(live.ref)}`,
          body: resourceBody('vars', forms.wire(fields, desired.spec), live.ref),
          signal: ctx.signal,
        });
      },
      async delete(ctx, live) {
        const v = split(live.address);
        await requireClient(ctx.api, 'platform').request({
          method: 'DELETE',
          path: `${varsPath(v.organization, v.name, v.provider)}/${encodeURIComponent(live.ref)}`,
          signal: ctx.signal,
        });
      },
      toManifest(live) {
        const v = split(live.address);
        return {
          kind,
          metadata: { organization: v.organization, module: `${v.name}/${v.provider}`, name: v.key },
          spec: forms.exportSpec(live.fields ?? {}),
        };
      },
    };
  },
  {
    fields: {
      // a sensitive value cannot be read back: write-only for that variable only
      value: { default: '', writeOnly: (fields) => fields.sensitive === true },
      description: text(''),
      category: text('env'),
      sensitive: { ...flag(false), immutable: true },
    },
  },
);
