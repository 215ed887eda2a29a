import { describe, expect, it } from 'vitest';
import { parseTemplate, TemplateError } from '../../../src/template/index.ts';
import { failure, render } from './helpers.ts';

describe('TemplateError', () => {
  it('is an Error with a 1-based line and column', () => {
    let caught: unknown;
    try {
      parseTemplate('ok\n  {{ .Username');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(TemplateError);
    expect(caught).toBeInstanceOf(Error);
    const e = caught as TemplateError;
    expect([e.name, e.line, e.col, e.offset, e.message]).toEqual([
      'TemplateError',
      2,
      3,
      5,
      'unclosed action: no matching }}',
    ]);
  });
});

describe('parse errors point at the offending action', () => {
  it.each([
    ['{{ .Username', '1:1 unclosed action: no matching }}'],
    ['ab {{ .A }} {{ .B', '1:13 unclosed action: no matching }}'],
    ['{{ .A {{ .B }}', '1:1 unclosed action: {{ inside an action (missing }}?)'],
    [
      '{{ .A | nope 3 }}',
      '1:9 function "nope" not defined; known: base64, lowercase, printf, random, replace, sha256, timestamp, truncate, truncate_sha256, unix_time, unix_time_millis, uppercase, uuid',
    ],
    ['{{ truncate 3 }}', '1:4 wrong number of arguments for truncate: want 2 (int, string), got 1'],
    [
      '{{ .A | truncate 3 4 }}',
      '1:9 wrong number of arguments for truncate: want 2 (int, string), got 3 (2 written and 1 piped)',
    ],
    [
      '{{ .A | uppercase "x" }}',
      '1:9 wrong number of arguments for uppercase: want 1 (string), got 2 (1 written and 1 piped)',
    ],
    ['{{ unix_time 3 }}', '1:4 wrong number of arguments for unix_time: want 0 (), got 1'],
    ['{{ printf "%s" truncate }}', '1:16 wrong number of arguments for truncate: want 2 (int, string), got 0'],
    ['{{ .A | truncate "10" }}', '1:18 wrong type for argument 1 of truncate: expected int, got string "10"'],
    ['{{ random "5" }}', '1:11 wrong type for argument 1 of random: expected int, got string "5"'],
    ['{{ 5 | uppercase }}', '1:8 wrong type for the piped value of uppercase: expected string, got int 5'],
    ['{{ timestamp 2006 }}', '1:14 wrong type for argument 1 of timestamp: expected string, got int 2006'],
    ['{{ .A 3 }}', '1:7 cannot give arguments to .A: only functions take arguments'],
    ['{{ "x" | .A }}', '1:10 cannot pipe into .A: only functions take a piped value'],
    ['{{ }}', '1:1 missing value for command'],
    ['{{ .A | }}', '1:7 missing value for command'],
    ['{{ (.A | ) }}', '1:8 missing value for command'],
    ['{{ | .A }}', '1:4 missing value for command'],
    ['{{ (.A }}', '1:4 unclosed left parenthesis'],
    ['{{ .A) }}', '1:6 unexpected ) in action'],
    ['{{ "abc }}', '1:4 unterminated quoted string'],
    ['{{ `abc }}', '1:4 unterminated raw quoted string'],
    ['{{ "\\q" }}', '1:5 unknown escape sequence \\q'],
    ['{{ "\\x4" }}', '1:5 invalid escape \\x: want 2 hexadecimal digits'],
    ["{{ 'ab' }}", '1:4 more than one character in character literal'],
    ['{{ 1.5 }}', '1:4 floating-point and complex numbers are not supported (found 1.5)'],
    ['{{ 10px }}', '1:4 bad number syntax: "10px"'],
    ['{{ 99999999999999999999 }}', '1:4 integer 99999999999999999999 is out of range'],
    ['{{ . }}', '1:4 the bare dot (all the data) is not supported: name a field, such as .Username'],
    ['{{ .A.B }}', '1:4 nested field .A.B is not supported: template fields are plain values'],
    ['{{ $x := 1 }}', '1:4 variables are not supported (found $x)'],
    ['{{ nil }}', '1:4 nil is not supported'],
    ['{{ .A # }}', "1:7 unrecognized character in action: U+0023 '#'"],
    ['{{/* open', '1:1 unclosed comment'],
    ['{{/* c */ x }}', '1:8 comment ends before closing delimiter: write */}} with nothing in between'],
  ])('%j', (template, expected) => {
    expect(failure(template, { A: 'a' })).toBe(expected);
  });

  it('explains where a comment must start', () => {
    expect(failure('{{ /* c */ }}')).toBe(
      "1:4 unrecognized character in action: U+002F '/' (a comment must start right after {{, as in {{/* ... */}})",
    );
  });

  it('refuses control structures at the keyword', () => {
    const refusal =
      'is not supported: these templates take fields, literals and function pipelines, not if/else/range/with/define/template/block';
    expect(failure('{{ if .A }}x{{ end }}')).toBe(`1:4 {{if}} ${refusal}`);
    expect(failure('{{range .A}}{{end}}')).toBe(`1:3 {{range}} ${refusal}`);
    expect(failure('{{- with .A }}{{ end }}')).toBe(`1:5 {{with}} ${refusal}`);
    expect(failure('{{ define "x" }}{{ end }}')).toBe(`1:4 {{define}} ${refusal}`);
    expect(failure('{{ printf "%s" if }}')).toBe('1:16 unexpected keyword if in operand');
  });

  it('gives the line and column of an error on line 3', () => {
    const ldif = 'dn: cn={{.Username}},ou=users\nobjectClass: person\nsn: {{ .Password | utf16le | bas64 }}\n';
    expect(failure(ldif, {}, true)).toBe(
      '3:30 function "bas64" not defined; known: base64, lowercase, printf, random, replace, sha256, timestamp, truncate, truncate_sha256, unix_time, unix_time_millis, uppercase, utf16le, uuid',
    );
  });
});

describe('render errors', () => {
  it('names a missing field and the fields that exist', () => {
    expect(failure('a\nb {{ .Foo }}', { Username: 'u', DisplayName: 'd' })).toBe(
      '2:6 no field .Foo; known: .DisplayName, .Username',
    );
    expect(failure('{{ .Foo }}')).toBe('1:4 no field .Foo; known: (none)');
  });

  it('points at a missing field inside a pipeline', () => {
    expect(failure('{{ printf "%s" (.Bar | uppercase) }}', { A: 'x' })).toBe('1:17 no field .Bar; known: .A');
  });

  it('refuses a field of the wrong type for a function', () => {
    expect(failure('{{ .IssueTimeSeconds | truncate 3 }}', { IssueTimeSeconds: 1704207845 })).toBe(
      '1:24 wrong type for the piped value of truncate: expected string, got int 1704207845',
    );
    expect(failure('{{ random .N }}', { N: 'five' })).toBe(
      '1:11 wrong type for argument 1 of random: expected an integer, got string "five" (.N)',
    );
    expect(failure('{{ random .N }}', { N: 2.5 })).toBe(
      '1:11 wrong type for argument 1 of random: expected an integer, got int 2.5 (.N)',
    );
  });

  it('accepts an integer field where an integer is expected', () => {
    expect(render('{{ random .N }}', { N: 3 })).toBe('RRR');
  });

  it('reports function errors at the call', () => {
    expect(failure('x\n\n   {{ .A | truncate -1 }}', { A: 'a' })).toBe(
      '3:12 error calling truncate: max length must be > 0 but was -1',
    );
  });
});
