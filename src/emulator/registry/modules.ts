/**
 * Module management (the registry API, items 1-8): list, create (without
 * VCS, or published from VCS), show, update, versions, and the delete
 * cascade (the last version of a provider deletes the provider, the last
 * provider of a module the module). Name rules are 422s with
 * `source.pointer`, missing rights 404s (./access.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type EmulatorContext, origin, paramsOf, queryOf, route } from '../context.ts';
import { newId, randomBase62 } from '../ids.ts';
import {
  type ApiResponse,
  type Attributes,
  document,
  forbidden,
  invalid,
  notFound,
  type Problem,
  requestAttributes,
  unprocessable,
} from '../jsonapi.ts';
import { pageDocument, paginate, param } from '../pagination.ts';
import { authorize, type Right, registryMode, requirePublicCuration } from './access.ts';
import { MAX_NAME_LENGTH, MODULE_NAME, PROVIDER_NAME } from './names.ts';
import { MODULES_PATH, moduleResource, versionResource } from './resources.ts';
import { validVersion } from './semver.ts';
import type { ModuleRecord, RegistrySlice } from './state.ts';
import { buildRevision, newVersion, publishFromVcs, repositoryOf } from './vcs.ts';

export const UPLOAD_PREFIX = '/_archivist/v1/object';

export interface ModuleKey {
  organization: string;
  registryName: string;
  namespace: string;
  name: string;
  provider?: string;
}

export function registerModules(api: FastifyInstance, ctx: EmulatorContext, slice: RegistrySlice): void {
  const { data } = slice;
  const now = () => new Date(ctx.now()).toISOString();
  const base = '/:organization/registry-modules';
  const find = (key: ModuleKey) =>
    data.modules.filter(
      (m) =>
        m.organization === key.organization &&
        m.registryName === key.registryName &&
        m.namespace === key.namespace &&
        m.name === key.name &&
        (key.provider === undefined || m.provider === key.provider),
    );
  const keyOf = (request: FastifyRequest, right: Right): ModuleKey => {
    const p = paramsOf(request);
    authorize(ctx, request, p.organization ?? '', right);
    return {
      organization: p.organization ?? '',
      registryName: p.registry ?? 'private',
      namespace: p.namespace ?? p.organization ?? '',
      name: p.name ?? '',
      ...(p.provider !== undefined && { provider: p.provider }),
    };
  };
  const one = (key: ModuleKey): ModuleRecord => {
    const found = find(key)[0];
    if (!found) throw notFound();
    return found;
  };
  const show = (status: number, m: ModuleRecord): ApiResponse => ({
    status,
    body: document(moduleResource(m, data.versions)),
  });

  route(api, 'GET', base, (request) => {
    const organization = paramsOf(request).organization ?? '';
    authorize(ctx, request, organization, 'read');
    const query = queryOf(request);
    const q = param(query, 'q')?.toLowerCase();
    const filters = {
      registry: param(query, 'filter[registry_name]'),
      provider: param(query, 'filter[provider]'),
      organization: param(query, 'filter[organization_name]'),
    };
    const records = data.modules.filter(
      (m) =>
        m.organization === organization &&
        (filters.organization === undefined || m.organization === filters.organization) &&
        (filters.registry === undefined || m.registryName === filters.registry) &&
        (filters.provider === undefined || m.provider === filters.provider) &&
        (q === undefined || [m.name, m.namespace, m.provider].some((v) => v.toLowerCase().includes(q))),
    );
    const page = paginate(records, query, `${origin(request)}${MODULES_PATH}/${organization}/registry-modules`);
    return { status: 200, body: pageDocument(page, (m) => moduleResource(m, data.versions)) };
  });

  route(api, 'POST', base, (request) => {
    const organization = paramsOf(request).organization ?? '';
    authorize(ctx, request, organization, 'manage-modules');
    const attributes = requestAttributes(request.body, 'registry-modules');
    const registryName = attributes['registry-name'] === undefined ? 'private' : attributes['registry-name'];
    const mode = registryMode(ctx);
    const problems = nameProblems(attributes, registryName, mode.selfManaged);
    if (problems.length > 0) throw invalid(problems);
    if (registryName === 'public') requirePublicCuration(mode);
    const namespace = registryName === 'public' ? String(attributes.namespace) : organization;
    const key = {
      organization,
      registryName: String(registryName),
      namespace,
      name: String(attributes.name),
      provider: String(attributes.provider),
    };
    if (find(key).length > 0) throw invalid([{ attribute: 'name', message: 'has already been taken' }]);
    const record: ModuleRecord = {
      id: newId('mod'),
      organization,
      registryName: registryName as 'private' | 'public',
      namespace,
      name: key.name,
      provider: key.provider,
      // a public record is only a pointer to the public registry: nothing to set up
      status: registryName === 'public' ? 'setup_complete' : 'pending',
      noCode: attributes['no-code'] === true,
      vcsRepo: null,
      testConfig: null,
      createdAt: now(),
      updatedAt: now(),
    };
    data.modules.push(record);
    return show(201, record);
  });

  route(api, 'POST', `${base}/vcs`, (request) => {
    const organization = paramsOf(request).organization ?? '';
    authorize(ctx, request, organization, 'manage-modules');
    return show(
      201,
      publishFromVcs(ctx, slice, organization, requestAttributes(request.body, 'registry-modules'), origin(request)),
    );
  });

  const modulePath = `${base}/:registry/:namespace/:name/:provider`;
  route(api, 'GET', modulePath, (request) => {
    const key = keyOf(request, 'read');
    if (key.registryName === 'public') requirePublicCuration(registryMode(ctx));
    return show(200, one(key));
  });

  route(api, 'PATCH', modulePath, patch);
  route(api, 'PATCH', `${modulePath}/`, patch);
  function patch(request: FastifyRequest): ApiResponse {
    const key = keyOf(request, 'owners');
    if (key.registryName !== 'private') throw notFound();
    const module = one(key);
    const attributes = requestAttributes(request.body, 'registry-modules');
    const vcs = attributes['vcs-repo'] as Attributes | undefined;
    if (vcs && vcs.branch !== undefined && vcs.tags !== undefined) {
      throw unprocessable('vcs-repo.branch and vcs-repo.tags cannot be given together');
    }
    if (vcs && module.vcsRepo) {
      if (typeof vcs.branch === 'string') module.vcsRepo.branch = vcs.branch;
      if (vcs.tags === true) module.vcsRepo.branch = '';
    }
    const tests = attributes['test-config'] as Attributes | undefined;
    if (tests !== undefined) {
      if (typeof tests !== 'object' || tests === null || typeof tests['tests-enabled'] !== 'boolean') {
        throw invalid([{ attribute: 'test-config', message: 'tests-enabled must be true or false' }]);
      }
      module.testConfig = { id: module.testConfig?.id ?? newId('tc'), testsEnabled: tests['tests-enabled'] };
    }
    module.updatedAt = now();
    return show(200, module);
  }

  route(api, 'POST', `${modulePath}/versions`, (request) => {
    const key = keyOf(request, 'manage-modules');
    if (key.registryName === 'public') throw forbidden('versions cannot be created for public modules');
    const module = one(key);
    const attributes = requestAttributes(request.body, 'registry-module-versions');
    const version = attributes.version;
    if (typeof version !== 'string' || !validVersion(version)) {
      throw invalid([{ attribute: 'version', message: 'is not a valid semantic version' }]);
    }
    if (module.vcsRepo && !module.vcsRepo.branch) {
      throw unprocessable('versions of a tag-based module are published from its tags');
    }
    if (data.versions.some((v) => v.moduleId === module.id && v.version === version)) {
      throw invalid([{ attribute: 'version', message: 'has already been taken' }]);
    }
    const commitSha = typeof attributes['commit-sha'] === 'string' ? attributes['commit-sha'] : '';
    if (module.vcsRepo) {
      // branch-based: the version is built from the repository (the commit, else the branch's head), not uploaded
      const record = newVersion(ctx, module, version, 'platform-api', commitSha || module.vcsRepo.branch);
      data.versions.push(record);
      const repository = repositoryOf(ctx, module);
      setImmediate(() => {
        if (repository === undefined) {
          record.status = 'clone_failed';
          record.error = `the repository ${module.vcsRepo?.identifier} is no longer in the seed`;
          return;
        }
        void buildRevision(ctx, slice, record, repository).catch((e) =>
          ctx.log(`publishing ${module.vcsRepo?.identifier} ${version}: ${(e as Error).message}`),
        );
      });
      return { status: 201, body: document(versionResource(record)) };
    }
    const record = newVersion(ctx, module, version, 'platform-api', commitSha);
    data.versions.push(record);
    const objectId = randomBase62(40);
    data.uploads[objectId] = { kind: 'module-version', id: record.id };
    return { status: 201, body: document(versionResource(record, `${origin(request)}${UPLOAD_PREFIX}/${objectId}`)) };
  });

  const remove = (request: FastifyRequest) => {
    const key = keyOf(request, 'owners');
    const version = paramsOf(request).version;
    if (key.registryName === 'public') requirePublicCuration(registryMode(ctx));
    if (key.registryName === 'public' && (key.provider !== undefined || version !== undefined)) throw notFound();
    const modules = find(key);
    if (modules.length === 0) throw notFound();
    if (version !== undefined) {
      const module = modules[0] as ModuleRecord;
      const index = data.versions.findIndex((v) => v.moduleId === module.id && v.version === version);
      if (index === -1) throw notFound();
      data.versions.splice(index, 1);
      // the last version of a provider takes the provider with it
      if (!data.versions.some((v) => v.moduleId === module.id)) dropModules(slice, [module]);
    } else {
      dropModules(slice, modules);
    }
    return { status: 204 };
  };
  route(api, 'DELETE', `${modulePath}/:version`, remove);
  route(api, 'DELETE', modulePath, remove);
  route(api, 'DELETE', `${base}/:registry/:namespace/:name`, remove);
}

/** Module records and everything that hangs off them. */
export function dropModules(slice: RegistrySlice, modules: readonly ModuleRecord[]): void {
  const { data } = slice;
  const ids = new Set(modules.map((m) => m.id));
  data.modules = data.modules.filter((m) => !ids.has(m.id));
  data.versions = data.versions.filter((v) => !ids.has(v.moduleId));
  data.variables = data.variables.filter((v) => !ids.has(v.moduleId));
  data.runs = data.runs.filter((r) => !ids.has(r.moduleId));
  data.configurationVersions = data.configurationVersions.filter((c) => !ids.has(c.moduleId));
}

