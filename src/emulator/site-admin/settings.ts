/**
 * One site setting (the site-admin API, `/admin/<name>-settings`): a
 * singleton document read with GET and changed with PATCH. Every setting is
 * this one implementation, configured by a table of its attributes
 * (type, default, write-only, read-only, checks) and optional hooks for
 * rules across attributes; see `setting-tables.ts`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireAdmin } from '../auth.ts';
import { type EmulatorContext, route } from '../context.ts';
import {
  type ApiResponse,
  type Attributes,
  document,
  invalid,
  type Json,
  type Problem,
  requestAttributes,
} from '../jsonapi.ts';
import type { Slice } from '../state.ts';
import { type AttributeSpec, attributeProblems } from '../validate.ts';
import { ADMIN, API_PREFIX } from './paths.ts';

export interface AttributeRule extends Omit<AttributeSpec, 'nullable'> {
  /** The initial value; without one the attribute starts as null and may be set back to null. */
  default?: Json;
  /** Stored and used, never returned (passwords, tokens). */
  writeOnly?: boolean;
  /** Accepted, used for this request only, never stored (a test address). */
  transient?: boolean;
  /** Read-only and never stored: its value comes from `SettingConfig.computed`. */
  computed?: boolean;
}

export interface SettingConfig {
  /** `general` for `/admin/general-settings`, type `general-settings`, id `general`. */
  name: string;
  attributes: Record<string, AttributeRule>;
  /** Rules across attributes, on the settings as they would be after the change. */
  validate?: (next: Attributes, changes: Attributes) => Problem[];
  /** The stored settings after a valid change, when more than a merge (aliases, certificate rotation). */
  derive?: (current: Attributes, changes: Attributes) => Attributes;
  /** Read-only attributes computed on every read (URLs that depend on where the emulator listens). */
  computed?: (ctx: EmulatorContext) => Attributes;
  /** Side effects of a valid change before it is stored; may refuse it by throwing (SMTP test message). */
  effect?: (next: Attributes, changes: Attributes) => void;
}

/** Every setting's stored attributes (write-only ones included), by setting name. */
export class SettingsSlice implements Slice {
  readonly #values: Record<string, Attributes>;
  /** Settings already completed with defaults in this run, so that GET does not check again. */
  readonly #complete = new Set<string>();

  constructor(saved: unknown) {
    this.#values = typeof saved === 'object' && saved !== null ? { ...(saved as Record<string, Attributes>) } : {};
  }

  /** The stored values; attributes that are new since the state was saved get their defaults. */
  get(config: SettingConfig): Attributes {
    const values = this.#values[config.name];
    if (values && this.#complete.has(config.name)) return values;
    const filled = { ...defaults(config), ...values };
    this.#values[config.name] = filled;
    this.#complete.add(config.name);
    return filled;
  }

  set(config: SettingConfig, values: Attributes): void {
    this.#values[config.name] = values;
  }

  save(): unknown {
    return this.#values;
  }
}

export function settingsSlice(ctx: EmulatorContext): SettingsSlice {
  return ctx.state.slice('settings', (saved) => new SettingsSlice(saved));
}

export function registerSetting(api: FastifyInstance, ctx: EmulatorContext, config: SettingConfig): void {
  const slice = settingsSlice(ctx);
  const path = `${ADMIN}/${config.name}-settings`;
  const specs = requestSpecs(config);
  route(api, 'GET', path, (request) => {
    requireAdmin(ctx.state, request);
    return { status: 200, body: settingDocument(ctx, config, slice.get(config)) };
  });
  route(api, 'PATCH', path, (request) => {
    requireAdmin(ctx.state, request);
    return updateSetting(ctx, config, specs, slice, request);
  });
}

function updateSetting(
  ctx: EmulatorContext,
  config: SettingConfig,
  specs: Record<string, AttributeSpec>,
  slice: SettingsSlice,
  request: FastifyRequest,
) {
  const changes = requestAttributes(request.body, `${config.name}-settings`);
  const problems = attributeProblems(changes, specs);
  if (problems.length > 0) throw invalid(problems);
  const current = slice.get(config);
  const merged = config.derive ? config.derive(current, changes) : { ...current, ...changes };
  const crossProblems = config.validate?.(merged, changes) ?? [];
  if (crossProblems.length > 0) throw invalid(crossProblems);
  config.effect?.(merged, changes);
  const next: Attributes = {};
  for (const [key, value] of Object.entries(merged)) if (storedRule(config, key)) next[key] = value;
  slice.set(config, next);
  return { status: 200, body: settingDocument(ctx, config, next) } satisfies ApiResponse;
}

/** What each attribute accepts in a PATCH: an attribute without a default may be set back to null. */
function requestSpecs(config: SettingConfig): Record<string, AttributeSpec> {
  return Object.fromEntries(
    Object.entries(config.attributes).map(([key, rule]) => [key, { ...rule, nullable: rule.default === undefined }]),
  );
}

export function settingDocument(ctx: EmulatorContext, config: SettingConfig, values: Attributes): Json {
  const computed = config.computed?.(ctx) ?? {};
  const attributes: Attributes = {};
  for (const [key, rule] of Object.entries(config.attributes)) {
    if (rule.writeOnly || rule.transient) continue;
    attributes[key] = computed[key] ?? values[key] ?? null;
  }
  const type = `${config.name}-settings`;
  return document({ id: config.name, type, attributes, links: { self: `${API_PREFIX}${ADMIN}/${type}` } });
}

function storedRule(config: SettingConfig, key: string): boolean {
  const rule = config.attributes[key];
  return rule !== undefined && !rule.transient && !rule.computed;
}

function defaults(config: SettingConfig): Attributes {
  const values: Attributes = {};
  for (const [key, rule] of Object.entries(config.attributes)) {
    if (!rule.transient && !rule.computed) values[key] = rule.default ?? null;
  }
  return values;
}
