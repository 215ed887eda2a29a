/**
 * One-off timing of the ingest, not a test (timings vary by machine): the
 * first ingest in a process, which pays for loading hcl2json's WASM, then
 * warm ingests of each fixture and of a generated 300-variable module.
 * Run: node_modules/.bin/node test/emulator/registry-ingest/measure-ingest.ts
 */
import { ingestModule } from '../../../src/emulator/registry/ingest/index.ts';
import { fixtureTarball, moduleTarball } from './tarballs.ts';

const ms = (start: number) => `${(performance.now() - start).toFixed(1)} ms`;
const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const archives: Record<string, Buffer> = {};
for (const name of ['network', 'storage', 'dns']) archives[name] = await fixtureTarball(name);
const variables = Array.from(
  { length: 300 },
  (_, i) =>
    `variable "v${i}" {\n  description = "Variable ${i}."\n  type = object({ a = string, b = optional(number, ${i}) })\n  default = { a = "x" }\n}\n`,
).join('\n');
archives['300 variables'] = moduleTarball({
  'variables.tf': variables,
  'main.tf': 'resource "null_resource" "x" {}\n',
});

// The cold cost, in two parts: loading the package (it starts reading its WASM), then the first parse (instantiation).
let start = performance.now();
const { parse } = await import('@cdktf/hcl2json');
console.log(`import @cdktf/hcl2json: ${ms(start)}`);
start = performance.now();
await parse('x.tf', 'variable "x" {}\n');
console.log(`first parse (WASM ready): ${ms(start)}`);
start = performance.now();
await parse('x.tf', 'variable "x" {}\n');
console.log(`second parse: ${ms(start)}`);
start = performance.now();
await ingestModule(archives.network!);
console.log(`first ingest (network): ${ms(start)}`);

for (const [name, archive] of Object.entries(archives)) {
  const runs: number[] = [];
  for (let i = 0; i < 20; i++) {
    start = performance.now();
    await ingestModule(archive);
    runs.push(performance.now() - start);
  }
  console.log(`${name} (${archive.length} bytes gzipped): median ${median(runs).toFixed(1)} ms over 20 warm ingests`);
}
