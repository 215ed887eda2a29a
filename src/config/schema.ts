/**
 * JSON Schema of the configuration file, compiled to a validator at build time
 * (scripts/build-validators.ts). Each API family (src/api/profiles.ts) has its
 * connection under its name.
 */
import { API_NAMES, type ApiName } from '../api/profiles.ts';

const connections = Object.fromEntries(API_NAMES.map((api) => [api, { $ref: '#/$defs/connection' }] as const)) as {
  [api in ApiName]: { $ref: '#/$defs/connection' };
};

/** Which objects an `ownership` or `ignore` entry selects (src/reconcile/ownership.ts). */
const SELECTION = {
  kind: { type: 'string' },
  scope: { type: 'string', description: 'organization or mount' },
  name: { type: 'string', description: 'glob over the object identity' },
} as const;

export const configSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...connections,
    parallelism: { type: 'integer', minimum: 1, maximum: 256 },
    maxParallelism: { type: 'integer', minimum: 1, maximum: 256 },
    ownership: {
      type: 'array',
      items: { type: 'object', additionalProperties: false, required: ['kind'], properties: SELECTION },
    },
    ignore: {
      type: 'array',
      description: 'fields converge never compares nor sends, for every declared object an entry selects',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['kind', 'fields'],
        properties: {
          ...SELECTION,
          fields: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1, pattern: '^\\S+$' } },
        },
      },
    },
    guard: {
      type: 'object',
      additionalProperties: false,
      properties: { maxDeletes: { type: 'integer', minimum: 0 } },
    },
    interpolation: {
      type: 'object',
      additionalProperties: false,
      properties: {
        fileRoots: { type: 'array', items: { type: 'string', minLength: 1 } },
        env: { type: 'array', items: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*\\*?$' } },
        maxFileBytes: { type: 'integer', minimum: 1, maximum: 64 * 1024 * 1024 },
      },
    },
    variables: {
      type: 'object',
      description: "values of the manifests' variables: name: value, and files: values files relative to this file",
      propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
      properties: { files: { type: 'array', items: { type: 'string', minLength: 1 } } },
    },
    fingerprints: {
      oneOf: [
        { const: false },
        { type: 'object', additionalProperties: false, required: ['path'], properties: { path: { type: 'string' } } },
      ],
    },
  },
  $defs: {
    connection: {
      type: 'object',
      additionalProperties: false,
      properties: {
        url: { type: 'string', pattern: '^https?://' },
        tokenEnv: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
        tokenHeader: { type: 'string', pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$" },
        rateLimit: { type: 'number', exclusiveMinimum: 0 },
        requestTimeoutMs: { type: 'integer', minimum: 1 },
      },
    },
  },
} as const;
