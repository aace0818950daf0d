import { describe, expect, it } from 'vitest';
import { findingsFromRecords } from '../../src/hosts/doctor-log.js';
import type { LogRecord } from '../../src/log/record.js';
import type { ProbeResult } from '../../src/hosts/doctor-probe.js';
import { printable, verdictFor, type CheckedServer } from '../../src/hosts/doctor-verdict.js';
import { expandVariables } from '../../src/hosts/expand-vars.js';
import { resolveCommand, type FsProbe } from '../../src/hosts/resolve-command.js';

function fakeFs(files: Record<string, 'exec' | 'plain' | 'dir'>): FsProbe {
  return {
    kind: async (p) => (files[p] === undefined ? 'missing' : files[p] === 'dir' ? 'dir' : 'file'),
    executable: async (p) => files[p] === 'exec',
  };
}

describe('resolveCommand', () => {
  const posix = { cwd: '/proj', path: '/a:/b:/c', platform: 'linux' as const };
  it('searches PATH in order and skips files it may not run', async () => {
    expect(await resolveCommand('srv', posix, fakeFs({ '/b/srv': 'exec', '/c/srv': 'exec' }))).toEqual({ status: 'found', path: '/b/srv' });
    expect(await resolveCommand('srv', posix, fakeFs({ '/a/srv': 'plain', '/c/srv': 'exec' }))).toEqual({ status: 'found', path: '/c/srv' });
    expect(await resolveCommand('srv', posix, fakeFs({ '/a/srv': 'plain' }))).toEqual({ status: 'not-executable', path: '/a/srv' });
    expect(await resolveCommand('srv', posix, fakeFs({ '/a/srv': 'dir' }))).toEqual({ status: 'directory', path: '/a/srv' });
    expect(await resolveCommand('srv', posix, fakeFs({}))).toEqual({ status: 'not-found' });
  });
  it('a path is relative to the entry cwd and not searched on PATH', async () => {
    expect(await resolveCommand('./bin/srv', posix, fakeFs({ '/proj/bin/srv': 'exec', '/a/bin/srv': 'exec' }))).toEqual({ status: 'found', path: '/proj/bin/srv' });
    expect(await resolveCommand('bin/srv', posix, fakeFs({ '/a/bin/srv': 'exec' }))).toEqual({ status: 'not-found' });
  });
  it('Windows: ; separated PATH and PATHEXT', async () => {
    const win = { cwd: 'C:\\p', path: 'C:\\tools;C:\\node', platform: 'win32' as const, pathext: '.EXE;.CMD' };
    expect(await resolveCommand('npx', win, fakeFs({ 'C:\\node\\npx.cmd': 'plain' }))).toEqual({ status: 'found', path: 'C:\\node\\npx.cmd' });
    expect(await resolveCommand('srv.exe', win, fakeFs({ 'C:\\tools\\srv.exe': 'plain' }))).toEqual({ status: 'found', path: 'C:\\tools\\srv.exe' });
  });
});

describe('expandVariables', () => {
  const ctx = { project: '/proj', home: '/home/u', env: { TOKEN: 't0k' }, pathSeparator: '/' };
  it('VS Code and Cursor style', () => {
    expect(expandVariables('${workspaceFolder}/s.js ${userHome} ${env:TOKEN} ${env:NOPE}|', { ...ctx, host: 'vscode' })).toEqual({
      value: '/proj/s.js /home/u t0k |',
      unresolved: [],
    });
    expect(expandVariables('${input:key}', { ...ctx, host: 'cursor' })).toEqual({ value: '${input:key}', unresolved: ['${input:key}'] });
  });
  it("opencode and Kilo CLI: {env:NAME}, empty when unset; Qwen Code: $NAME and ${NAME}, no default (as its resolveEnvVarsInString)", () => {
    for (const host of ['opencode', 'kilo'] as const) {
      expect(expandVariables('{env:TOKEN}/{env:NOPE}|${TOKEN}', { ...ctx, host })).toEqual({ value: 't0k/|${TOKEN}', unresolved: [] });
    }
    expect(expandVariables('$TOKEN ${TOKEN} ${MISSING:-d} $MISSING {env:TOKEN}', { ...ctx, host: 'qwen' })).toEqual({
      value: 't0k t0k ${MISSING:-d} $MISSING {env:TOKEN}',
      unresolved: ['${MISSING:-d}', '$MISSING'],
    });
  });
  it('Claude Code style, with defaults', () => {
    expect(expandVariables('${TOKEN} ${MISSING:-dflt} ${MISSING}', { ...ctx, host: 'claude-code' })).toEqual({
      value: 't0k dflt ${MISSING}',
      unresolved: ['${MISSING}'],
    });
  });
  it('Gemini CLI style: $NAME too', () => {
    expect(expandVariables('$TOKEN/${TOKEN} ${MISSING:-dflt} $MISSING', { ...ctx, host: 'gemini' })).toEqual({
      value: 't0k/t0k dflt $MISSING',
      unresolved: ['$MISSING'],
    });
  });
  it('other hosts substitute nothing', () => {
    expect(expandVariables('${TOKEN}', { ...ctx, host: 'claude-desktop' })).toEqual({ value: '${TOKEN}', unresolved: [] });
  });
});

