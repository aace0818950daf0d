/**
 * A server that floods its stderr faster than the analysis can follow: the relay is not slowed to the
 * analysis's pace — past a bound the lines wait for nobody and are dropped from the analysis, counted —
 * yet every byte reaches the host's stderr in order, mcp-tap's own warning never cuts one of the
 * server's lines in two, and the log keeps or states every line (kept + lost = written).
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runTap, tapSandbox } from '../helpers/run-tap.js';
import { fixture } from '../helpers/paths.js';
import { readRecords } from '../helpers/log.js';

const box = tapSandbox('mcp-tap-stderr-flood-');

describe('a stderr flood through the relay', () => {
  it('reaches the host whole and in order, the warning on a line of its own, the log keeping or counting every line', async () => {
    const log = join(box.dir, 'flood.jsonrpc.log');
    const r = box.track(runTap(['--log', log, '--', process.execPath, fixture('stderr-flood.mjs')]));
    await r.write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n');
    // the server floods until told to stop: once the analysis has fallen behind, which mcp-tap says
    await r.waitStderr(/the server writes to stderr faster than it can be analysed; the relay goes on/, 40_000);
    await r.write('{"jsonrpc":"2.0","method":"flood/stop"}\n');
    // the notification comes after the last stderr byte was written: wait for it, then end the session
    await expect.poll(() => r.stdout().includes('flood-done'), { timeout: 60_000, interval: 50 }).toBe(true);
    r.child.stdin.end();
    expect((await r.exited(60_000)).code).toBe(0);

    const done = r
      .stdout()
      .toString('utf8')
      .split('\n')
      .find((l) => l.includes('flood-done'))!;
    const LINES = (JSON.parse(done) as { params: { lines: number } }).params.lines;
    const lines = r.stderr().split('\n');
    expect(lines.pop()).toBe('');
    const server = lines.filter((l) => !l.startsWith('mcp-tap: '));
    const own = lines.filter((l) => l.startsWith('mcp-tap: '));
    expect(server).toHaveLength(LINES);
    server.forEach((l, i) => {
      if (l !== `working ${i}`) expect(l, `stderr line ${i}`).toBe(`working ${i}`);
    });
    expect(own).toContainEqual(expect.stringMatching(/the server writes to stderr faster than it can be analysed; the relay goes on/));

    const recs = readRecords(log);
    const kept = recs.filter((x) => x.kind === 'stderr');
    const gaps = recs.filter((x) => x.event === 'gap');
    expect(gaps.length).toBeGreaterThan(0);
    for (const g of gaps) expect(g).toMatchObject({ reason: 'analysis-behind', stream: 'stderr' });
    const lost = gaps.reduce((n, g) => n + (g['lost'] as number), 0);
    expect(kept.length + lost).toBe(LINES);
    // what was kept is the server's lines, in order
    const numbers = kept.map((x) => Number(/^working (\d+)$/.exec(String(x['raw']))?.[1]));
    expect(numbers.every((n, i) => Number.isInteger(n) && (i === 0 || n > numbers[i - 1]!))).toBe(true);
  });
});
