/**
 * A session with neither an exit nor an end record: its mcp-tap still runs, or was killed (SIGKILL leaves
 * no record; Copilot CLI ends its servers that way). Readers tell the two apart by mcp-tap's pid from the
 * start record, and say "mcp-tap was killed" instead of "still running" forever.
 */
import { describe, expect, it } from 'vitest';
import { processAlive, unendedState } from '../../src/platform/process-alive.js';
import { headerRows } from '../../src/transcript/header-rows.js';
import type { SessionHeader } from '../../src/transcript/session-header.js';

const STYLE = { code: (t: string) => `\`${t}\``, text: (t: string) => t, dash: '—' };
const header = (over: Partial<SessionHeader>): SessionHeader => ({ session: 's', start: 1, end: 2, durationMs: 1, ended: false, pid: 4242, ...over });
const exitRow = (h: SessionHeader, alive: (pid: number) => boolean) => headerRows(h, STYLE, alive).find(([k]) => k === 'Exit')![1];

describe('a session without an end record', () => {
  it('whose mcp-tap is gone: "mcp-tap was killed"; still there: "still running"; ended: no guess', () => {
    expect(exitRow(header({}), () => false)).toBe('none: mcp-tap was killed (no exit or end record, and its process is gone)');
    expect(exitRow(header({}), () => true)).toBe('no exit recorded (mcp-tap is still running)');
    expect(exitRow(header({ ended: true }), () => false)).toBe('no exit recorded');
    expect(exitRow(header({ exit: { code: 0, signal: null } }), () => false)).toBe('code 0');
  });

  it('the pid probe: this process is alive, a pid that cannot exist is not; no pid means no verdict of death', () => {
    expect(processAlive(process.pid)).toBe(true);
    expect(processAlive(2 ** 31 - 2)).toBe(false);
    expect(processAlive(0)).toBe(false);
    expect(unendedState(undefined, () => false)).toBe('running');
    expect(unendedState(9, () => false)).toBe('killed');
  });
});
