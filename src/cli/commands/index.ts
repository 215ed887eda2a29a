import type { Command } from 'commander';
import { registerApply } from './apply.ts';
import { registerPlan } from './plan.ts';
import { registerValidate } from './validate.ts';

/** Every command, in the order `--help` lists them. One line per command. */
export const commands: Array<(program: Command) => void> = [registerValidate, registerPlan, registerApply];
