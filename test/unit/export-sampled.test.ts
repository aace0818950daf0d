/**
 * A long session exported as Markdown and HTML is shown in part (issue 27): on a log of 3,000 request
 * and answer pairs, answers arriving after later requests, every request the sample shows comes with
 * its answer, in both formats. Runs the export subcommand in process on a log file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runSubcommand } from '../../src/cli/program.js';
import { tempDir } from '../helpers/paths.js';

const PAIRS = 3000;
const tmp = tempDir('mcp-tap-sampled-');
const log = join(tmp.dir, 'pairs.jsonrpc.log');
afterAll(() => tmp.cleanup());

beforeAll(() => {
  const lines: string[] = [];
  let seq = 0;
  // members in the log's order, msg last: readers then parse only the bodies they keep
  const rec = (r: Record<string, unknown>, t: number) => lines.push(JSON.stringify({ v: 1, time: 1_767_258_000_000 + t, session: 'pairs-1', seq: ++seq, ...r }));
  rec({ from: 'proxy', kind: 'event', event: 'start', name: 'pairs', command: 'node', args: ['s.js'] }, 0);
  // up to three calls in flight: each answer comes after one or two later requests
  const open: Array<{ id: number; seq: number; at: number }> = [];
  const answer = (o: { id: number; seq: number; at: number }, t: number) => {
    const msg = { jsonrpc: '2.0', id: o.id, result: { content: [{ type: 'text', text: `answer-${o.id}` }] } };
    rec({ from: 'server', kind: 'response', id: o.id, method: 'tools/call', target: 'echo', reqSeq: o.seq, ms: t - o.at, bytes: JSON.stringify(msg).length, msg }, t);
  };
  for (let id = 0; id < PAIRS; id++) {
    const msg = { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text: `q${id}` } } };
    rec({ from: 'client', kind: 'request', id, method: 'tools/call', target: 'echo', bytes: JSON.stringify(msg).length, msg }, id * 2);
    open.push({ id, seq, at: id * 2 });
    if (open.length > 2 + (id % 2)) answer(open.shift()!, id * 2 + 1);
  }
  for (const o of open.splice(0)) answer(o, PAIRS * 2);
  rec({ from: 'proxy', kind: 'event', event: 'end', pendingCount: 0, exitCode: 0 }, PAIRS * 2 + 1);
  writeFileSync(log, `${lines.join('\n')}\n`);
});

async function exported(format: 'md' | 'html'): Promise<string> {
  const out = join(tmp.dir, `out.${format}`);
  expect(await runSubcommand('export', () => import('../../src/cli/commands/export.js'), ['export', log, '--format', format, '-o', out])).toBe(0);
  return readFileSync(out, 'utf8');
}

describe('a sampled export', () => {
  for (const format of ['md', 'html'] as const) {
    it(`keeps the answer of every request it shows (${format})`, async () => {
      const text = await exported(format);
      const asked = new Set([...text.matchAll(/\bq(\d+)\b/g)].map((m) => Number(m[1])));
      const answered = new Set([...text.matchAll(/\banswer-(\d+)\b/g)].map((m) => Number(m[1])));
      // a sample: the two windows of 1,000 records and requests from the middle, not all 3,000
      expect(asked.size).toBeGreaterThan(1000);
      expect(asked.size).toBeLessThan(PAIRS);
      const middle = [...asked].filter((id) => id > 700 && id < 2300);
      expect(middle.length).toBeGreaterThan(100);
      expect([...asked].filter((id) => !answered.has(id))).toEqual([]);
      expect(text).toContain('This session has 6,002 records;');
    });
  }
});
