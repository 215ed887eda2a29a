import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseTemplate } from '../../../src/template/index.ts';
import { failure, fixedOptions, render } from './helpers.ts';

const sha256Hex = (s: string | Buffer): string => createHash('sha256').update(s).digest('hex');

describe('random', () => {
  it('asks the random source for N characters', () => {
    expect(render('{{random 5}}')).toBe('RRRRR');
    expect(render('{{ random 0 }}')).toBe('');
  });

  it('defaults to N letters and digits from node:crypto', () => {
    const out = parseTemplate('{{random 200}}').render({});
    expect(out).toHaveLength(200);
    expect(out).toMatch(/^[A-Za-z0-9]{200}$/);
    expect(parseTemplate('{{random 200}}').render({})).not.toBe(out);
  });

  it('refuses a negative length', () => {
    expect(failure('{{random -1}}')).toBe('1:3 error calling random: length must be >= 0 but was -1');
  });
});

describe('truncate', () => {
  it('cuts to N bytes', () => {
    expect(render('{{.Username | truncate 4}}', { Username: 'abcdefgh' })).toBe('abcd');
  });

  it('returns a value no longer than N unchanged', () => {
    expect(render('{{.Username | truncate 10}}', { Username: 'abc' })).toBe('abc');
    expect(render('{{.Username | truncate 3}}', { Username: 'abc' })).toBe('abc');
  });

  it('refuses a length of 0 or less, as Vault does', () => {
    expect(failure('{{.U | truncate 0}}', { U: 'abc' })).toBe(
      '1:8 error calling truncate: max length must be > 0 but was 0',
    );
  });

  it('counts bytes like Go, so a cut inside a character leaves raw bytes', () => {
    expect(render('{{"héllo" | truncate 3}}')).toBe('hé');
    // "é" is 2 bytes; cutting after 2 bytes keeps only its first byte: base64 shows the exact bytes
    expect(render('{{"héllo" | truncate 2 | base64}}')).toBe(Buffer.from([0x68, 0xc3]).toString('base64'));
  });
});

describe('truncate_sha256', () => {
  it('keeps max-8 characters and appends the first 8 hex of the sha256 of the rest', () => {
    const value = 'abcdefghijklmnopqrstuvwxyz';
    const expected = value.slice(0, 12) + sha256Hex(value.slice(12)).slice(0, 8);
    expect(expected).toHaveLength(20);
    expect(render('{{.DisplayName | truncate_sha256 20}}', { DisplayName: value })).toBe(expected);
  });

  it('returns a value no longer than the max length unchanged', () => {
    expect(render('{{.D | truncate_sha256 20}}', { D: 'short' })).toBe('short');
    expect(render('{{.D | truncate_sha256 9}}', { D: '123456789' })).toBe('123456789');
  });

  it('works at the smallest allowed length, where only the hash is left', () => {
    expect(render('{{.D | truncate_sha256 9}}', { D: '1234567890' })).toBe('1' + sha256Hex('234567890').slice(0, 8));
  });

  it('refuses a max length of 8 or less', () => {
    expect(failure('{{.D | truncate_sha256 8}}', { D: 'x' })).toBe(
      '1:8 error calling truncate_sha256: max length must be > 8 but was 8',
    );
  });
});

describe('case, replace, hashes and encodings', () => {
  it('uppercase and lowercase', () => {
    expect(render('{{.R | uppercase}}', { R: 'Dev-Role_1' })).toBe('DEV-ROLE_1');
    expect(render('{{.R | lowercase}}', { R: 'Dev-Role_1' })).toBe('dev-role_1');
    expect(render('{{"éa" | uppercase}}')).toBe('ÉA');
  });

  it('uppercase maps one character to one, like Go (ß stays ß)', () => {
    expect(render('{{"straße" | uppercase}}')).toBe('STRAßE');
  });

  it('replace old new, with the value last', () => {
    expect(render('{{.D | replace "-" "_"}}', { D: 'a-b-c' })).toBe('a_b_c');
    expect(render('{{replace "o" "0" "foo boo"}}')).toBe('f00 b00');
    expect(render('{{.D | replace "x" "y"}}', { D: 'abc' })).toBe('abc');
    expect(render('{{"ab" | replace "" "."}}')).toBe('.a.b.');
  });

  it('sha256 is lowercase hex of the UTF-8 bytes', () => {
    expect(render('{{.P | sha256}}', { P: 'pässword' })).toBe(sha256Hex('pässword'));
    expect(render('{{"" | sha256}}')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('base64 is standard encoding with padding', () => {
    expect(render('{{.P | base64}}', { P: 'ab?>' })).toBe('YWI/Pg==');
    expect(render('{{"é" | base64}}')).toBe('w6k=');
  });
});

describe('clock functions', () => {
  it('unix_time and unix_time_millis read the given clock', () => {
    expect(render('{{unix_time}}')).toBe('1704207845');
    expect(render('{{unix_time_millis}}')).toBe('1704207845123');
  });

  it('unix_time returns a string, so it pipes into string functions', () => {
    expect(render('{{unix_time | truncate 4}}')).toBe('1704');
  });

  it('timestamp formats the clock with a Go layout', () => {
    expect(render('{{timestamp "2006-01-02"}}')).toBe('2024-01-02');
    expect(render('{{ timestamp "20060102150405" }}')).toBe('20240102150405');
  });

  it('defaults to the system clock', () => {
    const before = Math.floor(Date.now() / 1000);
    const out = Number(parseTemplate('{{unix_time}}').render({}));
    expect(out).toBeGreaterThanOrEqual(before);
    expect(out).toBeLessThanOrEqual(before + 5);
  });
});

describe('uuid', () => {
  it('asks the uuid source', () => {
    expect(render('{{uuid}}')).toBe('11111111-2222-4333-8444-555555555555');
  });

  it('defaults to a random version 4 UUID', () => {
    expect(parseTemplate('{{uuid}}').render({})).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});

describe('utf16le (LDIF only)', () => {
  it('encodes to UTF-16LE bytes that base64 sees exactly', () => {
    expect(render('{{.P | utf16le | base64}}', { P: 'P@ss' }, true)).toBe(
      Buffer.from('P@ss', 'utf16le').toString('base64'),
    );
    expect(render('{{.P | utf16le | base64}}', { P: 'é€' }, true)).toBe(
      Buffer.from([0xe9, 0x00, 0xac, 0x20]).toString('base64'),
    );
  });

  it('hashes the bytes, not their text', () => {
    expect(render('{{"é" | utf16le | sha256}}', {}, true)).toBe(sha256Hex(Buffer.from('é', 'utf16le')));
  });

  it('is an unknown function in username templates', () => {
    expect(failure('{{.P | utf16le}}', { P: 'x' })).toBe('1:8 function "utf16le" is only available in LDIF templates');
  });

  it('is refused at render when the caller turns LDIF off', () => {
    const t = parseTemplate('{{.P | utf16le | base64}}', { ldif: true });
    expect(t.render({ P: 'a' }, fixedOptions)).toBe('YQA=');
    expect(() => t.render({ P: 'a' }, { ...fixedOptions, ldif: false })).toThrow(
      'function "utf16le" is only available in LDIF templates',
    );
  });
});
