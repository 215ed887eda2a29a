/** JSON Schema of the configuration file (validated with ajv at load time). */
export const configSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    platform: { $ref: '#/$defs/connection' },
    secrets: { $ref: '#/$defs/connection' },
    parallelism: { type: 'integer', minimum: 1, maximum: 256 },
    maxParallelism: { type: 'integer', minimum: 1, maximum: 256 },
    ownership: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['kind'],
        properties: {
          kind: { type: 'string' },
          scope: { type: 'string', description: 'organization or mount' },
          name: { type: 'string', description: 'glob over the object identity' },
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
