/**
 * A line joined from two chunks reaches the analysis as an object of the same hidden class (V8 map) as a
 * whole line inside one chunk: the analysis is compiled for the whole lines, and an object of another
 * shape, first seen when a line spans chunks, deoptimised it in the middle of the traffic. V8's own
 * comparison (%HaveSameMap, natives syntax enabled for this one function) says whether two objects share
 * their map.
 */
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { LineSplitter, type Line } from '../../src/framing/line-splitter.js';

setFlagsFromString('--allow-natives-syntax');
const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: unknown, b: unknown) => boolean;

describe('line objects', () => {
  it('have one shape whether the line came whole or joined from two chunks', () => {
    const lines: Line[] = [];
    const s = new LineSplitter(1 << 20, (l) => lines.push(l));
    s.push(Buffer.from('{"a":1}\n{"b":'));
    s.push(Buffer.from('2}\n'));
    expect(lines.map((l) => l.data?.toString())).toEqual(['{"a":1}', '{"b":2}']);
    expect(sameMap(lines[0], lines[1])).toBe(true);
  });

  it('is told apart by the comparison (an object grown member by member has another map)', () => {
    const grown: { bytes: number; data?: Buffer } = { bytes: 1 };
    grown.data = Buffer.alloc(1);
    expect(sameMap({ bytes: 1, data: Buffer.alloc(1) }, grown)).toBe(false);
  });
});
