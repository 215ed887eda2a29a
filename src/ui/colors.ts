import pc from 'picocolors';

export type Colors = ReturnType<typeof pc.createColors>;

/** Colour only on a terminal, and never with NO_COLOR or --no-color. */
export function colorsFor(stream: NodeJS.WriteStream, flag: boolean, env = process.env): Colors {
  const enabled = flag && stream.isTTY === true && !('NO_COLOR' in env) && env.TERM !== 'dumb';
  return pc.createColors(enabled);
}
