/**
 * How a `tail` line is styled (pure): the palette of each colour level, the segments a line is built
 * of, and what every part of a line is rendered with.
 */
import { makeChalk, type ColorLevel } from './color.js';

const STYLES = ['gray', 'red', 'yellow', 'green', 'cyan', 'magenta', 'blue', 'dim', 'bold', 'underline'] as const;
/** The styles the view uses, made once per colour level (a chalk getter builds a new function on every use). */
export type Palette = Record<(typeof STYLES)[number] | 'boldCyan' | 'boldYellow', (s: string) => string>;
const palettes = new Map<ColorLevel, Palette>();

/** The palette of a colour option (true: level 1, false: none). */
export function paletteFor(color: boolean | ColorLevel): Palette {
  const level: ColorLevel = color === true ? 1 : color === false ? 0 : color;
  let p = palettes.get(level);
  if (!p) {
    const chalk = makeChalk(level);
    const plain = (s: string): string => s;
    p = {
      ...(Object.fromEntries(STYLES.map((k) => [k, level === 0 ? plain : chalk[k]])) as Record<(typeof STYLES)[number], (s: string) => string>),
      boldCyan: level === 0 ? plain : chalk.bold.cyan,
      boldYellow: level === 0 ? plain : chalk.bold.yellow,
    };
    palettes.set(level, p);
  }
  return p;
}

/** What every part of a line is rendered with. */
export interface LineCtx {
  c: Palette;
  full: boolean;
  width: number;
  /** The width is the terminal's: cut raw text to fit it. Otherwise (a pipe, a file) keep more of it. */
  fit: boolean;
}

/** A piece of a line: plain text (already escaped) and how to colour it. */
export type Seg = [text: string, style?: (s: string) => string];

/** Green under 100 ms, yellow under a second, red beyond; gray when there is no latency. */
export function latencyStyle(ms: unknown, c: Palette): (s: string) => string {
  if (typeof ms !== 'number') return c.gray;
  if (ms >= 1000) return c.red;
  if (ms >= 100) return c.yellow;
  return c.green;
}
