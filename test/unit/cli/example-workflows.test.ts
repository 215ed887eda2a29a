/**
 * The example GitHub workflows (examples/.github/workflows) run converge
 * commands that exist, with flags and format values those commands accept,
 * and the pull-request flow is the reviewed one: plan.yml comments the plan
 * (not drift) and uploads the saved plan, apply.yml applies that file.
 * Parsed with the `yaml` package; the flags come from the real command line.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { commands } from '../../../src/cli/commands/index.ts';

const DIR = fileURLToPath(new URL('../../../examples/.github/workflows/', import.meta.url));

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  if?: string;
}
interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<string, { steps: Step[] }>;
}

function workflow(file: string): Workflow {
  return parse(readFileSync(`${DIR}${file}`, 'utf8')) as Workflow;
}

function steps(w: Workflow): Step[] {
  return Object.values(w.jobs).flatMap((job) => job.steps);
}

/** Every `converge ...` command line of a script: continuations joined, `$name` of `name="..."` expanded. */
function convergeCalls(script: string): string[][] {
  const joined = script.replace(/\\\n\s*/g, ' ');
  const vars = new Map([...joined.matchAll(/^\s*(\w+)="([^"]*)"$/gm)].map((m) => [m[1]!, m[2]!]));
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('converge '))
    .map((line) =>
      line
        .replace(/\s*>.*$/, '')
        .replace(/\$(\w+)/g, (_, name: string) => vars.get(name) ?? '')
        .split(/\s+/)
        .filter(Boolean)
        .slice(1),
    );
}

function program(): Command {
  const root = new Command('converge');
  for (const register of commands) register(root);
  return root;
}

const FILES = readdirSync(DIR).filter((f) => f.endsWith('.yml'));

describe('the example workflows', () => {
  const cli = program();

  it.each(FILES)('%s runs converge commands and flags that exist', (file) => {
    const calls = steps(workflow(file)).flatMap((s) => (s.run ? convergeCalls(s.run) : []));
    expect(calls.length).toBeGreaterThan(0);
    for (const [name, ...args] of calls) {
      const sub = cli.commands.find((c) => c.name() === name);
      expect(sub, `converge ${name}`).toBeDefined();
      for (const [i, arg] of args.entries()) {
        if (!arg.startsWith('-')) continue;
        const option = sub!.options.find((o) => o.long === arg || o.short === arg);
        expect(option, `${file}: converge ${name} ${arg}`).toBeDefined();
        if (option?.argChoices) expect(option.argChoices, `${file}: ${arg}`).toContain(args[i + 1]);
      }
    }
  });

  it('plan.yml comments the plan as Markdown, not drift, and uploads the saved plan', () => {
    const all = steps(workflow('plan.yml'));
    const calls = all.flatMap((s) => (s.run ? convergeCalls(s.run) : []));
    expect(calls.some(([name]) => name === 'drift')).toBe(false);
    const plan = calls.find(([name]) => name === 'plan')!;
    expect(plan.join(' ')).toContain('--format markdown --out plan.json');
    const script = all.find((s) => s.run?.includes('converge plan'))!.run!;
    expect(script).toContain('> plan.md');
    const upload = all.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
    expect(upload.with).toMatchObject({ path: 'plan.json' });
    const comment = all.find((s) => s.uses?.startsWith('marocchino/sticky-pull-request-comment@'))!;
    expect(comment.with).toMatchObject({ path: 'plan.md' });
  });

  it('apply.yml applies the artifact plan.yml uploaded, and plans afresh only when asked', () => {
    const w = workflow('apply.yml');
    const all = steps(w);
    const upload = steps(workflow('plan.yml')).find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
    const download = all.find((s) => s.uses?.startsWith('actions/download-artifact@'))!;
    expect(download.with?.name).toBe(upload.with?.name);
    expect(download.with?.path).toBe('reviewed');
    const calls = all.flatMap((s) => (s.run ? convergeCalls(s.run) : []));
    expect(calls.filter(([name]) => name === 'apply').map((c) => c[1])).toEqual(['reviewed/plan.json']);
    // a fresh plan on main runs only from a manual dispatch that asks for it
    const fresh = all.filter((s) => s.run?.includes('converge plan'));
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub expression, not a template
    expect(fresh.map((s) => s.if)).toEqual(['${{ inputs.fresh-plan }}']);
    expect(w.on).toHaveProperty('workflow_dispatch');
  });

  it('the plan and apply jobs share CONVERGE_PLAN_KEY, since their tokens differ', () => {
    for (const file of ['plan.yml', 'apply.yml']) {
      const jobs = Object.values(workflow(file).jobs) as Array<{ env?: Record<string, string> }>;
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub expression, not a template
      expect(jobs[0]!.env?.CONVERGE_PLAN_KEY).toBe('${{ secrets.CONVERGE_PLAN_KEY }}');
    }
  });
});
