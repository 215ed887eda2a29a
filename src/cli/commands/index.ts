import type { Command } from 'commander';
import { registerApply } from './apply.ts';
import { registerDemo } from './demo.ts';
import { registerDrift } from './drift.ts';
import { registerEmulator } from './emulator.ts';
import { registerExport } from './export.ts';
import { registerPlan } from './plan.ts';
import { registerPolicy } from './policy.ts';
import { registerSchema } from './schema.ts';
import { registerTest } from './test.ts';
import { registerValidate } from './validate.ts';

/** Every command, in the order `--help` lists them. One line per command. */
export const commands: Array<(program: Command) => void> = [
  registerValidate,
  registerPlan,
  registerApply,
  registerDrift,
  registerExport,
  registerTest,
  registerPolicy,
  registerSchema,
  registerEmulator,
  registerDemo,
];
