/**
 * Small pure helpers shared by the apply view's components: colours that
 * vanish when colour is off, the spinner, and durations.
 */
import type { Action } from '../../reconcile/types.ts';

export interface Tone {
  color?: string;
  bold?: boolean;
  dimColor?: boolean;
}

/** Text props for a style, or none at all when colour is off (no escape codes reach the output). */
export function tone(colors: boolean, style: Tone): Tone {
  return colors ? style : {};
}

export const ACTION_COLOR: Record<Action, 'green' | 'yellow' | 'magenta' | 'red' | 'gray'> = {
  create: 'green',
  update: 'yellow',
  replace: 'magenta',
  delete: 'red',
  noop: 'gray',
};

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** The spinner frame at a time: every row turns together, one frame per ~100 ms tick. */
export function spinnerFrame(now: number): string {
  return FRAMES[Math.floor(now / 100) % FRAMES.length] ?? '-';
}

/** `120ms`, `4.2s`, `2m05s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

export function formatRate(perSecond: number): string {
  return perSecond >= 10 ? `${Math.round(perSecond)}/s` : `${perSecond.toFixed(1)}/s`;
}
