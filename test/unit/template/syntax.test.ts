import { describe, expect, it } from 'vitest';
import { parseTemplate } from '../../../src/template/index.ts';
import { render } from './helpers.ts';

describe('fields and text', () => {
  it('copies text and prints fields, with or without spaces in the braces', () => {
    expect(render('cn={{.Username}},ou={{ .RoleName }}', { Username: 'u1', RoleName: 'dev' })).toBe('cn=u1,ou=dev');
  });

  it('prints integer fields in decimal', () => {
    expect(render('{{.IssueTimeSeconds}}', { IssueTimeSeconds: 1704207845 })).toBe('1704207845');
  });

  it('lists the fields referenced, once each, in order', () => {
    expect(parseTemplate('{{.B}}{{.A | lowercase}}{{.B}}{{ printf "%s" (.C) }}').fields).toEqual(['B', 'A', 'C']);
    expect(parseTemplate('no actions').fields).toEqual([]);
  });

  it('keeps the source', () => {
    expect(parseTemplate('x{{.A}}').source).toBe('x{{.A}}');
  });

  it('renders an empty template to nothing', () => {
    expect(render('')).toBe('');
  });
});

describe('pipelines', () => {
  it('passes the value as the LAST argument of the next function', () => {
    expect(render('{{.U | truncate 3}}', { U: 'abcdef' })).toBe('abc');
    expect(render('{{.U | replace "b" "X"}}', { U: 'abcb' })).toBe('aXcX');
    expect(render('{{"banana" | replace "a" .U}}', { U: 'o' })).toBe('bonono');
  });

  it('chains several stages left to right', () => {
    expect(render('{{.Username | lowercase | base64}}', { Username: 'ABC' })).toBe('YWJj');
    expect(render('{{.U | uppercase | truncate 2 | printf "<%s>"}}', { U: 'abc' })).toBe('<AB>');
  });

  it('calls functions with written arguments', () => {
    expect(render('{{random 20}}')).toBe('R'.repeat(20));
    expect(render('{{truncate 2 "hello"}}')).toBe('he');
  });

  it('evaluates parenthesised pipelines as arguments', () => {
    expect(render('{{printf "%s/%s" (.A | uppercase) (.B | truncate 1)}}', { A: 'x', B: 'yz' })).toBe('X/y');
    expect(render('{{ (.A | uppercase) | lowercase }}', { A: 'Q' })).toBe('q');
    expect(render('{{ truncate (2) ("abc") }}')).toBe('ab');
    expect(render('{{ ((.A)) }}', { A: 'deep' })).toBe('deep');
  });

  it('calls a function named as an argument with no arguments', () => {
    expect(render('{{ printf "%s-%s" uuid unix_time }}')).toBe('11111111-2222-4333-8444-555555555555-1704207845');
  });

  it('allows newlines inside an action', () => {
    expect(render('{{ .A\n  | uppercase\n}}', { A: 'x' })).toBe('X');
  });
});

describe('literals', () => {
  it('decodes Go escapes in double-quoted strings', () => {
    expect(render('{{ "a\\tb\\n\\"q\\"\\\\" }}')).toBe('a\tb\n"q"\\');
    expect(render('{{ "\\x41\\101\\u00e9\\U0001F600" }}')).toBe('AAé😀');
    expect(render('{{ "\\a\\b\\f\\r\\v" | base64 }}')).toBe(Buffer.from('\x07\b\f\r\v').toString('base64'));
  });

  it('keeps byte escapes that are not UTF-8 as bytes', () => {
    expect(render('{{ "\\xff\\xfe" | base64 }}')).toBe('//4=');
  });

  it('takes raw strings literally, across lines, without carriage returns', () => {
    expect(render('{{ `a\\n"b"` }}')).toBe('a\\n"b"');
    expect(render('{{ `x\r\ny` }}')).toBe('x\ny');
  });

  it('reads integers in Go notations', () => {
    expect(render('{{ 42 }} {{ -7 }} {{ +3 }} {{ 0x1F }} {{ 0o17 }} {{ 017 }} {{ 0b101 }} {{ 1_000 }}')).toBe(
      '42 -7 3 31 15 15 5 1000',
    );
  });

  it('treats character constants as integers, as Go does', () => {
    expect(render("{{ 'a' }} {{ '\\n' }} {{ printf \"%q\" 'é' }}")).toBe("97 10 'é'");
  });

  it('has booleans', () => {
    expect(render('{{ true }} {{ printf "%v" false }}')).toBe('true false');
  });

  it('prints a negative number, not a trim marker, for {{-3}}', () => {
    expect(render('a {{-3}} b')).toBe('a -3 b');
  });
});

describe('trim markers', () => {
  it('{{- trims whitespace before, -}} trims whitespace after', () => {
    expect(render('a \n\t {{- .X -}} \n b', { X: '|' })).toBe('a|b');
    expect(render('a  {{- .X }}  b', { X: '|' })).toBe('a|  b');
    expect(render('a  {{ .X -}}  b', { X: '|' })).toBe('a  |b');
  });

  it('trims across several lines of an LDIF template', () => {
    expect(render('dn: x\n{{- /* note */}}\nsn: y\n')).toBe('dn: x\nsn: y\n');
  });
});

describe('comments', () => {
  it('print nothing', () => {
    expect(render('a{{/* a comment */}}b')).toBe('ab');
    expect(render('a{{/* multi\nline */}}b')).toBe('ab');
  });

  it('take trim markers', () => {
    expect(render('a \n {{- /* c */ -}} \n b')).toBe('ab');
  });
});
