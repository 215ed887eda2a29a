import { readFileSync } from 'node:fs';

/** Read at start-up from package.json (same relative place from src/ and dist/). */
export const VERSION: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
