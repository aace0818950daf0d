/** diffJson: JSON Pointer paths with before/after, required as a set, limits. */
import { describe, expect, it } from 'vitest';
import { diffJson, jsonEqual } from '../../src/check/json-diff.js';

describe('diffJson', () => {
  it('finds nothing between equal values, whatever the key order', () => {
    expect(diffJson({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toEqual([]);
    expect(jsonEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
  });

  it('lists changed, added and removed keys with JSON Pointer paths', () => {
    expect(diffJson({ type: 'object', properties: { a: { type: 'string' }, 'x/y': 1 } }, { type: 'object', properties: { a: { type: 'number' }, b: {} } })).toEqual([
      { path: '/properties/a/type', before: 'string', after: 'number' },
      { path: '/properties/b', after: {} },
      { path: '/properties/x~1y', before: 1 },
    ]);
  });

  it('compares required as a set, other arrays element by element or whole', () => {
    expect(diffJson({ required: ['a', 'b'] }, { required: ['b', 'a'] })).toEqual([]);
    expect(diffJson({ required: ['a'] }, { required: ['a', 'b'] })).toEqual([{ path: '/required', before: ['a'], after: ['a', 'b'] }]);
    expect(diffJson({ enum: ['a', 'b'] }, { enum: ['b', 'a'] })).toEqual([{ path: '/enum/0', before: 'a', after: 'b' }, { path: '/enum/1', before: 'b', after: 'a' }]);
    expect(diffJson({ x: [1] }, { x: {} })).toEqual([{ path: '/x', before: [1], after: {} }]);
  });

  it('stops at the limit', () => {
    const a = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, i]));
    expect(diffJson(a, {}, 100)).toHaveLength(100);
  });
});
