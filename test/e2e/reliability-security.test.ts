/**
 * Issue 8, items 12–15, with real processes:
 * 12 log files and directories are created 0600/0700 even under `umask 000`; an existing looser log
 *    gets a warning; exports written with -o are 0600 too.
 * 13 the server command runs without a shell: shell syntax in arguments reaches the server literally.
 * 14 no server-controlled byte reaches a terminal unescaped: every reader runs in a real pseudo-terminal
 *    (util-linux `script`, output post-processing off) on the log of a hostile server.
 * 15 redaction holds on every output path that shows log content: export (all formats, stdout and -o),
 *    stats, tail (terminal view, --full, --json, -f --json) and ls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTap, tapLines, type TapRun } from '../helpers/run-tap.js';
import { CLI, fixture, ROOT, tempDir } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';
import { PLANTED_ENV, PLANTED_FLAGS, PLANTED_SECRETS, SECRETS_LOG, survivingSecrets } from '../fixtures/planted-secrets.js';

const posix = process.platform !== 'win32';
let tmp: { dir: string; cleanup: () => void };
const runs: TapRun[] = [];
beforeAll(() => {
  tmp = tempDir('mcp-tap-rel-sec-');
});
afterAll(() => {
  for (const r of runs) r.kill();
  tmp.cleanup();
});

/** Single-quoted for sh. */
const sq = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs `sh -c script`, feeding it `input`; resolves with its status and output. */
function sh(script: string, input = '', env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', script], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.stdin.on('error', () => {});
    child.stdin.end(input);
    child.once('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr: err }));
  });
}

const mode = (p: string): number => statSync(p).mode & 0o777;

describe.runIf(posix)('item 12: file modes under a permissive umask', () => {
  const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}\n';

  it('umask 000: new log directories are 0700, the log 0600 — with --log, the default location, and after rotation', async () => {
    const state = join(tmp.dir, 'umask-state');
    const log = join(tmp.dir, 'umask', 'a', 'b', 'x.jsonrpc.log');
    const tap = (args: string) => `umask 000; exec ${sq(process.execPath)} ${sq(CLI)} ${args} -- ${sq(process.execPath)} ${sq(fixture('cat.mjs'))}`;
    const lines = Array.from({ length: 200 }, (_, i) => `{"jsonrpc":"2.0","id":${i},"method":"ping"}\n`).join('');
    const a = await sh(tap(`--log ${sq(log)} --max-log-size 4000 --max-log-files 2`), lines);
    expect(a.code).toBe(0);
    expect(a.stdout.toString()).toBe(lines);
    for (const d of ['umask', 'umask/a', 'umask/a/b']) expect(mode(join(tmp.dir, d)), d).toBe(0o700);
    for (const f of [log, `${log}.1`, `${log}.2`]) expect(mode(f), f).toBe(0o600);
    // a file the shell would have created under the same umask is 0666: the modes above are mcp-tap's doing
    const probe = await sh(`umask 000; : > ${sq(join(tmp.dir, 'probe'))}`);
    expect(probe.code).toBe(0);
    expect(mode(join(tmp.dir, 'probe'))).toBe(0o666);

    const b = await sh(tap('--name weather'), ping, { XDG_STATE_HOME: state, MCP_TAP_LOG: '' });
    expect(b.code).toBe(0);
    expect(mode(join(state, 'mcp-tap'))).toBe(0o700);
    expect(mode(join(state, 'mcp-tap', 'weather.jsonrpc.log'))).toBe(0o600);
  });

  it('an existing log readable by others: one warning naming the mode, the relay unchanged', async () => {
    const log = join(tmp.dir, 'loose.jsonrpc.log');
    writeFileSync(log, '');
    chmodSync(log, 0o644);
    const r = runTap(['--log', log, '--', process.execPath, fixture('cat.mjs')]);
    runs.push(r);
    r.child.stdin.end(ping);
    expect((await r.exited()).code).toBe(0);
    expect(r.stdout().toString()).toBe(ping);
    const w = tapLines(r.stderr()).filter((l) => !l.startsWith('mcp-tap: logging to'));
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(/log file .*loose\.jsonrpc\.log is readable by others \(mode 644\); it may hold secrets — chmod 600 it/);
    // mcp-tap does not silently change a file the user chose to share; it tells them
    expect(mode(log)).toBe(0o644);
  });

  it('umask 000: export -o and stats -o write 0600 files', async () => {
    for (const [cmd, out] of [
      ['export --format jsonl', join(tmp.dir, 'export.jsonl')],
      ['export', join(tmp.dir, 'export.md')],
      ['stats --json', join(tmp.dir, 'stats.json')],
    ] as const) {
      const res = await sh(`umask 000; exec ${sq(process.execPath)} ${sq(CLI)} ${cmd} ${sq(SECRETS_LOG)} -o ${sq(out)}`);
      expect(res.code, res.stderr).toBe(0);
      expect(mode(out), out).toBe(0o600);
    }
  });
});

