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
const newSpace = (mode: string): number => Number(execFileSync(process.execPath, [script, mode], { encoding: 'utf8', timeout: 60_000 }));

describe('young generation', () => {
  it('grows to 8 MiB in all, then stops (V8 alone goes further)', () => {
    const sized = newSpace('sized');
    expect(sized).toBe(8 * 1024 * 1024);
    expect(newSpace('default')).toBeGreaterThan(8 * 1024 * 1024);
  });

  it('stays at its initial size for the bare relay', () => {
    expect(newSpace('small')).toBeLessThanOrEqual(2 * 1024 * 1024);
  });
});
