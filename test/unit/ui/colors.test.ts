import { describe, expect, it } from 'vitest';
import { colorsFor } from '../../../src/ui/colors.ts';

const tty = { isTTY: true } as NodeJS.WriteStream;
const pipe = { isTTY: false } as NodeJS.WriteStream;
const colored = (stream: NodeJS.WriteStream, flag: boolean, env: Record<string, string>) =>
  colorsFor(stream, flag, env).red('x') !== 'x';

describe('colorsFor', () => {
  it('colours a terminal unless NO_COLOR is set to something, --no-color is given, or TERM is dumb', () => {
    expect(colored(tty, true, {})).toBe(true);
    // no-color.org: only a value that is not empty turns colour off
    expect(colored(tty, true, { NO_COLOR: '' })).toBe(true);
    expect(colored(tty, true, { NO_COLOR: '1' })).toBe(false);
    expect(colored(tty, false, {})).toBe(false);
    expect(colored(tty, true, { TERM: 'dumb' })).toBe(false);
    expect(colored(pipe, true, {})).toBe(false);
  });
});
