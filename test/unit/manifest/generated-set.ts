/**
 * A large set of manifests, generated: `files` files of `perFile` ToolVersion documents each,
 * `objects-<f>.yaml`, document `d` of a file starting at line 1 + 8 * d. `edit` may replace a
 * document's text (to make it bad) or a whole value of `enabled`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const fileName = (f: number) => `objects-${String(f).padStart(3, '0')}.yaml`;

export async function writeToolVersions(
  root: string,
  files: number,
  perFile: number,
  edit: (f: number, d: number, text: string) => string = (_f, _d, text) => text,
): Promise<void> {
  await mkdir(root, { recursive: true });
  for (let f = 0; f < files; f++) {
    const docs = Array.from({ length: perFile }, (_, d) =>
      edit(
        f,
        d,
        [
          'kind: ToolVersion',
          'metadata:',
          `  name: ${f}.${d}.0`,
          'spec:',
          `  url: https://releases.example.com/tool/${f}.${d}.0/tool_${f}.${d}.0_linux_amd64.zip`,
          `  sha: ${'0123456789abcdef'.repeat(4)}`,
          `  enabled: ${d % 2 === 0}`,
        ].join('\n'),
      ),
    );
    await writeFile(join(root, fileName(f)), `${docs.join('\n---\n')}\n`);
  }
}
