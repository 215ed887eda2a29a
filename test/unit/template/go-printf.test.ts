import { describe, expect, it } from 'vitest';
import { checkTemplate, USERNAME_FIELDS } from '../../../src/template/index.ts';
import { failure, render } from './helpers.ts';

describe('printf verbs', () => {
  it.each([
    ['{{ printf "%s-%s" "a" "b" }}', 'a-b'],
    ['{{ printf "%d" 42 }}', '42'],
    ['{{ printf "%d" -42 }}', '-42'],
    ['{{ printf "%+d" 5 }}', '+5'],
    ['{{ printf "%v %v %v" "s" 7 true }}', 's 7 true'],
    ['{{ printf "%q" "a\\"b\\n" }}', '"a\\"b\\n"'],
    ['{{ printf "%q" "é\\x01" }}', '"é\\x01"'],
    ['{{ printf "%q" 65 }}', "'A'"],
    ['{{ printf "%x" "hi" }}', '6869'],
    ['{{ printf "%X" "jz" }}', '6A7A'],
    ['{{ printf "%x %X" 255 255 }}', 'ff FF'],
    ['{{ printf "%#x" 255 }}', '0xff'],
    ['{{ printf "100%%" }}', '100%'],
    ['{{ printf "[%5s][%-5s][%05d][%.2s][%3d]" "ab" "ab" 42 "abc" 7 }}', '[   ab][ab   ][00042][ab][  7]'],
    ['{{ printf "%#v" "x" }}', '"x"'],
    ['{{ printf "no verbs" }}', 'no verbs'],
  ])('%s', (template, expected) => {
    expect(render(template)).toBe(expected);
  });

  it('formats fields and piped values, the piped one last', () => {
    expect(render('{{ .RoleName | printf "%s@%s" .DisplayName }}', { RoleName: 'dev', DisplayName: 'tok' })).toBe(
      'tok@dev',
    );
    expect(render('{{ printf "%d/%s" .IssueTimeSeconds .U }}', { IssueTimeSeconds: 1704207845, U: 'x' })).toBe(
      '1704207845/x',
    );
  });

  it('prints Go fmt marks for mistakes instead of failing, as Go does', () => {
    expect(render('{{ printf "%d" "x" }}')).toBe('%!d(string=x)');
    expect(render('{{ printf "%s" 5 }}')).toBe('%!s(int=5)');
    expect(render('{{ printf "%s %s" "a" }}')).toBe('a %!s(MISSING)');
    expect(render('{{ printf "%s" "a" "b" 3 }}')).toBe('a%!(EXTRA string=b, int=3)');
    expect(render('{{ printf "50%" }}')).toBe('50%!(NOVERB)');
  });

  it('reports those mistakes to checkTemplate with the position of printf', () => {
    expect(checkTemplate('x\n  {{ printf "%d" .RoleName }}', USERNAME_FIELDS)).toEqual({
      problems: [{ line: 2, col: 6, message: 'printf: %d cannot format a string (dev)' }],
      sample: 'x\n  %!d(string=dev)',
    });
  });

  it('refuses verbs outside the subset with the position of printf', () => {
    expect(failure('{{ printf "%f" 1 }}')).toBe(
      '1:4 error calling printf: printf: verb %f is not supported (supported: %s %v %d %q %x %X %%)',
    );
    expect(failure('{{ printf "%[1]s" "a" }}')).toBe(
      '1:4 error calling printf: printf: argument indexes are not supported',
    );
  });

  it('needs at least a format', () => {
    expect(failure('{{ printf }}')).toBe(
      '1:4 wrong number of arguments for printf: want at least 1 (string, any...), got 0',
    );
  });

  it('passes bytes through %s untouched', () => {
    expect(render('{{ printf "<%s>" ("é" | utf16le) | base64 }}', {}, true)).toBe(
      Buffer.from([0x3c, 0xe9, 0x00, 0x3e]).toString('base64'),
    );
  });
});