describe('item 13: no shell between mcp-tap and the server', () => {
  it('shell syntax in arguments and in the command path reaches the server literally, and runs nothing', async () => {
    const victim = join(tmp.dir, 'victim');
    writeFileSync(victim, 'still here');
    const touched = join(tmp.dir, 'touched');
    const argvFile = join(tmp.dir, 'argv.json');
    const args = [
      `$(touch ${touched})`,
      `\`touch ${touched}\``,
      `; rm -rf ${victim}`,
      `&& rm -rf ${victim}`,
      `| rm -rf ${victim}`,
      `> ${victim}`,
      '*',
      '~',
      '$HOME',
      '${PATH}',
      '"double" \'single\'',
      'new\nline',
      '',
      ' leading and trailing ',
      '\\',
      '-- --log /etc/passwd',
    ];
    // the server's own path has shell syntax in it too
    const odd = join(tmp.dir, 'dir $(touch x); `y` & *');
    mkdirSync(odd);
    const script = join(odd, 'rel-argv.mjs');
    copyFileSync(fixture('rel-argv.mjs'), script);
    const r = runTap(['--no-log', '--', process.execPath, script, ...args], { env: { REL_ARGV_FILE: argvFile } });
    runs.push(r);
    r.child.stdin.end();
    expect((await r.exited()).code).toBe(0);
    expect(JSON.parse(readFileSync(argvFile, 'utf8'))).toEqual(args);
    expect(readFileSync(victim, 'utf8')).toBe('still here');
    expect(existsSync(touched)).toBe(false);
    expect(existsSync(join(ROOT, 'x'))).toBe(false);
  });

  it('a command name with shell syntax is looked up as a file, not interpreted', async () => {
    const touched = join(tmp.dir, 'touched2');
    const r = runTap(['--no-log', '--', `touch ${touched}`]);
    runs.push(r);
    const { code } = await r.exited();
    expect(code).toBe(127);
    expect(existsSync(touched)).toBe(false);
    expect(tapLines(r.stderr())).toHaveLength(1);
  });
});

