/**
 * How a broken member is told: its JSON Pointer (RFC 6901 escapes, long keys cut), what is expected (a
 * type, a literal, one of a union's tags, a bound, a choice of members) and what was found (a short value,
 * or the kind of a large one).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describe as found, pointerOf, violationsOf } from '../../src/spec/violations.js';

describe('violations', () => {
  it('escapes ~ and / in pointers and cuts keys longer than 60 characters', () => {
    expect(pointerOf(['a/b', 'c~d', 0])).toBe('/a~1b/c~0d/0');
    expect(pointerOf(['k'.repeat(100)])).toBe(`/${'k'.repeat(59)}…`);
    const v = violationsOf(z.object({ 'io.x/y': z.string() }), { 'io.x/y': 1 }, '/params');
    expect(v).toEqual([{ pointer: '/params/io.x~1y', expected: 'string', found: '1 (a number)' }]);
  });

  it('tells what was found: missing, null, short values, long strings cut, objects and arrays by kind', () => {
    expect([found(undefined), found(null), found(true), found('yes'), found([1, 2]), found({ a: 1 })]).toEqual([
      'nothing (missing)',
      'null',
      'true (a boolean)',
      '"yes" (a string)',
      'an array (2 items)',
      'an object',
    ]);
    expect(found('x'.repeat(100))).toBe(`"${'x'.repeat(40)}…" (a string)`);
  });

  it('a discriminated union names its tags; the branch whose tag matched speaks for the rest', () => {
    const block = z.discriminatedUnion('type', [z.object({ type: z.literal('text'), text: z.string() }), z.object({ type: z.literal('image'), data: z.string() })]);
    expect(violationsOf(block, { type: 'video' }, '')).toEqual([{ pointer: '/type', expected: 'one of "text", "image"', found: '"video" (a string)' }]);
    const modes = z.union([z.object({ mode: z.literal('url'), url: z.string() }), z.object({ mode: z.literal('form').optional(), message: z.string() })]);
    expect(violationsOf(modes, { mode: 'url' }, '').map((v) => v.pointer)).toEqual(['/url']);
    expect(violationsOf(modes, {}, '').map((v) => v.pointer)).toEqual(['/message']);
  });

  it('branches that each miss one member read as a choice; plain types as "a or b"', () => {
    const contents = z.union([z.object({ uri: z.string(), text: z.string() }), z.object({ uri: z.string(), blob: z.string() })]);
    expect(violationsOf(contents, { uri: 'x' }, '/c')).toEqual([{ pointer: '/c', expected: 'a member "text" or "blob"', found: 'neither' }]);
    expect(violationsOf(z.union([z.number(), z.null()]), 'forever', '/ttl')).toEqual([{ pointer: '/ttl', expected: 'number or null', found: '"forever" (a string)' }]);
  });

  it('bounds and integers in words', () => {
    const s = z.object({ p: z.number().min(0).max(1), n: z.array(z.string()).max(2), i: z.number().int() });
    expect(violationsOf(s, { p: 2, n: ['a', 'b', 'c'], i: 1.5 }, '').map((v) => v.expected)).toEqual(['a number ≤ 1', 'at most 2 items', 'integer']);
  });
});
