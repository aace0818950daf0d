/**
 * A recorded request whose `msg` is not a JSON object (a damaged or hand-edited log: `42`, `null`) used to
 * be sent anyway: replay set its id on it and stopped with `internal error: Cannot create property 'id' on
 * number '42'` (exit 70). It is now reported as not replayed, saying why, and the rest of the session is
 * replayed; `--only` on such a request alone says the same, exit 2.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTap, tapSandbox } from '../helpers/run-tap.js';
import { fixture, ROOT } from '../helpers/paths.js';

const box = tapSandbox('mcp-tap-replay-damaged-');

/** check-clean.jsonl with the tools/call echo request's msg (line 9) a number and the ping's (line 13) null. */
function damagedLog(): string {
  const lines = readFileSync(join(ROOT, 'test', 'fixtures', 'logs', 'check-clean.jsonl'), 'utf8').trimEnd().split('\n');
  const edit = (n: number, msg: unknown) => {
    const r = JSON.parse(lines[n - 1]!) as Record<string, unknown>;
    r['msg'] = msg;
    lines[n - 1] = JSON.stringify(r);
  };
  edit(9, 42);
  edit(13, null);
  const path = join(box.dir, 'damaged.jsonrpc.log');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

const NOTE = "not replayed: the log's record of this request holds no message to send (its msg is missing or not a JSON object: a damaged or edited log)";

describe('replay of a log whose request records hold no message object', () => {
  it('reports them as not replayed and replays the rest', async () => {
    const r = box.track(runTap(['replay', damagedLog(), '--no-log', '--no-color', '--timeout', '300', '--', process.execPath, fixture('cat.mjs')]));
    r.child.stdin.end();
    const { code } = await r.exited(30_000);
    const out = r.stdout().toString('utf8');
    expect(r.stderr()).not.toMatch(/internal error|TypeError|^\s+at /m);
    expect(code, r.stderr()).toBe(1); // cat.mjs answers nothing as recorded
    expect(out).toMatch(new RegExp(`#9 tools/call echo\\n\\s+${NOTE.replace(/[()]/g, '\\$&')}`));
    expect(out).toMatch(new RegExp(`#13 ping\\n\\s+${NOTE.replace(/[()]/g, '\\$&')}`));
    expect(out).toMatch(/#11 tools\/call slow-report/); // the rest was replayed
  });

  it('--only on such a request: exit 2, the reason', async () => {
    const r = box.track(runTap(['replay', damagedLog(), '--only', 'echo', '--no-log', '--', process.execPath, fixture('cat.mjs')]));
    r.child.stdin.end();
    const { code } = await r.exited(15_000);
    expect(code).toBe(2);
    expect(r.stderr()).toBe(`mcp-tap: --only "echo": the log's record of request #9 holds no message to send (its msg is missing or not a JSON object: a damaged or edited log)\n`);
  });
});
