// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are manifest placeholders, not templates
import { describe, expect, it } from 'vitest';
import { type InterpolationContext, interpolateSpec } from '../../../src/manifest/interpolate.ts';
import { parseTemplate } from '../../../src/manifest/template.ts';

function context(overrides: Partial<InterpolationContext> = {}): InterpolationContext {
  const files: Record<string, string> = { '/repo/manifests/token.txt': 'tok-123\n', '/repo/ca.pem': 'PEM\n\n' };
  return {
    env: { PORT: '587', FLAG: 'TRUE', NAME: 'mailer', EMPTY: '' },
    dir: '/repo/manifests',
    cwd: '/repo',
    envAccess: { forbidden: new Set(['CONVERGE_PLATFORM_TOKEN']) },
    readFile: (path) => {
      const text = files[path];
      return text === undefined ? { error: 'no such file or directory' } : { text };
    },
    typesAt: (path) => ({ 'spec.port': ['integer'], 'spec.enabled': ['boolean'], 'spec.ratio': ['number'] })[path],
    ...overrides,
  };
}

describe('parseTemplate', () => {
  it('splits text and placeholders, and turns $${ into a literal ${', () => {
    expect(parseTemplate('a ${env:X} b $${env:Y} ${file:p/q.txt}')).toEqual({
      parts: [
        { text: 'a ' },
        { resolver: 'env', arg: 'X', source: '${env:X}' },
        { text: ' b ${env:Y} ' },
        { resolver: 'file', arg: 'p/q.txt', source: '${file:p/q.txt}' },
      ],
    });
    expect(parseTemplate('$${')).toEqual({ parts: [{ text: '${' }] });
    expect(parseTemplate('cost: $5')).toEqual({ parts: [{ text: 'cost: $5' }] });
  });

  it('rejects unterminated and resolver-less placeholders', () => {
    expect(parseTemplate('${env:X')).toHaveProperty('error', expect.stringContaining('unterminated'));
    expect(parseTemplate('${HOME}')).toHaveProperty('error', expect.stringContaining('"${HOME}" is not a placeholder'));
    expect(parseTemplate('${env:}')).toHaveProperty('error', expect.stringContaining('is not a placeholder'));
  });
});

describe('interpolateSpec', () => {
  it('leaves a spec without placeholders untouched', () => {
    const spec = { host: 'smtp', port: 25, list: ['a'] };
    const out = interpolateSpec(spec, context());
    expect(out.spec).toBe(spec);
    expect(out.secretFields).toEqual([]);
  });

  it('resolves env and file placeholders anywhere in a value, at any depth; only env makes a value secret', () => {
    const out = interpolateSpec(
      {
        username: 'user-${env:NAME}',
        token: '${file:token.txt}',
        nested: { list: ['x', '${file:../ca.pem}'] },
        empty: '${env:EMPTY}',
        plain: 'keep',
      },
      context(),
    );
    expect(out.problems).toEqual([]);
    expect(out.spec).toEqual({
      username: 'user-mailer',
      token: 'tok-123',
      nested: { list: ['x', 'PEM\n'] },
      empty: '',
      plain: 'keep',
    });
    // ${file:} text is reviewable (docs/security.md, "What is secret"); ${env:} stays secret
    expect(out.secretFields).toEqual(['empty', 'username']);
    expect([...out.secretPaths].sort()).toEqual(['spec.empty', 'spec.username']);
    expect([...out.interpolatedPaths].sort()).toEqual([
      'spec.empty',
      'spec.nested.list.1',
      'spec.token',
      'spec.username',
    ]);
  });

  it('coerces a whole placeholder to the type the schema wants there', () => {
    const out = interpolateSpec(
      { port: '${env:PORT}', enabled: '${env:FLAG}', ratio: '${env:PORT}', other: '${env:PORT}' },
      context(),
    );
    expect(out.spec).toEqual({ port: 587, enabled: true, ratio: 587, other: '587' });
  });

  it('does not coerce a placeholder inside a longer string, nor an escaped one', () => {
    const out = interpolateSpec({ port: 'x${env:PORT}', enabled: '$${env:FLAG}' }, context());
    expect(out.spec).toEqual({ port: 'x587', enabled: '${env:FLAG}' });
    expect(out.secretFields).toEqual(['port']);
  });

  it('reports each unresolvable placeholder at its value, naming the variable or file', () => {
    const out = interpolateSpec(
      { a: '${env:NOPE}', b: '${file:missing.txt}', c: '${vault:x}', port: '${env:NAME}' },
      context(),
    );
    expect(out.problems).toEqual([
      { path: 'spec.a', message: 'spec.a: environment variable "NOPE" is not set' },
      {
        path: 'spec.b',
        message: 'spec.b: cannot read ${file:missing.txt} (manifests/missing.txt: no such file or directory)',
      },
      {
        path: 'spec.c',
        message:
          'spec.c: unknown resolver "vault" in ${vault:x}; use ${env:NAME}, ${file:path} or ${var:name}, or write $${ for a literal ${',
      },
      { path: 'spec.port', message: 'spec.port must be an integer; ${env:NAME} does not hold one' },
    ]);
  });
});
