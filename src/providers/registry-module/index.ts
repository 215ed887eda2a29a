/**
 * Registry modules (docs/kinds.md, RegistryModule): private modules without
 * VCS (their versions uploaded by converge), private modules published from
 * VCS, and records of public modules, in an organization. Their versions are
 * a keyed child list (./versions.ts). Test configuration and the VCS branch
 * change in place; the VCS repository cannot (a change is a replacement,
 * which deletes every version, so apply asks for --allow-replace).
 */

import { resourceBody, resourceOf } from '../../api/jsonapi.ts';
import type { SpecProblem } from '../../manifest/catalog.ts';
import { getPath } from '../../reconcile/field-paths.ts';
import type { DesiredObject, Fields, LiveObject } from '../../reconcile/types.ts';
import { checkValues } from '../shared/check-values.ts';
import { defineProvider } from '../shared/define.ts';
import { flag, text } from '../shared/rules.ts';
import { organizationModules, orgPath } from './api.ts';
import { listedModule, MODULE_IDENTITY, MODULE_KIND, moduleAddress, moduleParts, modulePathOf } from './names.ts';
import { registryModuleVersion, versionProblems } from './versions.ts';

const kind = MODULE_KIND;

export const registryModule = defineProvider(
  (forms) => {
    const pathOf = modulePathOf;
    const toLive = (organization: string, attributes: Fields, id: string): LiveObject => ({
      kind,
      address: listedModule(organization, attributes),
      ref: id,
      fields: forms.readable(attributes),
    });
    const patchable = (fields: Fields) => {
      const body: Fields = {};
      const tests = getPath(fields, 'test-config.tests-enabled');
      if (tests !== undefined) body['test-config'] = { 'tests-enabled': tests };
      const branch = getPath(fields, 'vcs-repo.branch');
      if (branch !== undefined) body['vcs-repo'] = branch === '' ? { tags: true } : { branch };
      return body;
    };
    return {
      kind,
      scoped: true,
      identity: MODULE_IDENTITY,
      children: [{ field: 'versions', key: 'version', provider: registryModuleVersion }],
      replaceConsent:
        'a module is replaced by deleting it with every version and test variable it has and creating it anew (its declared test variables are created again)',
      // its uploaded versions go with it, and what was read does not hold their content
      unrestorable: () => 'its versions are deleted with it',
      address(metadata) {
        const registry = metadata.registry === 'public' ? 'public' : 'private';
        return moduleAddress({
          organization: metadata.organization ?? '',
          registry,
          namespace: metadata.namespace ?? metadata.organization ?? '',
          name: metadata.name ?? '',
          provider: metadata.provider ?? '',
        });
      },
      async list(ctx, { scope: organization = '' }) {
        const modules = await organizationModules(ctx, organization);
        return modules.map((m) => toLive(organization, m.attributes, m.id));
      },
      async get(ctx, wanted) {
        const response = await ctx.client.request({
          method: 'GET',
          path: pathOf(wanted),
          accept: [404],
          signal: ctx.signal,
        });
        if (response.status === 404) return undefined;
        const resource = resourceOf(response.body, 'GET module');
        return toLive(wanted.scope ?? '', resource.attributes, resource.id);
      },
      async create(ctx, desired, fields) {
        const client = ctx.client;
        const m = moduleParts(desired.address);
        const vcs = getPath(fields, 'vcs-repo.identifier');
        const base = `${orgPath(m.organization)}/registry-modules`;
        const attributes: Fields =
          vcs !== undefined
            ? {
                'vcs-repo': forms.wire(fields, desired.spec)['vcs-repo'] ?? null,
                'no-code': fields['no-code'] ?? false,
              }
            : {
                name: m.name,
                provider: m.provider,
                'registry-name': m.registry,
                ...(m.registry === 'public' && { namespace: m.namespace }),
                'no-code': fields['no-code'] ?? false,
              };
        const path = vcs !== undefined ? `${base}/vcs` : base;
        const post = async () => {
          const response = await client.request({
            method: 'POST',
            path,
            body: resourceBody('registry-modules', attributes),
            signal: ctx.signal,
          });
          return resourceOf(response.body, `POST ${path}`);
        };
        // a lost answer is the engine's to resolve: it reads the module back, and sends what is still
        // missing (its test configuration) as an update
        const created = await post();
        // test configuration is a change of the module: sent once it exists
        const body = patchable({ 'test-config': fields['test-config'] ?? null });
        if (m.registry === 'private' && getPath(fields, 'test-config.tests-enabled') !== undefined) {
          await client.request({
            method: 'PATCH',
            path: pathOf(desired.address),
            body: resourceBody('registry-modules', body),
            signal: ctx.signal,
          });
        }
        return toLive(m.organization, created.attributes, created.id);
      },
      async update(ctx, desired: DesiredObject, _live, fields) {
        const body = patchable(fields);
        if (Object.keys(body).length === 0) return;
        await ctx.client.request({
          method: 'PATCH',
          path: pathOf(desired.address),
          body: resourceBody('registry-modules', body),
          signal: ctx.signal,
        });
      },
      async delete(ctx, live) {
        const m = moduleParts(live.address);
        // a public record is removed by its namespace and name only
        const path = m.registry === 'public' ? pathOf(live.address).replace(/\/[^/]+$/, '') : pathOf(live.address);
        await ctx.client.request({ method: 'DELETE', path, signal: ctx.signal });
      },
      check: checkModule,
      toManifest(live) {
        const m = moduleParts(live.address);
        return {
          kind,
          metadata: {
            organization: m.organization,
            name: m.name,
            provider: m.provider,
            ...(m.registry === 'public' && { registry: 'public', namespace: m.namespace }),
          },
          spec: forms.exportSpec(live.fields ?? {}),
        };
      },
    };
  },
  {
    fields: {
      'no-code': { ...flag(false), createOnly: true },
      'test-config.tests-enabled': flag(),
      'vcs-repo.identifier': { immutable: true },
      'vcs-repo.oauth-token-id': { createOnly: true },
      'vcs-repo.branch': text(),
    },
  },
);

