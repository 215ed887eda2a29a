/**
 * Where the kinds' JSON Schemas ship. Apart from schemas.ts, so that the
 * commands that only need the path (`schema`, `export`) do not load ajv.
 */
import { fileURLToPath } from 'node:url';

export const DEFAULT_SCHEMA_DIR = fileURLToPath(new URL('../../schemas/', import.meta.url));