/** The name, namespace, provider and registry rules, every failure at once. */
function nameProblems(attributes: Attributes, registryName: unknown, selfManaged: boolean): Problem[] {
  const problems: Problem[] = [];
  const check = (attribute: string, pattern: RegExp, what: string) => {
    const value = attributes[attribute];
    if (typeof value !== 'string' || value === '') problems.push({ attribute, message: "can't be blank" });
    else if (value.length > MAX_NAME_LENGTH)
      problems.push({ attribute, message: `is too long (maximum is ${MAX_NAME_LENGTH} characters)` });
    else if (!pattern.test(value)) problems.push({ attribute, message: what });
  };
  check(
    'name',
    MODULE_NAME,
    'can contain only letters, numbers, dashes and underscores, and must start and end with a letter or number',
  );
  check('provider', PROVIDER_NAME, 'can contain only lowercase letters and numbers');
  if (registryName !== 'private' && registryName !== 'public') {
    problems.push({ attribute: 'registry-name', message: 'is not included in the list' });
  } else if (selfManaged && registryName !== 'private') {
    problems.push({ attribute: 'registry-name', message: 'must be private on a self-managed installation' });
  } else if (registryName === 'public') {
    check(
      'namespace',
      MODULE_NAME,
      'can contain only letters, numbers, dashes and underscores, and must start and end with a letter or number',
    );
  } else if (attributes.namespace !== undefined) {
    problems.push({ attribute: 'namespace', message: 'must not be set for private modules' });
  }
  return problems;
}
