/**
 * Exports read logs they did not write: records of newer formats, with fields of unexpected types, or
 * hand-edited. Markdown, stats and redaction must render what they can and never throw (property tests).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { LogRecord } from '../../src/log/record.js';
import { renderMarkdown } from '../../src/transcript/markdown.js';
import { redactRecords } from '../../src/transcript/redact.js';
import { computeStats, renderTextStats } from '../../src/transcript/stats.js';

const anyValue = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.jsonValue({ maxDepth: 3 }), fc.constant(undefined));

const record = fc.record(
  {
    v: fc.constantFrom(1, 2),
    time: fc.oneof(fc.integer({ min: 0, max: 2e12 }), fc.double()),
    session: fc.constantFrom('s1', 's2'),
    seq: fc.integer({ min: 1, max: 50 }),
    from: fc.constantFrom('client', 'server', 'proxy', 'other'),
    kind: fc.constantFrom('request', 'response', 'error', 'notification', 'batch', 'invalid', 'stderr', 'event', 'future-kind'),
    id: anyValue,
    method: anyValue,
    target: anyValue,
    reqSeq: fc.oneof(fc.integer({ min: 1, max: 50 }), anyValue),
    ms: fc.oneof(fc.double({ min: 0, max: 1e6, noNaN: true }), anyValue),
    bytes: anyValue,
    msg: anyValue,
    raw: anyValue,
    notes: fc.oneof(fc.array(fc.record({ code: anyValue, text: anyValue })), anyValue),
    items: fc.oneof(fc.array(fc.record({ kind: anyValue, id: anyValue, method: anyValue, reqSeq: anyValue, ms: anyValue, notes: anyValue })), anyValue),
    event: fc.oneof(fc.constantFrom('start', 'spawn', 'lifecycle', 'exit', 'end', 'gap', 'kill', 'signal', 'host-gone', 'log-error', 'spawn-error'), anyValue),
    args: anyValue,
    command: anyValue,
    versions: anyValue,
    clientInfo: anyValue,
    serverInfo: anyValue,
    pending: fc.oneof(fc.array(fc.record({ from: anyValue, id: anyValue, method: anyValue, seq: anyValue })), anyValue),
    isError: anyValue,
    truncated: anyValue,
    code: anyValue,
    signal: anyValue,
    name: anyValue,
  },
  { requiredKeys: ['v', 'time', 'session', 'seq', 'from', 'kind'] },
) as unknown as fc.Arbitrary<LogRecord>;

describe('odd records', () => {
  it('render as Markdown and stats without throwing, fences balanced', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 25 }), (recs) => {
        const red = redactRecords(recs);
        const md = renderMarkdown(red, { redacted: true, exporterVersion: 'x', maxBody: 300 });
        expect(md.endsWith('\n')).toBe(true);
        expect((md.match(/<details>/g) ?? []).length).toBe((md.match(/<\/details>/g) ?? []).length);
        renderTextStats(computeStats(red));
      }),
      { numRuns: 300 },
    );
  });
});
