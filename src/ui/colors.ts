import pc from 'picocolors';

export type Colors = ReturnType<typeof pc.createColors>;

/** Colour only on a terminal, and never with NO_COLOR (set to anything but empty: no-color.org) or --no-color. */
export function colorsFor(stream: NodeJS.WriteStream, flag: boolean, env = process.env): Colors {
  const enabled = flag && stream.isTTY === true && !env.NO_COLOR && env.TERM !== 'dumb';
  return pc.createColors(enabled);
}
