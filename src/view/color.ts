/** Colour decisions for the terminal views, kept apart from rendering so tests can force them either way. */
import { Chalk, type ChalkInstance } from 'chalk';

export type ColorLevel = 0 | 1 | 2 | 3;

/**
 * How much colour to use: FORCE_COLOR wins (0/false → none, 1/true/empty → 16 colours, 2, 3), then
 * NO_COLOR (any non-empty value → none), then an explicit --no-color, then: colour only on a terminal.
 */
export function colorLevel(opts: {
  env: NodeJS.ProcessEnv;
  isTTY: boolean;
  /** The terminal's colour depth in bits (tty.WriteStream#getColorDepth), when known. */
  depth?: number;
  /** false when the user passed --no-color. */
  flag?: boolean;
}): ColorLevel {
  const force = opts.env.FORCE_COLOR;
  if (force !== undefined) {
    const f = force.trim().toLowerCase();
    if (f === '0' || f === 'false') return 0;
    if (f === '2') return 2;
    if (f === '3') return 3;
    return 1;
  }
  if (opts.env.NO_COLOR !== undefined && opts.env.NO_COLOR !== '') return 0;
  if (opts.flag === false) return 0;
  if (!opts.isTTY) return 0;
  const depth = opts.depth ?? 4;
  if (depth >= 24) return 3;
  if (depth >= 8) return 2;
  if (depth >= 4) return 1;
  return 0;
}

/** A chalk instance with a fixed level (never chalk's own environment detection). */
export function makeChalk(level: ColorLevel | boolean): ChalkInstance {
  const l: ColorLevel = level === true ? 1 : level === false ? 0 : level;
  return new Chalk({ level: l });
}
