/**
 * A server that writes and exits at once — before mcp-tap's relay is wired (it loads after the spawn,
 * early-start.ts) — still gets every byte to the host: its stdout line, its stderr line (the error message
 * a failing server leaves), and both in the log. Node resumes, on a child's exit, every output stream that
 * nothing listens to, and a resumed stream drops what it reads: before the hold in spawn-server.ts all of
 * it was lost.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTap, tapLines, tapSandbox } from '../helpers/run-tap.js';

const box = tapSandbox('mcp-tap-early-exit-');

const LINE = '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","data":"bye"}}';

describe.skipIf(process.platform === 'win32')('a server that exits at once', () => {
  it('its stdout and stderr reach the host and the log, exit status kept', async () => {
    for (let i = 0; i < 3; i++) {
      const log = join(box.dir, `early-${i}.jsonrpc.log`);
      // printf from sh: no interpreter start-up, the server is gone within a millisecond or two
      const r = box.track(runTap(['--log', log, '--', 'sh', '-c', `printf '%s\\n' '${LINE}'; printf 'missing API key\\n' >&2; exit 3`]));
      r.child.stdin.end();
      const { code } = await r.exited();
      expect(code).toBe(3);
      expect(r.stdout().toString('utf8')).toBe(`${LINE}\n`);
      expect(r.stderr()).toContain('missing API key\n');
      expect(tapLines(r.stderr()).filter((l) => !l.startsWith('mcp-tap: logging to'))).toEqual([]);
      const records = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; raw?: string; method?: string });
      expect(records.some((x) => x.kind === 'notification' && x.method === 'notifications/message')).toBe(true);
      expect(records.some((x) => x.kind === 'stderr' && x.raw === 'missing API key')).toBe(true);
    }
  });

  it('without a log too (--no-log)', async () => {
    const r = box.track(runTap(['--no-log', '--', 'sh', '-c', `printf '%s\\n' '${LINE}'`]));
    r.child.stdin.end();
    const { code } = await r.exited();
    expect(code).toBe(0);
    expect(r.stdout().toString('utf8')).toBe(`${LINE}\n`);
  });
});
