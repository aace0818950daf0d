import { describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../src/log/session-summary.js';
import { exitLabel, renderSessionJson, renderSessionTable, sortSessions } from '../../src/view/ls-table.js';
import { formatDateTime, formatDuration, formatMs } from '../../src/view/format.js';

function summary(over: Partial<SessionSummary>): SessionSummary {
  return {
    id: 'id',
    path: '/logs/x.jsonrpc.log',
    firstSeq: 1,
    lastSeq: 10,
    firstLine: 1,
    lastLine: 10,
    records: 10,
    byKind: {},
    messages: 6,
    errors: 0,
    toolErrors: 0,
    findings: 0,
    ended: true,
    v: 1,
    ...over,
  };
}

const A = summary({ id: 'a', serverName: 'alpha', start: 1_000, end: 4_200, durationMs: 3_200, exitCode: 0, signal: null });
const B = summary({ id: 'b', serverName: 'beta', start: 5_000, end: 5_100, durationMs: 100, errors: 2, toolErrors: 1, findings: 4, exitCode: 1, signal: null });
const C = summary({ id: 'c\x1b[2J', serverName: 'evil\x07', start: 3_000, ended: false, path: '/logs/\x1b]0;x\x07.log' });
const D = summary({ id: 'd', serverName: 'delta', start: 2_000, exitCode: null, signal: 'SIGKILL' });

describe('ls table', () => {
  it('sorts newest first', () => {
    expect(sortSessions([A, B, C, D]).map((s) => s.id)).toEqual(['b', 'c\x1b[2J', 'd', 'a']);
  });

  it('exit column: code, signal, ? when ended without an exit event, - when it never ended', () => {
    expect(exitLabel(A)).toBe('0');
    expect(exitLabel(B)).toBe('1');
    expect(exitLabel(D)).toBe('SIGKILL');
    expect(exitLabel(C)).toBe('-');
    expect(exitLabel(summary({}))).toBe('?');
  });

  it('renders aligned columns with counts; colour only when asked; wire text escaped', () => {
    const plain = renderSessionTable(sortSessions([A, B, C, D]), { color: false });
    const lines = plain.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^SERVER +SESSION +STARTED +DURATION +MSGS +ERRORS +FINDINGS +EXIT +PATH$/);
    expect(lines[1]).toMatch(/^beta +b +\S+ \S+ +100ms +6 +3 +4 +1 +\/logs\/x\.jsonrpc\.log$/);
    expect(lines[1]).toContain(formatDateTime(5_000));
    expect(lines[4]).toMatch(/^alpha .* 3\.2s .* 0 +\/logs/);
    // PATH starts in the same column on every line
    const col = lines[0]!.indexOf('PATH');
    for (const l of lines.slice(1)) expect(l.slice(col, col + 6)).toBe('/logs/');
    expect(plain).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
    expect(plain).toContain('evil\\x07');
    const colored = renderSessionTable([B], { color: 1 });
    expect(colored).toMatch(/\x1b\[31m +3/); // errors in red
    expect(colored).toMatch(/\x1b\[33m +4/); // findings in yellow
    expect(colored.replace(/\x1b\[[0-9;]*m/g, '')).toBe(renderSessionTable([B], { color: false }));
  });

  it('--json: an array of the summaries, terminal-safe, same values', () => {
    const text = renderSessionJson([C, A]);
    expect(text).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
    expect(JSON.parse(text)).toEqual([C, A]);
    expect(renderSessionJson([])).toBe('[]\n');
  });
});

describe('formats', () => {
  it('durations and latencies stay short', () => {
    expect(formatDuration(850)).toBe('850ms');
    expect(formatDuration(4_200)).toBe('4.2s');
    expect(formatDuration(185_000)).toBe('3m05s');
    expect(formatDuration(2 * 3600_000 + 4 * 60_000)).toBe('2h04m');
    expect(formatDuration(3 * 86_400_000)).toBe('3d00h');
    expect(formatMs(0.4213)).toBe('0.42ms');
    expect(formatMs(12.34)).toBe('12.3ms');
    expect(formatMs(1234.5)).toBe('1235ms');
    expect(formatMs(12_345)).toBe('12.3s');
  });
});
