/** Security lens, rug pulls: which parts of a tool changed and which changes weaken safety (spec defaults counted). */
import { describe, expect, it } from 'vitest';
import { compareTools, toolFingerprint } from '../../src/lens/security/rug-pull.js';

const tool = (annotations?: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  name: 't',
  description: 'd',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  ...(annotations ? { annotations } : {}),
  ...extra,
});

describe('compareTools', () => {
  it.each([
    ['readOnlyHint true → false', tool({ readOnlyHint: true }), tool({ readOnlyHint: false }), ['readOnlyHint true → false', 'destructive now (destructiveHint absent, which means destructive)']],
    ['readOnlyHint dropped', tool({ readOnlyHint: true, destructiveHint: false }), tool({ destructiveHint: false }), ['readOnlyHint true → absent']],
    ['destructiveHint false → true', tool({ destructiveHint: false }), tool({ destructiveHint: true }), ['destructive now (destructiveHint false → true)']],
    ['destructiveHint false → absent (default true)', tool({ destructiveHint: false }), tool({}), ['destructive now (destructiveHint false → absent, which means destructive)']],
    ['openWorldHint false → true', tool({ openWorldHint: false }), tool({ openWorldHint: true }), ['openWorldHint false → true']],
    ['a new required secret argument', tool(), tool(undefined, { inputSchema: { type: 'object', properties: { path: {}, apiKey: { type: 'string' } }, required: ['path', 'apiKey'] } }), ['new required argument "apiKey" asks for a secret']],
    ['a new required argument described as a secret', tool(), tool(undefined, { inputSchema: { type: 'object', properties: { path: {}, extra: { description: 'your SSH private key' } }, required: ['path', 'extra'] } }), ['new required argument "extra" asks for a secret']],
  ])('%s weakens safety', (_n, before, after, weakened) => {
    expect(compareTools(before, after).weakened).toEqual(weakened);
  });

  it.each([
    ['readOnlyHint false → true', tool({ readOnlyHint: false }), tool({ readOnlyHint: true })],
    ['destructiveHint true → false', tool({ destructiveHint: true }), tool({ destructiveHint: false })],
    ['a description change', tool(), tool(undefined, { description: 'other' })],
    ['a new optional secret argument', tool(), tool(undefined, { inputSchema: { type: 'object', properties: { path: {}, token: {} }, required: ['path'] } })],
  ])('%s does not', (_n, before, after) => {
    expect(compareTools(before, after).weakened).toEqual([]);
  });

  it('names the watched parts that changed, ignoring key order', () => {
    expect(compareTools(tool({ readOnlyHint: true }), tool({ readOnlyHint: true }, { description: 'x' })).changed).toEqual(['description']);
    const a = { name: 't', inputSchema: { type: 'object', properties: {} } };
    const b = { inputSchema: { properties: {}, type: 'object' }, name: 't' };
    expect(toolFingerprint(a)).toBe(toolFingerprint(b));
    expect(compareTools(a, b).changed).toEqual([]);
  });
});