/** Namespaces are for public records; each declared version once, with its content there. */
function checkModule(object: DesiredObject): SpecProblem[] {
  const problems: SpecProblem[] = [];
  const registry = object.metadata.registry ?? 'private';
  if (registry === 'private' && object.metadata.namespace !== undefined) {
    problems.push({
      path: 'metadata.namespace',
      message: 'a private module has no namespace (it is the organization)',
    });
  }
  if (registry === 'public' && object.metadata.namespace === undefined) {
    problems.push({ path: 'metadata.registry', message: 'a public module record needs metadata.namespace' });
  }
  if (registry === 'public' && Object.keys(object.spec).some((key) => key !== 'no-code')) {
    problems.push({
      path: 'spec',
      message: 'a public module record has no versions, tests or VCS repository: only its identity',
    });
  }
  const versions = Array.isArray(object.spec.versions) ? object.spec.versions : [];
  const seen = new Map<string, number>();
  const checked = new Map<string, string | undefined>();
  const values = checkValues(object);
  versions.forEach((item, i) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return;
    const at = (field: string, message: string): SpecProblem => ({ path: `spec.versions.${i}.${field}`, message });
    const version = String((item as Fields).version);
    const first = seen.get(version);
    if (first !== undefined)
      problems.push(at('version', `version ${version} is declared twice (also item ${first + 1})`));
    seen.set(version, i);
    // a source or archive from ${env:} or a sensitive variable is a secret: the messages do not quote it
    const secret = values.secret(`versions.${i}`);
    problems.push(...versionProblems({ ...object, spec: item as Fields }, at, checked, secret));
  });
  if (versions.length > 0 && object.spec['vcs-repo'] !== undefined) {
    const from = getPath(object.spec, 'vcs-repo.branch') ? 'commits of its branch' : 'its tags';
    problems.push({
      path: 'spec.versions',
      message: `a VCS module publishes its versions from its repository (${from}), not from a source or an archive: declare no versions`,
    });
  }
  return problems;
}
