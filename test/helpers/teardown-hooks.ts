/** Vitest setup file, run in every test file: the cleanups helpers gave test/helpers/teardown.ts. */
import { afterAll, afterEach } from 'vitest';
import { forgetSecrets } from '../../src/api/redact.ts';
import { runAfterFile, runAfterTest } from './teardown.ts';

afterEach(runAfterTest);
afterAll(runAfterFile);
// the redactor is process-wide: what one file registered must not mask the next file's text
afterAll(forgetSecrets);
