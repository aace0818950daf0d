import { describe, expect, it } from 'vitest';
import { classifyEntry, tapName } from '../../src/hosts/entry-kind.js';

describe('classifyEntry', () => {
  it('stdio entries, with or without args and type', () => {
    expect(classifyEntry({ command: 'npx', args: ['-y', 'pkg'] })).toEqual({ kind: 'stdio', command: 'npx', args: ['-y', 'pkg'] });
    expect(classifyEntry({ type: 'stdio', command: '/bin/srv' })).toEqual({ kind: 'stdio', command: '/bin/srv', args: undefined });
  });

  it('remote entries: url, serverUrl, type http/sse', () => {
    expect(classifyEntry({ url: 'https://x' }).kind).toBe('remote');
    expect(classifyEntry({ serverUrl: 'https://x' }).kind).toBe('remote');
    expect(classifyEntry({ type: 'http', url: 'https://x' }).kind).toBe('remote');
    expect(classifyEntry({ type: 'SSE', command: 'x' }).kind).toBe('remote');
    expect(classifyEntry({ type: 'streamable-http' }).kind).toBe('remote');
  });

  it('malformed entries say why', () => {
    expect(classifyEntry('x')).toEqual({ kind: 'invalid', reason: 'not an object' });
    expect(classifyEntry({})).toEqual({ kind: 'invalid', reason: 'no command' });
    expect(classifyEntry({ command: 'x', args: 'a b' })).toEqual({ kind: 'invalid', reason: 'args is not a list of strings' });
    expect(classifyEntry({ type: 'pipe', command: 'x' })).toEqual({ kind: 'invalid', reason: 'type "pipe" is not stdio' });
  });

  it('recognises every form of an mcp-tap wrap and finds the server command', () => {
    const cases: [unknown, { command: string; args: string[] } | undefined, number][] = [
      [{ command: '/opt/mcp-tap/bin/mcp-tap.js', args: ['--name', 'a', '--', 'node', 's.js'] }, { command: 'node', args: ['s.js'] }, 3],
      [{ command: 'C:\\Program Files\\nodejs\\node.exe', args: ['C:\\npm\\mcp-tap\\bin\\mcp-tap.js', '--name', 'a', '--', 'srv'] }, { command: 'srv', args: [] }, 4],
      [{ command: 'npx', args: ['-y', 'mcp-tap', '--name', 'a', '--', 'uvx', 'x'] }, { command: 'uvx', args: ['x'] }, 5],
      [{ command: 'npx', args: ['mcp-tap@0.1.0', '--', 'srv'] }, { command: 'srv', args: [] }, 2],
      [{ command: 'mcp-tap', args: ['--log', '/t.log', '-q', 'node', 'x'] }, { command: 'node', args: ['x'] }, 3],
      [{ command: 'mcp-tap.cmd', args: ['--name=a', '--', 'srv', '--', 'y'] }, { command: 'srv', args: ['--', 'y'] }, 2],
      [{ command: 'mcp-tap', args: ['--name', 'a'] }, undefined, -1],
    ];
    for (const [entry, original, originalIndex] of cases) expect(classifyEntry(entry)).toEqual({ kind: 'wrapped', original, originalIndex });
  });

  it("mcp-tap's own MCP server in every launch form is itself, not a wrapped server named mcp", () => {
    for (const [command, args] of [
      ['mcp-tap', ['mcp']],
      ['/opt/mcp-tap/bin/mcp-tap.js', ['mcp', '--dir', '/logs']],
      ['node', ['/opt/mcp-tap/bin/mcp-tap.js', 'mcp']],
      ['npx', ['-y', 'mcp-tap@0.2.0', 'mcp']],
      ['mcp-tap.cmd', ['mcp', '--log', 'C:\\logs\\a.jsonrpc.log']],
    ] as const) {
      expect(classifyEntry({ command, args }), `${command} ${args.join(' ')}`).toEqual({ kind: 'self', command, args });
    }
    // a server named mcp after mcp-tap's options is a wrapped server
    expect(classifyEntry({ command: 'mcp-tap', args: ['-q', 'mcp'] })).toMatchObject({ kind: 'wrapped', original: { command: 'mcp', args: [] } });
    expect(classifyEntry({ command: 'mcp-tap', args: ['--', 'mcp'] })).toMatchObject({ kind: 'wrapped', original: { command: 'mcp', args: [] } });
  });

  it('other npx packages and other node scripts are not wrapped', () => {
    expect(classifyEntry({ command: 'npx', args: ['-y', 'mcp-tapper'] }).kind).toBe('stdio');
    expect(classifyEntry({ command: 'node', args: ['server.js', 'mcp-tap'] }).kind).toBe('stdio');
  });

  it('tapName keeps safe names and fixes the rest', () => {
    expect(tapName('github')).toBe('github');
    expect(tapName('My Server (2)')).toBe('My-Server-2-');
    expect(tapName('../etc')).toBe('etc');
    expect(tapName('***')).toBe('server');
  });
});