describe('findingsFromRecords', () => {
  it('collects server stderr, non-JSON stdout and the exit; client lines do not count', () => {
    const base = { v: 1, time: 0, session: 's', seq: 0 };
    const records = [
      { from: 'proxy', kind: 'event', event: 'start' },
      { from: 'server', kind: 'stderr', raw: 'e1' },
      { from: 'client', kind: 'invalid', raw: 'client junk' },
      { from: 'server', kind: 'invalid', raw: 'banner' },
      { from: 'server', kind: 'stderr', raw: 'e2' },
      { from: 'proxy', kind: 'event', event: 'exit', code: 3, signal: null },
    ].map((r, i) => ({ ...base, seq: i + 1, ...r }) as LogRecord);
    expect(findingsFromRecords(records)).toEqual({
      stderr: ['e1', 'e2'],
      nonJsonStdout: ['banner'],
      nonJsonCount: 1,
      exit: { code: 3, signal: null },
    });
  });
});

function probe(p: Partial<ProbeResult>): ProbeResult {
  return { initialized: false, readErrors: [], stderrTail: [], log: { stderr: [], nonJsonStdout: [], nonJsonCount: 0 }, ...p };
}

describe('verdictFor', () => {
  const base: CheckedServer = { command: 'srv', unresolvedVars: [], timeoutMs: 15000, resolution: { status: 'found', path: '/bin/srv' } };
  it('healthy', () => {
    const v = verdictFor({
      ...base,
      probe: probe({ initialized: true, initMs: 123.4, protocolVersion: '2025-06-18', toolsSupported: true, tools: 1, serverInfo: { name: 's', version: '1' } }),
    });
    expect(v).toEqual({ status: 'ok', headline: 'ok: protocol 2025-06-18, 1 tool, initialize answered in 123 ms — server s 1', details: [] });
    expect(verdictFor({ ...base, probe: probe({ initialized: true, initMs: 5, protocolVersion: 'x', toolsSupported: false }) }).headline).toContain('no tools');
  });
  it('exited before initialize, with the last stderr lines (from the log, else from what the client saw)', () => {
    const fromLog = verdictFor({
      ...base,
      probe: probe({ failure: { kind: 'closed', message: 'Connection closed' }, log: { stderr: ['boom'], nonJsonStdout: [], nonJsonCount: 0, exit: { code: null, signal: 'SIGSEGV' } } }),
    });
    expect(fromLog).toEqual({ status: 'problem', headline: 'exited before initialize (killed by SIGSEGV)', details: ['last lines of its stderr:', '  | boom'] });
    const fromPipe = verdictFor({ ...base, probe: probe({ failure: { kind: 'closed', message: '' }, stderrTail: ['mcp-tap: logging to x', 'only this'] }) });
    expect(fromPipe.details).toEqual(['last lines of its stderr:', '  | only this']);
    const silent = verdictFor({ ...base, probe: probe({ failure: { kind: 'closed', message: '' } }) });
    expect(silent.details).toEqual(['it wrote nothing to stderr']);
  });
  it('non-JSON stdout is a problem even when the server works', () => {
    const v = verdictFor({
      ...base,
      probe: probe({ initialized: true, initMs: 1, protocolVersion: 'p', toolsSupported: true, tools: 2, log: { stderr: [], nonJsonStdout: ['hi\u001b[31m'], nonJsonCount: 2 } }),
    });
    expect(v.status).toBe('problem');
    expect(v.headline).toBe('non-JSON on stdout: it wrote 2 lines that are not JSON-RPC to stdout: "hi\\x1b[31m"; hosts expect only JSON-RPC messages there (logs belong on stderr)');
    const fromSdk = verdictFor({ ...base, probe: probe({ initialized: true, readErrors: ['Unexpected token'] }) });
    expect(fromSdk.headline).toContain('1 line that is not JSON-RPC to stdout (Unexpected token)');
  });
  it('not found, not executable, timeout, initialize error, tools/list error, skipped, invalid', () => {
    expect(verdictFor({ ...base, resolution: { status: 'not-found' } }).headline).toBe('not found: "srv" is not in any directory on PATH');
    expect(verdictFor({ ...base, command: './srv', resolution: { status: 'not-found' } }).headline).toBe('not found: no such file "./srv"');
    expect(verdictFor({ ...base, resolution: { status: 'not-executable', path: '/x/srv' } }).headline).toMatch(/^not executable: \/x\/srv exists but may not be run/);
    expect(verdictFor({ ...base, probe: probe({ failure: { kind: 'timeout', message: 'Request timed out' } }) }).headline).toBe('no answer to initialize within 15000 ms');
    expect(verdictFor({ ...base, probe: probe({ failure: { kind: 'error', message: 'Server\'s protocol version is not supported: 1999' } }) }).headline).toBe(
      'initialize failed: Server\'s protocol version is not supported: 1999',
    );
    expect(verdictFor({ ...base, probe: probe({ initialized: true, toolsSupported: true, toolsError: 'MCP error -32603: db down' }) }).headline).toBe(
      'tools/list failed: MCP error -32603: db down',
    );
    expect(verdictFor({ ...base, skipped: 'http server' }).status).toBe('skipped');
    expect(verdictFor({ ...base, invalid: 'no command' })).toEqual({ status: 'problem', headline: 'cannot start: no command', details: [] });
  });
  it('printable escapes control characters and bounds length', () => {
    expect(printable('a\u0007b\u009bc')).toBe('a\\x07b\\x9bc');
    expect(printable('x'.repeat(10), 4)).toBe('xxxx…');
  });
});
