/**
 * mcp-tap's warnings and the server's stderr share the host's stderr: a warning never lands inside a
 * line the server has not finished.
 */
import { describe, expect, it, vi } from 'vitest';
import { LineSafeWarn } from '../../src/proxy/line-safe-warn.js';

/** What reaches the host's stderr, in order: the server's bytes and mcp-tap's lines. */
function host(maxWaitMs = 60_000) {
  let out = '';
  const w = new LineSafeWarn((m) => (out += `mcp-tap: ${m}\n`), maxWaitMs);
  const server = (text: string) => {
    out += text;
    w.relayed(Buffer.from(text));
  };
  return { w, server, out: () => out };
}

describe('LineSafeWarn', () => {
  it('writes at once between lines', () => {
    const h = host();
    h.server('working 1\n');
    h.w.warn('behind');
    h.server('working 2\n');
    expect(h.out()).toBe('working 1\nmcp-tap: behind\nworking 2\n');
  });

  it('waits for a chunk that ends a line (the relayed chunks are never split)', () => {
    const h = host();
    h.server('work');
    h.w.warn('behind');
    h.server('ing 1\nworking 2\nwork');
    h.server('ing 3\n');
    expect(h.out().split('\n')).toEqual(['working 1', 'working 2', 'working 3', 'mcp-tap: behind', '']);
  });

  it('writes what waits when the stream ends mid-line', () => {
    const h = host();
    h.server('last words');
    h.w.warn('server gone');
    expect(h.out()).toBe('last words');
    h.w.ended();
    expect(h.out()).toBe('last wordsmcp-tap: server gone\n');
  });

  it('keeps waiting while the line is still coming, however long that takes', () => {
    vi.useFakeTimers();
    try {
      const h = host(50);
      h.server('working 1\nwork');
      h.w.warn('behind');
      // a slow flood: bytes of the same line arrive every 30 ms for 300 ms, none ending a line
      for (let t = 0; t < 10; t++) {
        vi.advanceTimersByTime(30);
        h.server('i');
      }
      expect(h.out()).toBe('working 1\nworkiiiiiiiiii');
      h.server('ng 2\n');
      expect(h.out()).toBe('working 1\nworkiiiiiiiiiing 2\nmcp-tap: behind\n');
      // once no byte came for the whole wait, the warning goes out (a prompt left unfinished)
      h.server('prompt> ');
      h.w.warn('still here');
      vi.advanceTimersByTime(49);
      expect(h.out()).not.toContain('still here');
      vi.advanceTimersByTime(1);
      expect(h.out()).toBe('working 1\nworkiiiiiiiiiing 2\nmcp-tap: behind\nprompt> mcp-tap: still here\n');
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not wait for ever on a server that stays in the middle of a line', async () => {
    const h = host(20);
    h.server('prompt> ');
    h.w.warn('still here');
    await expect.poll(h.out, { timeout: 5000 }).toBe('prompt> mcp-tap: still here\n');
  });
});