/** Control characters that must never reach the terminal from content (tail's own newlines aside). */
const CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const SGR = /\x1b\[[0-9;]*m/g;
const haveScript = posix && spawnSync('script', ['--version']).status === 0;

/** Runs the built CLI inside a pseudo-terminal; returns exactly what the terminal received. */
function inTerminal(args: string[], env: NodeJS.ProcessEnv, untilText?: string): Promise<{ code: number | null; out: string }> {
  const cmd = ['stty -onlcr;', 'exec', sq(process.execPath), sq(CLI), ...args.map(sq)].join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', cmd, '/dev/null'], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => {
      out.push(c);
      // follow mode: stop once the text has arrived
      if (untilText && Buffer.concat(out).toString('utf8').includes(untilText)) child.kill('SIGTERM');
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args.join(' ')} did not finish in the terminal; got: ${JSON.stringify(Buffer.concat(out).toString('utf8').slice(-500))}`));
    }, 20_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out: Buffer.concat(out).toString('utf8') });
    });
  });
}

describe.runIf(haveScript)('item 14: nothing the server controls reaches a terminal unescaped', () => {
  const EVIL_ARG = 'arg\x1b]0;pwned-by-args\x07\r\b\u009b2J';
  let log: string;
  let logDir: string;

  beforeAll(async () => {
    logDir = join(tmp.dir, 'hostile-logs');
    mkdirSync(logDir);
    log = join(logDir, 'escape.jsonrpc.log');
    const r = runTap(['--log', log, '--', process.execPath, fixture('escape-server.mjs'), EVIL_ARG]);
    runs.push(r);
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c\x1b[31m', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: '\x1b[2J\x07', method: 'tools/call', params: { name: 'tool\x1b]0;pwned\x07', arguments: {} } },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'fail', arguments: {} } },
      { jsonrpc: '2.0', id: 5, method: 'evil/\x1b[5A\r', params: {} },
    ];
    for (const l of lines) await r.write(`${JSON.stringify(l)}\n`);
    await waitFor(() => r.stdout().toString().split('\n').filter((l) => l.includes('"id"')).length >= 5, 10_000, 'the answers');
    r.child.stdin.end();
    expect((await r.exited()).code).toBe(0);
    // a second, hostile log file: its name, session id and server name carry escapes too
    const evilName = join(logDir, 'evil\x1b]0;name\x07\r.jsonrpc.log');
    writeFileSync(
      evilName,
      `${JSON.stringify({ v: 1, time: 1796000000000, session: 'ses\x1b[2J\u009b', seq: 1, from: 'proxy', kind: 'event', event: 'start', name: 'srv\x1b]2;t\x07', command: 'cmd\r\x1b[K', args: ['\x1b[8m'], pid: 1 })}\n`,
      { mode: 0o600 },
    );
  });

  const views: Array<[string, string[]]> = [
    ['tail', ['tail', '--session', 'all']],
    ['tail --full', ['tail', '--full']],
    ['tail --json', ['tail', '--json', '--no-redact']],
    ['export (Markdown)', ['export']],
    ['export --format jsonl', ['export', '--format', 'jsonl', '--no-redact']],
    ['export --format json', ['export', '--format', 'json']],
    ['stats', ['stats']],
    ['stats --json', ['stats', '--json']],
  ];

  it.each(views)('%s, colour off: no ESC, BEL, CR, backspace, C1 or bidi control at all', async (_name, args) => {
    const { code, out } = await inTerminal([...args, log], { NO_COLOR: '1', FORCE_COLOR: undefined });
    expect(code).toBe(0);
    expect(out.length).toBeGreaterThan(0);
    // mcp-tap's own progress line (a read slower than a second, as on a loaded machine) draws and erases
    // itself with CR and ESC[K; it holds only numbers, nothing the server controls
    const ours = out.replace(/\r\x1b\[K(?:mcp-tap: reading [0-9.]+ [KMG]?i?B of [0-9.]+ [KMG]?i?B(?: \(\d+%\))?, [\d,]+ records, [\d.]+ s)?/g, '');
    for (const line of ours.split('\n')) expect(line).not.toMatch(CONTROL);
  });

  it.each(views.filter(([n]) => n.startsWith('tail')))('%s, colour on: every ESC starts one of its own colour sequences', async (_name, args) => {
    const { code, out } = await inTerminal([...args, log], { FORCE_COLOR: '3', NO_COLOR: '' });
    expect(code).toBe(0);
    const rest = out.replace(SGR, '');
    for (const line of rest.split('\n')) expect(line).not.toMatch(CONTROL);
  });

  it('the hostile text is there, made visible (the views above are not just empty)', async () => {
    const { out } = await inTerminal(['tail', '--full', log], { NO_COLOR: '1', FORCE_COLOR: undefined });
    expect(out).toContain('pwned');
    expect(out).toMatch(/\\x1b|\\u001b/);
  });

  it('tail -f in a terminal', async () => {
    const { out } = await inTerminal(['tail', '-f', log], { FORCE_COLOR: '1', NO_COLOR: '' }, 'end of session');
    const rest = out.replace(SGR, '');
    expect(rest).toContain('end of session');
    for (const line of rest.split('\n')) expect(line).not.toMatch(CONTROL);
  });

  it('ls and ls --json, with a hostile file name, session id and server name', async () => {
    for (const [args, env] of [
      [['ls', '--dir', logDir], { NO_COLOR: '1', FORCE_COLOR: undefined }],
      [['ls', '--dir', logDir], { FORCE_COLOR: '3', NO_COLOR: '' }],
      [['ls', '--json', '--dir', logDir], { NO_COLOR: '1', FORCE_COLOR: undefined }],
    ] as const) {
      const { code, out } = await inTerminal([...args], env);
      expect(code).toBe(0);
      expect(out).toMatch(/escape\.jsonrpc\.log/);
      expect(out).toMatch(/evil/);
      for (const line of out.replace(SGR, '').split('\n')) expect(line).not.toMatch(CONTROL);
    }
  });
});

describe('item 15: redaction on every output path', () => {
  /** The planted secrets that the built-in rules and the environment catch (no user flags needed). */
  const USER_RULE = /^--redact-(key|pattern|env)/;
  const builtIn = PLANTED_SECRETS.filter((p) => !USER_RULE.test(p.rule)).map((p) => p.secret);
  const survivors = (text: string): string[] => builtIn.filter((s) => text.includes(s));

  async function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; out: string; err: string }> {
    const r = runTap(args, { env: { ...PLANTED_ENV, NO_COLOR: '1', FORCE_COLOR: undefined, ...env } });
    runs.push(r);
    r.child.stdin.end();
    const { code } = await r.exited(20_000);
    return { code, out: r.stdout().toString('utf8'), err: r.stderr() };
  }

  it.each([
    ['export (Markdown)', ['export']],
    ['export --format json', ['export', '--format', 'json']],
    ['export --format jsonl', ['export', '--format', 'jsonl']],
    ['export --format html', ['export', '--format', 'html']],
  ])('%s with the user rules: no planted secret survives, on stdout or in a file', async (_name, args) => {
    const toStdout = await run([...args, '--session', 'all', '--max-body', '1000000', SECRETS_LOG, ...PLANTED_FLAGS]);
    expect(toStdout.code, toStdout.err).toBe(0);
    expect(survivingSecrets(toStdout.out)).toEqual([]);
    const file = join(tmp.dir, `redacted-${args.join('-')}.out`);
    const toFile = await run([...args, '--session', 'all', '--max-body', '1000000', SECRETS_LOG, '-o', file, ...PLANTED_FLAGS]);
    expect(toFile.code, toFile.err).toBe(0);
    expect(survivingSecrets(readFileSync(file, 'utf8'))).toEqual([]);
  });

  it.each([
    ['stats', ['stats']],
    ['stats --json', ['stats', '--json']],
  ])('%s: no planted secret', async (_name, args) => {
    const r = await run([...args, '--session', 'all', SECRETS_LOG]);
    expect(r.code, r.err).toBe(0);
    expect(survivingSecrets(r.out)).toEqual([]);
  });

  it('tail --json (redacted by default): no secret the built-in and environment rules catch', async () => {
    const r = await run(['tail', '--json', '--session', 'all', SECRETS_LOG]);
    expect(r.code, r.err).toBe(0);
    expect(r.out.length).toBeGreaterThan(0);
    expect(survivors(r.out)).toEqual([]);
  });

  it('tail -f --json follows redacted too', async () => {
    const r = runTap(['tail', '-f', '--json', '-n', '1000', '--session', 'all', SECRETS_LOG], { env: { ...PLANTED_ENV } });
    runs.push(r);
    await waitFor(() => r.stdout().toString().includes('"event":"end"'), 15_000, 'the end record');
    r.child.kill('SIGINT');
    await r.exited(5000);
    expect(survivors(r.stdout().toString('utf8'))).toEqual([]);
  });

  it('tail --json takes the user rules of export (--redact-key, --redact-pattern, --redact-env): nothing planted survives', async () => {
    const r = await run(['tail', '--json', '--session', 'all', SECRETS_LOG, ...PLANTED_FLAGS]);
    expect(r.code, r.err).toBe(0);
    expect(survivingSecrets(r.out)).toEqual([]);
  });

  it.each([
    ['tail', ['tail']],
    ['tail --full', ['tail', '--full']],
  ])('%s (the terminal view): no secret the built-in and environment rules catch', async (_name, args) => {
    const r = await run([...args, '--session', 'all', SECRETS_LOG]);
    expect(r.code, r.err).toBe(0);
    expect(r.out.length).toBeGreaterThan(0);
    expect(survivors(r.out)).toEqual([]);
  });

  it('ls and ls --json: the server command line is shown without its secrets', async () => {
    const dir = join(tmp.dir, 'ls-secrets');
    mkdirSync(dir);
    copyFileSync(SECRETS_LOG, join(dir, 'secrets.jsonrpc.log'));
    for (const args of [['ls', '--dir', dir], ['ls', '--json', '--dir', dir]]) {
      const r = await run(args);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(/secrets\.jsonrpc\.log/);
      expect(survivors(r.out)).toEqual([]);
    }
  });
});
