/**
 * Tool versions and policy-engine versions (the site-admin API; docs/apis.md): the same
 * collection twice, under `/admin/tool-versions` and `/admin/policy-versions`.
 * Records keep creation order, which is the list order; the version string
 * is a second key, so `filter[version]` and the duplicate check are lookups.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ConvergeError } from '../../errors.ts';
import { requireAdmin } from '../auth.ts';
import { type EmulatorContext, origin, paramsOf, queryOf, route } from '../context.ts';
import { newId } from '../ids.ts';
import {
  type ApiResponse,
  type Attributes,
  document,
  invalid,
  type Json,
  notFound,
  type ResourceObject,
  requestAttributes,
  unprocessable,
} from '../jsonapi.ts';
import { pageDocument, paginate, param } from '../pagination.ts';
import type { SeedVersion } from '../seed.ts';
import type { Slice } from '../state.ts';
import { Store } from '../store.ts';
import { type AttributeSpec, attributeProblems, httpUrl, present, semver, sha256 } from '../validate.ts';
import { ADMIN, API_PREFIX } from './paths.ts';

export interface VersionCollection {
  /** The JSON:API type and path segment: `tool-versions`. */
  type: string;
  seed: 'toolVersions' | 'policyVersions';
  /** What uses a version, for the 422 when deleting one in use. */
  users: string;
}

export const TOOL_VERSIONS: VersionCollection = { type: 'tool-versions', seed: 'toolVersions', users: 'workspaces' };
export const POLICY_VERSIONS: VersionCollection = {
  type: 'policy-versions',
  seed: 'policyVersions',
  users: 'workspaces or policy sets',
};

interface VersionRecord {
  id: string;
  attributes: Attributes;
}

interface VersionAttribute extends AttributeSpec {
  /** A create must give it. */
  required?: boolean;
  /** What a create that leaves it out gets. */
  default?: Json;
}

/** Every attribute, in the order the platform returns them. */
const ATTRIBUTES: Record<string, VersionAttribute> = {
  version: { kind: 'string', required: true, checks: [semver] },
  url: { kind: 'string', required: true, checks: [httpUrl] },
  sha: { kind: 'string', required: true, checks: [sha256] },
  deprecated: { kind: 'boolean', default: false },
  'deprecated-reason': { kind: 'string', nullable: true, default: null },
  official: { kind: 'boolean', default: false },
  enabled: { kind: 'boolean', default: true },
  beta: { kind: 'boolean', default: false },
  usage: { kind: 'integer', readOnly: true },
  'created-at': { kind: 'string', readOnly: true },
};
const ORDER = Object.keys(ATTRIBUTES);
const REQUIRED = ORDER.filter((key) => ATTRIBUTES[key]?.required);
const DEFAULTS: Attributes = Object.fromEntries(
  Object.entries(ATTRIBUTES).flatMap(([key, a]) => (a.default === undefined ? [] : [[key, a.default]])),
);

class VersionsSlice implements Slice {
  readonly store = new Store<VersionRecord>((record) => String(record.attributes.version));

  save(): unknown {
    return this.store.values();
  }
}

