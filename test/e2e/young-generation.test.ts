/**
 * With a log, the proxy lets V8's young generation grow to 4 MiB per semi-space, and no further
 * (left alone, V8 keeps doubling it under a busy proxy's allocation pattern: memory for no speed); with
 * --no-log it stays at its initial 1 MiB.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths.js';

const script = join(ROOT, 'test', 'fixtures', 'young-generation.mjs');
const run = (mode: string, flags: string[] = []): string => execFileSync(process.execPath, [...flags, script, mode], { encoding: 'utf8', timeout: 60_000 });
const newSpace = (mode: string): number => Number(run(mode).trim().split('\n').pop());

describe('young generation', () => {
  it('grows to 8 MiB in all, then stops (V8 alone goes further)', () => {
    const sized = newSpace('sized');
    expect(sized).toBe(8 * 1024 * 1024);
    expect(newSpace('default')).toBeGreaterThan(8 * 1024 * 1024);
  });

  it('stays at its initial size for the bare relay', () => {
    expect(newSpace('small')).toBeLessThanOrEqual(2 * 1024 * 1024);
  });

  it('is collected on the main thread alone, with a log and without', () => {
    for (const mode of ['sized', 'small']) {
      // V8's trace of each scavenge: the time its helper threads spent, and the time on the main thread
      const scavenges = run(mode, ['--trace-gc-nvp'])
        .split('\n')
        .filter((l) => /\bgc=s\b/.test(l));
      expect(scavenges.length).toBeGreaterThan(5);
      const helpers = scavenges.map((l) => Number(/background\.scavenge\.parallel=([\d.]+)/.exec(l)?.[1]));
      const main = scavenges.map((l) => Number(/ scavenge\.parallel=([\d.]+)/.exec(l)?.[1]));
      // the first scavenges may run before the proxy's flags are set
      expect(helpers.slice(2).every((t) => t === 0)).toBe(true);
      expect(main.slice(2).some((t) => t > 0)).toBe(true);
    }
  });
});
