/**
 * The module tests API (items 9-16), under
 * `/organizations/:org/tests/registry-modules/private/:ns/:name/:provider`:
 * test runs, configuration versions and test variables. Every endpoint
 * needs the owners team (./access.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type EmulatorContext, origin, paramsOf, queryOf, route } from '../context.ts';
import { newId, randomBase62 } from '../ids.ts';
import {
  type ApiResponse,
  document,
  httpFailure,
  invalid,
  notFound,
  type Problem,
  requestAttributes,
} from '../jsonapi.ts';
import { pageDocument, paginate, param } from '../pagination.ts';
import { authorize } from './access.ts';
import { configurationResource, newConfigurationVersion } from './configuration.ts';
import { UPLOAD_PREFIX } from './modules.ts';
import { MODULES_PATH } from './resources.ts';
import type { ModuleRecord, RegistrySlice, TestVariable } from './state.ts';
import { runResource, runStatus, startRun } from './test-runs.ts';

const KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const LOGS_PREFIX = '/_archivist/v1/logs';

export function registerTests(api: FastifyInstance, ctx: EmulatorContext, slice: RegistrySlice): void {
  const { data } = slice;
  const prefix = '/:organization/tests/registry-modules/private/:namespace/:name/:provider';
  const moduleOf = (request: FastifyRequest): { module: ModuleRecord; userId: string } => {
    const p = paramsOf(request);
    const user = authorize(ctx, request, p.organization ?? '', 'owners');
    const module = data.modules.find(
      (m) =>
        m.organization === p.organization &&
        m.registryName === 'private' &&
        m.namespace === p.namespace &&
        m.name === p.name &&
        m.provider === p.provider,
    );
    if (!module) throw notFound();
    return { module, userId: user.id };
  };
  const runOf = (request: FastifyRequest) => {
    const { module } = moduleOf(request);
    const run = data.runs.find((r) => r.moduleId === module.id && r.id === paramsOf(request).run);
    if (!run) throw notFound();
    return run;
  };
  const logs = (request: FastifyRequest) => `${origin(request)}${LOGS_PREFIX}`;

  route(api, 'POST', `${prefix}/test-runs/configuration-versions`, (request) => {
    const { module } = moduleOf(request);
    const cv = newConfigurationVersion(ctx, slice, module.id);
    const objectId = randomBase62(40);
    data.uploads[objectId] = { kind: 'configuration-version', id: cv.id };
    return { status: 201, body: document(configurationResource(cv, `${origin(request)}${UPLOAD_PREFIX}/${objectId}`)) };
  });

  route(api, 'POST', `${prefix}/test-runs`, async (request) => {
    const { module, userId } = moduleOf(request);
    const body = request.body as {
      data?: { relationships?: { 'configuration-version'?: { data?: { id?: unknown } } } };
    };
    const attributes = requestAttributes(request.body, 'test-runs');
    const cvId = body?.data?.relationships?.['configuration-version']?.data?.id;
    // the configuration may belong to another module (the spec allows it), but it must exist and hold
    // an upload; without one named, the module's latest upload is tested
    const cv =
      cvId === undefined
        ? latestConfiguration(slice, module.id)
        : data.configurationVersions.find((c) => c.id === cvId && c.status === 'uploaded');
    if (!cv)
      throw invalid([{ attribute: 'configuration-version', message: 'must name an uploaded configuration version' }]);
    const run = await startRun(ctx, slice, {
      moduleId: module.id,
      configurationVersionId: cv.id,
      source: 'platform-api',
      createdBy: userId,
      attributes,
      message: 'Queued manually via the API',
    });
    return { status: 201, body: document(runResource(ctx, run, logs(request))) };
  });

  const list = (request: FastifyRequest): ApiResponse => {
    const { module } = moduleOf(request);
    const query = queryOf(request);
    const sources = param(query, 'filter[source]')
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const runs = data.runs
      .filter((r) => r.moduleId === module.id && (!sources || sources.includes(r.source)))
      .reverse();
    const base = `${origin(request)}${MODULES_PATH}${request.url.split('?')[0]?.replace(/^\/api\/v2\/organizations/, '')}`;
    const page = paginate(runs, query, base);
    return { status: 200, body: pageDocument(page, (r) => runResource(ctx, r, logs(request))) };
  };
  route(api, 'GET', `${prefix}/test-runs`, list);
  route(api, 'GET', `${prefix}/test-runs/`, list);
  route(api, 'GET', `${prefix}/test-runs/:run`, (request) => ({
    status: 200,
    body: document(runResource(ctx, runOf(request), logs(request))),
  }));

  route(api, 'POST', `${prefix}/test-runs/:run/cancel`, (request) => {
    const run = runOf(request);
    if (runStatus(ctx, run) !== 'running' || run.cancelRequestedAt !== null)
      throw conflict('the test run is not running');
    run.cancelRequestedAt = ctx.now();
    return { status: 202 };
  });
  route(api, 'POST', `${prefix}/test-runs/:run/force-cancel`, (request) => {
    const run = runOf(request);
    if (runStatus(ctx, run) !== 'running' || run.cancelRequestedAt === null) {
      throw conflict('the test run is not running, or was not canceled first');
    }
    run.canceledAt = ctx.now();
    return { status: 202 };
  });

  route(api, 'GET', `${prefix}/vars`, (request) => {
    const { module } = moduleOf(request);
    return {
      status: 200,
      body: { data: data.variables.filter((v) => v.moduleId === module.id).map(variableResource) },
    };
  });
  route(api, 'POST', `${prefix}/vars`, (request) => {
    const { module } = moduleOf(request);
    const attributes = requestAttributes(request.body, 'vars');
    const variable: TestVariable = {
      id: newId('var'),
      moduleId: module.id,
      key: '',
      value: '',
      description: '',
      category: 'env',
      sensitive: false,
      createdAt: new Date(ctx.now()).toISOString(),
    };
    applyVariable(
      variable,
      attributes,
      data.variables.filter((v) => v.moduleId === module.id),
      true,
    );
    data.variables.push(variable);
    return { status: 201, body: document(variableResource(variable)) };
  });
  route(api, 'PATCH', `${prefix}/vars/:variable`, (request) => {
    const { module } = moduleOf(request);
    const variable = data.variables.find((v) => v.moduleId === module.id && v.id === paramsOf(request).variable);
    if (!variable) throw notFound();
    const others = data.variables.filter((v) => v.moduleId === module.id && v !== variable);
    applyVariable(variable, requestAttributes(request.body, 'vars'), others, false);
    return { status: 200, body: document(variableResource(variable)) };
  });
  route(api, 'DELETE', `${prefix}/vars/:variable`, (request) => {
    const { module } = moduleOf(request);
    const index = data.variables.findIndex((v) => v.moduleId === module.id && v.id === paramsOf(request).variable);
    if (index === -1) throw notFound();
    data.variables.splice(index, 1);
    return { status: 204 };
  });
}

const conflict = (detail: string) => httpFailure(409, 'conflict', detail);

function latestConfiguration(slice: RegistrySlice, moduleId: string) {
  return slice.data.configurationVersions.filter((c) => c.moduleId === moduleId && c.status === 'uploaded').at(-1);
}

/** Key rules, `env` only, and a sensitive variable stays sensitive (its value cannot be read back). */
function applyVariable(
  variable: TestVariable,
  attributes: Record<string, unknown>,
  others: readonly TestVariable[],
  creating: boolean,
) {
  const problems: Problem[] = [];
  const text = (name: string) => {
    const value = attributes[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') problems.push({ attribute: name, message: 'must be a string' });
    return typeof value === 'string' ? value : undefined;
  };
  const key = text('key');
  if (creating && key === undefined) problems.push({ attribute: 'key', message: "can't be blank" });
  if (key !== undefined && !KEY.test(key)) {
    problems.push({
      attribute: 'key',
      message: 'must begin with a letter or underscore and contain only letters, numbers and underscores',
    });
  }
  if (key !== undefined && others.some((o) => o.key === key))
    problems.push({ attribute: 'key', message: 'has already been taken' });
  const category = text('category');
  if (category !== undefined && category !== 'env') problems.push({ attribute: 'category', message: 'must be env' });
  const sensitive = attributes.sensitive;
  if (sensitive !== undefined && typeof sensitive !== 'boolean')
    problems.push({ attribute: 'sensitive', message: 'must be true or false' });
  if (sensitive === false && variable.sensitive)
    problems.push({ attribute: 'sensitive', message: 'cannot be turned off once on' });
  for (const name of Object.keys(attributes)) {
    if (!['key', 'value', 'description', 'category', 'sensitive', 'hcl'].includes(name))
      problems.push({ attribute: name, message: 'is not a known attribute' });
  }
  const value = text('value');
  const description = text('description');
  if (problems.length > 0) throw invalid(problems);
  if (key !== undefined) variable.key = key;
  if (value !== undefined) variable.value = value;
  if (description !== undefined) variable.description = description;
  if (sensitive === true) variable.sensitive = true;
}

function variableResource(v: TestVariable) {
  return {
    id: v.id,
    type: 'vars',
    attributes: {
      key: v.key,
      // a sensitive value is written once and never shown again
      value: v.sensitive ? null : v.value,
      description: v.description,
      category: v.category,
      sensitive: v.sensitive,
      hcl: false,
      'created-at': v.createdAt,
      'version-id': `${v.id}-v1`,
    },
    links: { self: `/api/v2/vars/${v.id}` },
  };
}
