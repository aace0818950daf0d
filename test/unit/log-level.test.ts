/** Each record's pino level (30 info, 40 warn, 50 error) follows from its kind, notes and event alone. */
import { describe, expect, it } from 'vitest';
import { recordLevel } from '../../src/log/level.js';
import type { LogRecord } from '../../src/log/record.js';

const rec = (fields: Partial<LogRecord>): LogRecord => ({ v: 1, time: 1, session: 's', seq: 1, from: 'server', kind: 'response', ...fields }) as LogRecord;
const note = [{ code: 'unknown-id', text: 'x' }];

describe('recordLevel', () => {
  it.each([
    ['a clean response', rec({}), 30],
    ['a clean request', rec({ from: 'client', kind: 'request' }), 30],
    ['a stderr line', rec({ kind: 'stderr' }), 30],
    ['a response with notes', rec({ notes: note }), 40],
    ['a tools/call result with isError', rec({ isError: true }), 40],
    ['an error answer', rec({ kind: 'error' }), 50],
    ['an error answer with notes', rec({ kind: 'error', notes: note }), 50],
    ['an invalid line', rec({ kind: 'invalid', notes: note }), 50],
    ['a batch holding an error answer', rec({ kind: 'batch', items: [{ kind: 'response' }, { kind: 'error' }] }), 50],
    ['a clean batch', rec({ kind: 'batch', items: [{ kind: 'response' }] }), 30],
    ['the start event', rec({ from: 'proxy', kind: 'event', event: 'start' }), 30],
    ['a clean exit', rec({ from: 'proxy', kind: 'event', event: 'exit', code: 0, signal: null }), 30],
    ['an exit with status 1', rec({ from: 'proxy', kind: 'event', event: 'exit', code: 1, signal: null }), 50],
    ['a death by signal', rec({ from: 'proxy', kind: 'event', event: 'exit', code: null, signal: 'SIGKILL' }), 50],
    ['spawn-error', rec({ from: 'proxy', kind: 'event', event: 'spawn-error' }), 50],
    ['a gap', rec({ from: 'proxy', kind: 'event', event: 'gap' }), 40],
    ['a kill', rec({ from: 'proxy', kind: 'event', event: 'kill' }), 40],
    ['a sink beside the log lost records', rec({ from: 'proxy', kind: 'event', event: 'sink-gap' }), 40],
  ])('%s → %i', (_name, r, level) => {
    expect(recordLevel(r)).toBe(level);
  });
});
