/**
 * `--debug`: mcp-tap's decision trace as pino JSON in a file, never on stdout (which carries only the
 * server's bytes), with every step of a shutdown escalation recorded.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths.js';
import { runTap, tapLines, tapSandbox } from '../helpers/run-tap.js';
import { waitFor } from '../helpers/wait.js';

const box = tapSandbox('mcp-tap-debug-', ['server.pid']);

type Trace = { level: number; msg: string; name: string; [k: string]: unknown };
const readTrace = (file: string): Trace[] => readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Trace);

describe('debug trace', () => {
  it('with --debug, stdout carries exactly the server’s bytes; the trace goes to the debug log', async () => {
    const debugLog = join(box.dir, 'debug.log');
    const sent = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}\n\u00e9\r\nno newline at the end');
    const run = box.track(runTap(['--debug', '--debug-log', debugLog, '--log', join(box.dir, 'x.log'), '--', process.execPath, fixture('cat.mjs')]));
    await run.write(sent);
    run.child.stdin.end();
    expect(await run.exited()).toEqual({ code: 0, signal: null });
    expect(run.stdout().equals(sent)).toBe(true);
    const trace = readTrace(debugLog);
    expect(trace.every((r) => r.name === 'mcp-tap' && typeof r.level === 'number')).toBe(true);
    const msgs = trace.map((r) => r.msg);
    expect(msgs).toEqual(expect.arrayContaining(['proxy', 'spawn', 'spawned', 'done']));
    expect(trace.find((r) => r.msg === 'proxy')?.['resolved']).toBe(process.execPath);
    // the human line is unchanged, and it is in the trace too
    expect(tapLines(run.stderr())).toEqual([`mcp-tap: logging to ${join(box.dir, 'x.log')}`]);
    expect(trace.some((r) => r.level === 40 && r.msg === `logging to ${join(box.dir, 'x.log')}`)).toBe(true);
  });

  it("masks the server's secret environment values (its argv is in the trace) and is readable by its owner only", async () => {
    const debugLog = join(box.dir, 'secret-debug.log');
    const key = 'sk-live-7c1d9e4b2a6f';
    const run = box.track(runTap(['--debug-log', debugLog, '--no-log', '--', process.execPath, fixture('cat.mjs'), `--api-key=${key}`], { env: { API_TOKEN: key } }));
    run.child.stdin.end();
    expect((await run.exited()).code).toBe(0);
    const text = readFileSync(debugLog, 'utf8');
    expect(text).not.toContain('7c1d9e4b2a6f');
    const trace = readTrace(debugLog);
    expect(trace.find((r) => r.msg === 'spawn')?.['args']).toEqual([fixture('cat.mjs'), '--api-key=[REDACTED:env API_TOKEN]']);
    if (process.platform !== 'win32') expect(statSync(debugLog).mode & 0o777).toBe(0o600);
  });

  it('MCP_TAP_DEBUG=1 writes <log dir>/mcp-tap-debug.log', async () => {
    const run = box.track(runTap(['--no-log', '--', process.execPath, fixture('cat.mjs')], { env: { MCP_TAP_DEBUG: '1', XDG_STATE_HOME: box.dir } }));
    run.child.stdin.end('{"jsonrpc":"2.0","method":"x"}\n');
    expect((await run.exited()).code).toBe(0);
    expect(run.stdout().toString()).toBe('{"jsonrpc":"2.0","method":"x"}\n');
    const file = join(box.dir, 'mcp-tap', 'mcp-tap-debug.log');
    expect(existsSync(file)).toBe(true);
    expect(readTrace(file).map((r) => r.msg)).toContain('spawned');
  });

  it('records each escalation step of a server that ignores SIGTERM, with its timing', async () => {
    const debugLog = join(box.dir, 'debug.log');
    const run = box.track(
      runTap(['--grace', '300', '--debug-log', debugLog, '--no-log', '--', process.execPath, fixture('ignore-sigterm.mjs')], { env: { TAP_PID_FILE: box.pidFiles[0] } }),
    );
    await run.waitStderr('ready');
    run.child.stdin.end();
    expect(await run.exited()).toEqual({ code: 137, signal: null });
    const steps = readTrace(debugLog).filter((r) => r.msg.startsWith('shutdown: '));
    expect(steps.map((s) => [s.msg, s['signal'] ?? null])).toEqual([
      ['shutdown: stdin closed by the host; the server gets the grace period', null],
      ['shutdown: kill', 'SIGTERM'],
      ['shutdown: kill', 'SIGKILL'],
      ['shutdown: server exited', 'SIGKILL'],
    ]);
    const ms = steps.map((s) => s['ms'] as number);
    expect(ms[1]).toBeGreaterThanOrEqual(300);
    expect(ms[2]! - ms[1]!).toBeGreaterThanOrEqual(300);
  });

  it('refuses stdout as the debug log (exit 2, one line)', async () => {
    const run = box.track(runTap(['--debug-log', '/dev/stdout', '--no-log', '--', process.execPath, fixture('cat.mjs')]));
    expect((await run.exited()).code).toBe(2);
    expect(run.stdout().length).toBe(0);
    expect(tapLines(run.stderr())).toHaveLength(1);
    await waitFor(() => run.stderr().includes('cannot be stdout'), 1000, 'the reason');
  });

  /**
   * A debug log that cannot be used is a warning, never a stop: before, a directory or a parent that is a
   * file was an internal error (exit 70) before the server started, /dev/full a raw stack trace with the
   * relay dead, a FIFO nobody reads a hang.
   */
  describe('a debug log that cannot be used: one warning, the relay unchanged', () => {
    const line = '{"jsonrpc":"2.0","id":1,"method":"ping"}\n';
    const cases: [string, () => string, RegExp, NodeJS.ProcessEnv?][] = [
      ['a directory', () => box.dir, /^mcp-tap: cannot open the debug log .* \(EISDIR: it is a directory\); going on without the decision trace$/],
      ['under a regular file', () => (writeFileSync(join(box.dir, 'f'), 'x'), join(box.dir, 'f', 'debug.log')), /^mcp-tap: cannot open the debug log .*\(ENOTDIR: a parent is not a directory\); going on/],
      ['a FIFO nobody reads', () => (execFileSync('mkfifo', [join(box.dir, 'p')]), join(box.dir, 'p')), /^mcp-tap: cannot open the debug log .*\(ENXIO: no process reads this FIFO/],
      ['/dev/full (every write fails)', () => '/dev/full', /^mcp-tap: cannot write the debug log \/dev\/full \(ENOSPC: no space left on device\); the rest of the decision trace is dropped$/],
    ];
    it.skipIf(process.platform === 'win32').each(cases)('%s', async (_name, path, warning) => {
      const run = box.track(runTap(['--debug-log', path(), '--no-log', '--', process.execPath, fixture('cat.mjs')]));
      await run.write(line);
      run.child.stdin.end();
      expect(await run.exited()).toEqual({ code: 0, signal: null });
      expect(run.stdout().toString('utf8')).toBe(line);
      const lines = tapLines(run.stderr());
      expect(lines, run.stderr()).toHaveLength(1);
      expect(lines[0]).toMatch(warning);
      expect(run.stderr()).not.toMatch(/^\s+at |node:internal|internal error/m);
    });

    it('MCP_TAP_DEBUG=1 with a log directory under a regular file', async () => {
      writeFileSync(join(box.dir, 'state'), 'x');
      const run = box.track(runTap(['--no-log', '--', process.execPath, fixture('cat.mjs')], { env: { MCP_TAP_DEBUG: '1', XDG_STATE_HOME: join(box.dir, 'state') } }));
      await run.write(line);
      run.child.stdin.end();
      expect((await run.exited()).code).toBe(0);
      expect(run.stdout().toString('utf8')).toBe(line);
      expect(tapLines(run.stderr())).toEqual([expect.stringMatching(/^mcp-tap: cannot open the debug log .*mcp-tap-debug\.log \(ENOTDIR: a parent is not a directory\)/)]);
    });
  });
});