export function registerVersions(api: FastifyInstance, ctx: EmulatorContext, collection: VersionCollection): void {
  const { type } = collection;
  const { store } = ctx.state.slice(type, (saved) => loadSlice(saved, collection, ctx));
  const path = `${ADMIN}/${type}`;
  const find = (request: FastifyRequest) => {
    const record = store.get(paramsOf(request).id ?? '');
    if (!record) throw notFound();
    return record;
  };
  const answer = (status: number, record: VersionRecord): ApiResponse => ({
    status,
    body: document(resource(type, record)),
  });

  route(api, 'GET', path, (request) => {
    requireAdmin(ctx.state, request);
    const query = queryOf(request);
    const exact = param(query, 'filter[version]');
    const search = param(query, 'search[version]');
    let records: readonly VersionRecord[] = store.values();
    if (exact !== undefined) {
      const record = store.byKey(exact);
      records = record ? [record] : [];
    } else if (search !== undefined && search !== '') {
      records = records.filter((r) => String(r.attributes.version).includes(search));
    }
    const page = paginate(records, query, `${origin(request)}${API_PREFIX}${path}`);
    return { status: 200, body: pageDocument(page, (r) => resource(type, r)) };
  });

  route(api, 'POST', path, (request) => {
    requireAdmin(ctx.state, request);
    const changes = requestAttributes(request.body, type);
    const attributes = { ...DEFAULTS, ...changes };
    check(changes, attributes, store, undefined);
    const record = {
      id: newId('tool'),
      attributes: { ...attributes, usage: 0, 'created-at': new Date(ctx.now()).toISOString() },
    };
    store.add(record);
    return answer(201, record);
  });

  route(api, 'GET', `${path}/:id`, (request) => {
    requireAdmin(ctx.state, request);
    return answer(200, find(request));
  });

  route(api, 'PATCH', `${path}/:id`, (request) => {
    requireAdmin(ctx.state, request);
    const record = find(request);
    const changes = requestAttributes(request.body, type);
    const attributes = { ...record.attributes, ...changes };
    // un-deprecating without naming a reason clears the old one rather than failing
    if (attributes.deprecated !== true && !('deprecated-reason' in changes)) attributes['deprecated-reason'] = null;
    check(changes, attributes, store, record);
    const previous = String(record.attributes.version);
    record.attributes = attributes;
    store.rekey(record, previous);
    return answer(200, record);
  });

  route(api, 'DELETE', `${path}/:id`, (request) => {
    requireAdmin(ctx.state, request);
    const record = find(request);
    if (record.attributes.official === true) throw unprocessable('official versions cannot be deleted');
    const usage = Number(record.attributes.usage ?? 0);
    if (usage > 0)
      throw unprocessable(`version ${record.attributes.version} is in use by ${usage} ${collection.users}`);
    store.delete(record);
    return { status: 204 };
  });
}

/** Every problem of a create or update at once; `self` is the record being updated. */
function check(changes: Attributes, next: Attributes, store: Store<VersionRecord>, self: VersionRecord | undefined) {
  const problems = attributeProblems(changes, ATTRIBUTES);
  for (const attribute of REQUIRED) {
    if (!present(next[attribute])) problems.push({ attribute, message: "can't be blank" });
  }
  const version = next.version;
  if (typeof version === 'string') {
    const other = store.byKey(version);
    if (other && other !== self) problems.push({ attribute: 'version', message: 'has already been taken' });
  }
  if (next.deprecated !== true && next['deprecated-reason'] !== null && next['deprecated-reason'] !== undefined) {
    problems.push({ attribute: 'deprecated-reason', message: 'must be blank unless deprecated is true' });
  }
  if (problems.length > 0) throw invalid(problems);
}

/** The table's order, whatever order the attributes were sent in. */
function resource(type: string, record: VersionRecord): ResourceObject {
  const attributes: Attributes = {};
  for (const key of ORDER) attributes[key] = record.attributes[key] ?? null;
  return { id: record.id, type, attributes, links: { self: `${API_PREFIX}${ADMIN}/${type}/${record.id}` } };
}

function loadSlice(saved: unknown, collection: VersionCollection, ctx: EmulatorContext): VersionsSlice {
  const slice = new VersionsSlice();
  if (saved !== undefined) {
    if (!Array.isArray(saved)) throw corrupt(collection, 'not a list');
    for (const [i, record] of saved.entries()) {
      const r = record as Partial<VersionRecord> | null;
      if (typeof r?.id !== 'string' || typeof r.attributes?.version !== 'string')
        throw corrupt(collection, `entry ${i}`);
      slice.store.add(r as VersionRecord);
    }
    return slice;
  }
  const created = new Date(ctx.now()).toISOString();
  for (const v of ctx.state.seed[collection.seed] ?? []) {
    if (slice.store.byKey(v.version)) throw duplicateSeed(collection, v.version);
    slice.store.add(seeded(v, created));
  }
  return slice;
}

function seeded(v: SeedVersion, created: string): VersionRecord {
  return {
    id: newId('tool'),
    attributes: {
      version: v.version,
      url: v.url,
      sha: v.sha,
      deprecated: v.deprecated ?? false,
      'deprecated-reason': v.deprecated ? (v.deprecatedReason ?? null) : null,
      official: v.official ?? false,
      enabled: v.enabled ?? true,
      beta: v.beta ?? false,
      usage: v.usage ?? 0,
      'created-at': created,
    },
  };
}

function duplicateSeed(collection: VersionCollection, version: string): ConvergeError {
  return new ConvergeError('INPUT_INVALID', `invalid seed: ${collection.seed}: version "${version}" is declared twice`);
}

function corrupt(collection: VersionCollection, what: string): ConvergeError {
  return new ConvergeError('INPUT_INVALID', `state file: ${collection.type} is corrupt (${what})`, {
    hint: 'delete the state file (the emulator then starts from its seed)',
  });
}
