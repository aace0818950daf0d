/**
 * issue 28 §6: `tail -f` under a flood it cannot show as fast as it comes. The follower reads no further
 * while the output is full (memory stays bounded), and once it is more than maxLagBytes behind the end
 * of the log it skips ahead and says exactly how many lines it skipped: every record appended is either
 * shown or counted, never dropped silently. `--json` never skips. A real log file, an appending writer,
 * and an output that is slow on purpose (it takes nothing until the writer has flooded the log).
 */
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { followFile } from '../../src/log/follow.js';
import { runTail, type TailRunOptions } from '../../src/view/tail-run.js';
import { waitFor } from '../helpers/wait.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-tap-flood-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A log being written: a start event, then notifications/message records appended on demand. */
function floodLog(path: string) {
  let seq = 0;
  const rec = (r: Record<string, unknown>) => `${JSON.stringify({ v: 1, time: 1_767_258_000_000 + seq, session: 'flood-1', seq: ++seq, ...r })}\n`;
  writeFileSync(path, rec({ from: 'proxy', kind: 'event', event: 'start', name: 'flood', command: 'node', args: [], pid: 1 }));
  return {
    seq: () => seq,
    notifications(n: number): void {
      let text = '';
      for (let i = 0; i < n; i++) {
        const msg = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `tick ${seq + 1}` } };
        text += rec({ from: 'server', kind: 'notification', method: 'notifications/message', bytes: JSON.stringify(msg).length, msg });
      }
      appendFileSync(path, text);
    },
  };
}

/** tail -f in memory: its output, and a gate that holds every write until it is opened. */
function follow(path: string, extra: Partial<TailRunOptions>) {
  let out = '';
  let open = true;
  let release: () => void = () => {};
  let gate: Promise<void> | null = null;
  const ac = new AbortController();
  const done = runTail(
    { file: path, follow: true, session: 'last', lines: 20, full: false, json: false, filter: {}, color: 0, pollMs: 10, ...extra },
    {
      write: (text) => {
        out += text;
        if (open) return undefined;
        gate ??= new Promise<void>((r) => (release = r));
        return gate;
      },
      warn: () => {},
      signal: ac.signal,
    },
  );
  return {
    text: () => out,
    /** From now on each write waits until `openGate`. */
    hold: () => {
      open = false;
    },
    openGate: () => {
      open = true;
      gate = null;
      release();
    },
    held: () => gate !== null,
    stop: async () => {
      ac.abort();
      await done;
    },
  };
}

/** Seqs of the records shown as terminal lines, and the skip notices' counts. */
function shown(text: string): { seqs: number[]; skipped: number[] } {
  const seqs = [...text.matchAll(/^\S+\s+#(\d+) /gm)].map((m) => Number(m[1]));
  const skipped = [...text.matchAll(/^… skipped ([\d,]+) lines? of the log/gm)].map((m) => Number(m[1]!.replace(/,/g, '')));
  return { seqs, skipped };
}

describe('tail -f under a flood', () => {
  it('skips ahead once it is far behind, and counts every record it did not show', async () => {
    const path = join(dir, 'flood.jsonrpc.log');
    const log = floodLog(path);
    const tail = follow(path, { maxLagBytes: 256 * 1024 });
    await waitFor(() => tail.text().includes('session flood-1'), 5000, 'the history');
    log.notifications(10);
    await waitFor(() => shown(tail.text()).seqs.includes(11), 5000, 'the first live records');
    // the output stops taking; meanwhile the server floods the log with ~5 MB
    tail.hold();
    log.notifications(1);
    await waitFor(() => tail.held(), 5000, 'a write held');
    log.notifications(20_000);
    tail.openGate();
    log.notifications(1);
    const last = log.seq();
    await waitFor(() => shown(tail.text()).seqs.includes(last), 10_000, `record #${last}`);
    const { seqs, skipped } = shown(tail.text());
    expect(skipped.length).toBeGreaterThanOrEqual(1);
    // every record after the history is shown once or counted as skipped
    const live = seqs.filter((s) => s > 1);
    expect(new Set(live).size).toBe(live.length);
    expect(live.length + skipped.reduce((a, b) => a + b, 0)).toBe(last - 1);
    // what it skipped is one run in the middle, not scattered losses
    expect(live.length).toBeLessThan(last / 2);
    expect(tail.text()).toMatch(/… skipped [\d,]+ lines of the log \([\d.]+ MiB\) to keep up with it/);
    await tail.stop();
  });

  it('--json never skips: the reader waits for its output and shows every record', async () => {
    const path = join(dir, 'flood.jsonrpc.log');
    const log = floodLog(path);
    const tail = follow(path, { json: true, maxLagBytes: 64 * 1024 });
    await waitFor(() => tail.text().includes('"seq":1,'), 5000, 'the history');
    tail.hold();
    log.notifications(1);
    await waitFor(() => tail.held(), 5000, 'a write held');
    log.notifications(5000);
    tail.openGate();
    const last = log.seq();
    await waitFor(() => tail.text().includes(`"seq":${last},`), 10_000, `record #${last}`);
    const seqs = tail.text().trimEnd().split('\n').map((l) => (JSON.parse(l) as { seq: number }).seq);
    expect(seqs).toEqual(Array.from({ length: last }, (_, i) => i + 1));
    await tail.stop();
  });
});

describe('followFile', () => {
  it('reads no further while a line handler is waiting (bounded memory under a slow destination)', async () => {
    const path = join(dir, 'slow.log');
    writeFileSync(path, Array.from({ length: 50_000 }, (_, i) => `line ${i}`).join('\n') + '\n');
    const got: string[] = [];
    let release: () => void = () => {};
    const ac = new AbortController();
    const done = followFile(
      { path, signal: ac.signal, pollMs: 10 },
      {
        line: (t) => {
          got.push(t);
          if (got.length === 10) return new Promise<void>((r) => (release = r));
          return undefined;
        },
      },
    );
    await waitFor(() => got.length === 10, 5000, 'ten lines');
    // the rest of the 64 KiB chunk is handed over only after the wait: nothing runs ahead
    await new Promise((r) => setImmediate(r));
    expect(got.length).toBe(10);
    release();
    await waitFor(() => got.length === 50_000, 5000, 'every line');
    ac.abort();
    await done;
  });
});
