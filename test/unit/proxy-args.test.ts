import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { parseProxyArgs } from '../../src/cli/commands/run.js';
import { UsageError } from '../../src/errors.js';
import type { ProxyOptions } from '../../src/proxy/run-proxy.js';

const ENV = { XDG_STATE_HOME: '/state' };
const parse = (...argv: string[]): ProxyOptions => {
  const r = parseProxyArgs(argv, ENV);
  if (typeof r === 'string') throw new Error(`got ${r}`);
  return r;
};
const usage = (argv: string[], message: RegExp): void => {
  let caught: unknown;
  try {
    parseProxyArgs(argv, ENV);
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(UsageError);
  expect((caught as UsageError).code).toBe('USAGE');
  expect((caught as Error).message).toMatch(message);
  expect((caught as Error).message).not.toContain('\n');
};

describe('parseProxyArgs', () => {
  it('`--` form: everything after -- is the server command line, untouched', () => {
    const o = parse('--', 'node', 'server.js', '--log', 'x', '--', '-q');
    expect(o.command).toBe('node');
    expect(o.args).toEqual(['server.js', '--log', 'x', '--', '-q']);
    expect(o.name).toBe('server');
    expect(o.logPath).toBe('/state/mcp-tap/server.jsonrpc.log');
    expect(o).toMatchObject({ graceMs: 2000, maxLogBytes: 1024 * 1024, maxLogSize: 0, maxLogFiles: 3, quiet: false });
  });

  it('no-`--` form: the first argument not starting with - is the command', () => {
    const o = parse('--grace', '500', 'npx', '-y', '@modelcontextprotocol/server-everything');
    expect(o.command).toBe('npx');
    expect(o.args).toEqual(['-y', '@modelcontextprotocol/server-everything']);
    expect(o.name).toBe('server-everything');
    expect(o.graceMs).toBe(500);
  });

  it('--opt=value and --opt value', () => {
    const o = parse('--name=weather', '--log', 'rel/w.log', '--max-log-bytes=4096', '--max-log-size', '1000000', '--max-log-files=5', '--grace=0', '-q', '--', 'x');
    expect(o).toMatchObject({ name: 'weather', logPath: resolve('rel/w.log'), maxLogBytes: 4096, maxLogSize: 1000000, maxLogFiles: 5, graceMs: 0, quiet: true });
  });

  it('--name names the default log file; MCP_TAP_LOG overrides it; --log overrides both', () => {
    expect(parse('--name', 'wx', 'x').logPath).toBe('/state/mcp-tap/wx.jsonrpc.log');
    expect((parseProxyArgs(['x'], { MCP_TAP_LOG: '/tmp/m.log' }) as ProxyOptions).logPath).toBe('/tmp/m.log');
    expect((parseProxyArgs(['--log', '/tmp/l.log', 'x'], { MCP_TAP_LOG: '/tmp/m.log' }) as ProxyOptions).logPath).toBe('/tmp/l.log');
  });

  it('--no-log: no log path', () => {
    expect(parse('--no-log', '--', 'x').logPath).toBeNull();
  });

  it('help and version', () => {
    expect(parseProxyArgs(['-h'], ENV)).toBe('help');
    expect(parseProxyArgs(['--help', 'x'], ENV)).toBe('help');
    expect(parseProxyArgs(['-V'], ENV)).toBe('version');
    expect(parseProxyArgs(['--version'], ENV)).toBe('version');
    // after -- they belong to the server
    expect(parse('--', '--help').command).toBe('--help');
  });

  it('unknown option', () => usage(['--verbose', '--', 'x'], /unknown option --verbose.*--/));
  it('unknown option with =value', () => usage(['--color=always', 'x'], /unknown option --color=always/));
  it('missing command', () => {
    usage([], /missing the server command/);
    usage(['--'], /missing the server command/);
    usage(['--grace', '10'], /missing the server command/);
    usage(['-q', '--'], /missing the server command/);
  });
  it('empty command', () => {
    usage(['--', ''], /empty/);
    usage(['--', '   '], /empty/);
  });
  it('option without a value', () => {
    usage(['--log'], /--log needs a value/);
    usage(['--log='], /--log needs a value/);
    usage(['--name=', 'x'], /--name needs a value/);
  });
  it.each([
    ['--grace', '-1'],
    ['--grace', '1.5'],
    ['--grace', 'abc'],
    ['--grace', '1e3'],
    ['--grace', '0x10'],
    ['--grace', '3000000000'],
    ['--max-log-bytes', '100'],
    ['--max-log-files', '-3'],
    ['--max-log-size', ''],
  ])('bad number %s %j', (flag, value) => {
    usage([flag, value, '--', 'x'], value === '' ? /needs a value/ : new RegExp(`${flag} takes a whole number`));
  });
  it('a --name that could not be a file name', () => {
    usage(['--name', '../etc', 'x'], /--name must be/);
    usage(['--name', '.hidden', 'x'], /--name must be/);
    usage(['--name', 'a/b', 'x'], /--name must be/);
  });
});

describe("proxy mode in front of mcp-tap's own MCP server (issue 32)", () => {
  const TAP = '/opt/mcp-tap/bin/mcp-tap.js';
  it('does not log it into the directory it serves', () => {
    for (const server of [['mcp-tap', 'mcp'], [TAP, 'mcp'], ['node', TAP, 'mcp'], ['npx', '-y', 'mcp-tap', 'mcp', '--dir', '/state/mcp-tap'], ['mcp-tap', 'mcp', '--log=/state/mcp-tap/mcp.jsonrpc.log']]) {
      const o = parse('--name', 'mcp', '--', ...server);
      expect(o.logPath, server.join(' ')).toBeNull();
      expect(o.notLogged).toMatch(/^the server is mcp-tap's own MCP server, which reads this log directory: not logging its session there/);
    }
  });

  it('logs it where asked, and where it does not read', () => {
    expect(parse('--log', '/tmp/t.jsonrpc.log', '--', 'mcp-tap', 'mcp').logPath).toBe('/tmp/t.jsonrpc.log');
    expect(parseProxyArgs(['--', 'mcp-tap', 'mcp'], { ...ENV, MCP_TAP_LOG: '/tmp/env.jsonrpc.log' })).toMatchObject({ logPath: '/tmp/env.jsonrpc.log' });
    expect(parse('--', 'mcp-tap', 'mcp', '--dir', '/elsewhere').logPath).toBe('/state/mcp-tap/mcp-tap.jsonrpc.log');
    expect(parse('--', 'mcp-tap', 'mcp', '--log', '/state/mcp-tap/other.jsonrpc.log').logPath).toBe('/state/mcp-tap/mcp-tap.jsonrpc.log');
    // other subcommands and other servers are servers like any other
    expect(parse('--', 'mcp-tap', 'demo').logPath).toBe('/state/mcp-tap/mcp-tap.jsonrpc.log');
    expect(parse('--', 'node', 'mcp').notLogged).toBeUndefined();
  });
});
