/**
 * Flags shared by the commands that plan (plan, apply, drift), declared
 * once so that they read the same everywhere.
 */
import { type Command, InvalidArgumentError, Option } from 'commander';

export interface CommonFlags {
  config?: string;
  /** Run a configuration file written as code (docs/security.md, "Configuration"). */
  allowCodeConfig?: boolean;
  color: boolean;
  target: string[];
  selector: string[];
  prune: boolean;
  parallelism?: number;
  resendSecrets: boolean;
  json: boolean;
  /** `--var name=value` (docs/environments.md, "Variables"). */
  var?: string[];
  /** `--var-file FILE`: a YAML or JSON map of variable values. */
  varFile?: string[];
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * Parses a count flag such as --parallelism: a whole number of at least 1.
 * InvalidArgumentError makes commander report it as a usage error naming the flag.
 */
export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    throw new InvalidArgumentError(`expected a whole number of at least 1, got "${value}"`);
  }
  return n;
}

/** The most requests in flight per API, as the configuration's `maxParallelism` allows. */
export const MAX_PARALLELISM = 256;

/** --parallelism: a whole number from 1 to MAX_PARALLELISM. */
export function parallelism(value: string): number {
  const n = positiveInt(value);
  if (n > MAX_PARALLELISM) throw new InvalidArgumentError(`expected at most ${MAX_PARALLELISM}, got "${value}"`);
  return n;
}

export function addConfigFlags(command: Command): Command {
  return command
    .option('-c, --config <file>', 'configuration file (default: found by searching up from the current directory)')
    .option('--allow-code-config', 'run a configuration written as code (.js/.ts): only for a file you trust')
    .option('--no-color', 'plain output without colour (also NO_COLOR)');
}

/** The flags that give the manifests' variables their values (every command that loads manifests). */
export function addVariableFlags(command: Command): Command {
  return command
    .option(
      '--var <name=value>',
      "a variable's value, read as YAML (repeatable; wins over every other source)",
      collect,
      [],
    )
    .option('--var-file <file>', 'a YAML or JSON map of variable values (repeatable; a later file wins)', collect, []);
}

/**
 * `sends: false` for a command that plans but sends nothing (drift): --resend-secrets
 * stays out of its help, and the command refuses it with a message of its own.
 */
export function addPlanFlags(command: Command, { sends = true }: { sends?: boolean } = {}): Command {
  return addVariableFlags(addConfigFlags(command))
    .option('-t, --target <kind/name>', 'only this object, or every object of a kind (repeatable)', collect, [])
    .option('-l, --selector <key=value>', 'only objects whose metadata.labels match (repeatable)', collect, [])
    .option('--prune', 'delete live objects in no manifest, inside the configured ownership scopes', false)
    .addOption(
      new Option(
        '-p, --parallelism <n>',
        'fixed number of concurrent requests per API (default: adaptive, from 10 up to 64, or the config)',
      ).argParser(parallelism),
    )
    .addOption(
      new Option('--resend-secrets', 'send every write-only field again, whatever the fingerprint store says')
        .default(false)
        .hideHelp(!sends),
    )
    .option('--json', 'machine-readable JSON output', false);
}

/**
 * `key=value` pairs into a record; a malformed one is a usage error, and so is one key given two
 * values (an object has one value per label, so no object would match: the last one winning
 * would select what the user did not ask for). Every key is an own key, `__proto__` included.
 */
export function parseSelectors(values: readonly string[]): Record<string, string> {
  const pairs = new Map<string, string>();
  for (const v of values) {
    const eq = v.indexOf('=');
    if (eq < 1) throw new Error(`--selector expects key=value, got "${v}"`);
    const [key, value] = [v.slice(0, eq), v.slice(eq + 1)];
    const earlier = pairs.get(key);
    if (earlier !== undefined && earlier !== value) {
      throw new Error(`--selector ${key} is given two values ("${earlier}" and "${value}"): a label has one value`);
    }
    pairs.set(key, value);
  }
  return Object.fromEntries(pairs);
}
