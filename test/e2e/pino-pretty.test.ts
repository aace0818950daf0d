/**
 * A jsonrpc.log is readable by pino's tools: each record's `level` and `time` are pino's, so pino-pretty
 * renders a real log (written by the built CLI) with its levels, and its message key can be the method.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, ROOT } from '../helpers/paths.js';
import { runTap, tapSandbox } from '../helpers/run-tap.js';

const box = tapSandbox('mcp-tap-pretty-');
const PRETTY = join(ROOT, 'node_modules', 'pino-pretty', 'bin.js');

const LINES = [
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}',
  '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
  '{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"nope"}}',
];

describe('pino-pretty reads a log', () => {
  it('renders every record with its level, the methods as messages', async () => {
    const log = join(box.dir, 'x.log');
    const run = box.track(runTap(['-q', '--log', log, '--', process.execPath, fixture('cat.mjs')]));
    run.child.stdin.end(LINES.join('\n') + '\n');
    expect((await run.exited()).code).toBe(0);
    const records = readFileSync(log, 'utf8').trimEnd().split('\n');
    const pretty = execFileSync(process.execPath, [PRETTY, '--singleLine', '--colorize=false', '--messageKey', 'method', '--ignore', 'msg,v,session'], {
      input: readFileSync(log),
      encoding: 'utf8',
    });
    const out = pretty.trimEnd().split('\n');
    expect(out).toHaveLength(records.length);
    // the echo server sends each line back: every method shows twice, at the level the record has
    expect(out.filter((l) => /\] INFO: initialize \{/.test(l))).toHaveLength(1);
    expect(out.filter((l) => /\] WARN: initialize \{/.test(l))).toHaveLength(1);
    expect(out.filter((l) => /\] WARN: tools\/list \{/.test(l))).toHaveLength(2);
    expect(out.filter((l) => /\] ERROR: \{.*"kind":"error"/.test(l))).toHaveLength(2);
    const onlyProblems = execFileSync(process.execPath, [PRETTY, '--singleLine', '--colorize=false', '--minimumLevel', 'warn'], { input: readFileSync(log), encoding: 'utf8' });
    // three WARN (the echoed initialize, both tools/list) and two ERROR records
    expect(onlyProblems.trimEnd().split('\n')).toHaveLength(5);
  });
});
