/**
 * Consent before changing anything: on a terminal, ask; without one, refuse
 * unless the flag that stands for consent was given.
 */
import { createInterface } from 'node:readline/promises';
import { ConvergeError } from '../../errors.ts';
import { describeAddress } from '../../reconcile/address.ts';
import type { Provider } from '../../reconcile/provider.ts';
import { replaceRisks } from '../../reconcile/replace.ts';
import type { Plan } from '../../reconcile/types.ts';

function isInteractive(): boolean {
  return process.stdin.isTTY === true && process.stderr.isTTY === true;
}

export async function ask(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
  }
}

export async function confirmApply(changes: number, autoApprove: boolean): Promise<void> {
  if (autoApprove) return;
  if (!isInteractive()) {
    throw new ConvergeError('GUARD_REFUSED', 'apply needs approval and there is no terminal to ask on', {
      hint: 'review the plan above, then pass --auto-approve (or apply a saved plan file)',
    });
  }
  const answer = await ask(`\nApply these ${changes} change(s)? Only "yes" is accepted: `);
  if (answer !== 'yes') throw new ConvergeError('GUARD_REFUSED', 'apply cancelled; nothing was changed');
}

/** The mass-delete guard: more deletes than the configured limit need explicit consent. */
export async function guardDeletes(deletes: number, limit: number, allow: boolean): Promise<void> {
  if (deletes <= limit || allow) return;
  const message = `this plan deletes ${deletes} objects, more than the limit of ${limit}`;
  const hint = 'check the plan; pass --allow-mass-delete, or raise guard.maxDeletes in the configuration';
  if (!isInteractive()) throw new ConvergeError('GUARD_REFUSED', message, { hint });
  const answer = await ask(`\n${message}. Type the number of deletes (${deletes}) to go on: `);
  if (answer !== String(deletes)) throw new ConvergeError('GUARD_REFUSED', `${message}; nothing was changed`, { hint });
}

/**
 * Replacements that destroy more than the object (a new SSH CA invalidates
 * every certificate in circulation), or that delete an object that cannot be
 * put back if its create fails (src/reconcile/replace.ts), need consent of
 * their own, even with --auto-approve or a saved plan: --allow-replace
 * <Kind>, or a yes typed for that kind on a terminal.
 */
export async function guardReplacements(
  plan: Plan,
  providers: ReadonlyMap<string, Provider>,
  allowed: readonly string[],
): Promise<void> {
  const byKind = new Map<string, { objects: string[]; risks: Set<string> }>();
  for (const action of plan.actions) {
    if (action.action !== 'replace' || allowed.includes(action.kind)) continue;
    const risks = replaceRisks(providers.get(action.kind), action);
    if (risks.length === 0) continue;
    const entry = byKind.get(action.kind) ?? { objects: [], risks: new Set<string>() };
    entry.objects.push(describeAddress(action.address));
    for (const risk of risks) entry.risks.add(risk);
    byKind.set(action.kind, entry);
  }
  for (const [kind, { objects, risks }] of byKind) {
    const message = `this plan replaces ${objects.join(', ')}: ${[...risks].join('; ')}`;
    const hint = `check the plan; pass --allow-replace ${kind} to go on`;
    if (!isInteractive()) throw new ConvergeError('GUARD_REFUSED', `${message}; nothing was changed`, { hint });
    const answer = await ask(`\n${message}. Type "replace ${kind}" to go on: `);
    if (answer !== `replace ${kind}`)
      throw new ConvergeError('GUARD_REFUSED', `${message}; nothing was changed`, { hint });
  }
}
