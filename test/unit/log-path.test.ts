import { describe, expect, it } from 'vitest';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { defaultLogDir, deriveServerName, resolveLogPath } from '../../src/log/log-path.js';

const name = (cmdline: string): string => {
  const [command, ...args] = cmdline.split(' ');
  return deriveServerName(command!, args);
};

describe('deriveServerName', () => {
  it.each([
    ['npx -y @modelcontextprotocol/server-everything', 'server-everything'],
    ['npx -y @modelcontextprotocol/server-everything@2026.8.31 stdio', 'server-everything'],
    ['npx -y mcp-remote@latest https://example.com/sse', 'mcp-remote'],
    ['node /x/node_modules/@scope/pkg/dist/index.js', 'pkg'],
    ['node /home/me/weather/build/index.js', 'weather'],
    ['node --enable-source-maps /srv/github/src/main.mjs', 'github'],
    ['node -r dotenv/config /srv/notes/server.js', 'notes'],
    ['node -e console.log(1)', 'node-eval'],
    ['uvx mcp-server-git', 'mcp-server-git'],
    ['uvx mcp-server-git==0.6.2 --repository .', 'mcp-server-git'],
    ['uvx --from git+https://example.com/x.git mcp-server-x', 'mcp-server-x'],
    ['uv --directory /srv/weather run weather.py', 'weather'],
    ['uv run --with mcp /srv/weather/server.py', 'weather'],
    ['python -m my_server', 'my_server'],
    ['python3.12 -m mcp_server_time --local-timezone=UTC', 'mcp_server_time'],
    ['docker run -i --rm mcp/github', 'github'],
    ['docker run -i --rm -e GITHUB_TOKEN ghcr.io/github/github-mcp-server:latest stdio', 'github-mcp-server'],
    ['podman run -i --rm -v /a:/b --name x registry.example.com:5000/team/tool@sha256:abc', 'tool'],
    ['env FOO=1 BAR=2 node /srv/notes/index.js', 'notes'],
    ['/usr/local/bin/my-mcp-server --stdio', 'my-mcp-server'],
    ['./server.py', 'server'],
    ['deno run -A jsr:@scope/kv-server', 'kv-server'],
    ['npx', 'npx'],
  ])('%s → %s', (cmdline, expected) => {
    expect(name(cmdline)).toBe(expected);
  });

  it('always yields a safe file name', () => {
    for (const [c, a] of [
      ['node', ['/tmp/my server!.js']],
      ['node', ['../../../etc/passwd']],
      ['..', []],
      ['node', ['.hidden/index.js']],
      ['npx', ['-y', '@x/\u0000\n']],
    ] as const) {
      const n = deriveServerName(c, [...a]);
      expect(n).toMatch(/^[A-Za-z0-9_][A-Za-z0-9._-]{0,79}$/);
    }
  });
});

describe('resolveLogPath', () => {
  it('--log wins over MCP_TAP_LOG and the default, relative to the cwd', () => {
    expect(resolveLogPath({ log: 'a.log', name: 'x' }, { MCP_TAP_LOG: '/b.log', XDG_STATE_HOME: '/s' })).toBe(resolve('a.log'));
  });
  it('MCP_TAP_LOG wins over the default', () => {
    expect(resolveLogPath({ name: 'x' }, { MCP_TAP_LOG: '/tmp/b.log', XDG_STATE_HOME: '/s' })).toBe('/tmp/b.log');
  });
  it('defaults to $XDG_STATE_HOME/mcp-tap/<name>.jsonrpc.log', () => {
    expect(resolveLogPath({ name: 'server-everything' }, { XDG_STATE_HOME: '/state' })).toBe('/state/mcp-tap/server-everything.jsonrpc.log');
  });
  it('falls back to ~/.local/state when XDG_STATE_HOME is unset, empty or relative', () => {
    const fallback = join(homedir(), '.local', 'state', 'mcp-tap');
    expect(defaultLogDir({})).toBe(fallback);
    expect(defaultLogDir({ XDG_STATE_HOME: '' })).toBe(fallback);
    expect(defaultLogDir({ XDG_STATE_HOME: 'relative/dir' })).toBe(fallback);
    expect(resolveLogPath({ name: 'n' }, { MCP_TAP_LOG: '' })).toBe(join(fallback, 'n.jsonrpc.log'));
  });
});
