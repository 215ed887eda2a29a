/** Vitest setup file, run in every test file: the cleanups helpers gave test/helpers/teardown.ts. */
import { afterAll, afterEach } from 'vitest';
import { runAfterFile, runAfterTest } from './teardown.ts';

afterEach(runAfterTest);
afterAll(runAfterFile);
