import { describe, expect, it } from 'vitest';
import { configFileLocations, hostLocations } from '../../src/hosts/locations.js';
import { parseHosts } from '../../src/hosts/discover.js';
import type { HostEnv, HostId } from '../../src/hosts/types.js';

const linux: HostEnv = { platform: 'linux', home: '/home/ada', cwd: '/work/app', env: {} };
const mac: HostEnv = { platform: 'darwin', home: '/Users/ada', cwd: '/Users/ada/app', env: {} };
const win: HostEnv = { platform: 'win32', home: 'C:\\Users\\ada', cwd: 'C:\\src\\app', env: { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' } };

function files(host: HostId, h: HostEnv): string[] {
  return hostLocations(host, h).map((l) => `${l.scope} ${l.file} ${l.serversPath.join('.')}`);
}

describe('host config locations', () => {
  it('Claude Desktop per OS', () => {
    expect(files('claude-desktop', mac)).toEqual(['user /Users/ada/Library/Application Support/Claude/claude_desktop_config.json mcpServers']);
    expect(files('claude-desktop', win)).toEqual(['user C:\\Users\\ada\\AppData\\Roaming\\Claude\\claude_desktop_config.json mcpServers']);
    expect(files('claude-desktop', linux)).toEqual(['user /home/ada/.config/Claude/claude_desktop_config.json mcpServers']);
    expect(files('claude-desktop', { ...linux, env: { XDG_CONFIG_HOME: '/xdg' } })).toEqual(['user /xdg/Claude/claude_desktop_config.json mcpServers']);
    expect(files('claude-desktop', { ...win, env: {} })).toEqual(['user C:\\Users\\ada\\AppData\\Roaming\\Claude\\claude_desktop_config.json mcpServers']);
  });

  it('Claude Code: user, local (this project in ~/.claude.json), every .mcp.json up to /, managed-mcp.json; CLAUDE_CONFIG_DIR moves the user file', () => {
    expect(files('claude-code', linux)).toEqual([
      'user /home/ada/.claude.json mcpServers',
      'local /home/ada/.claude.json projects./work/app.mcpServers',
      'project /work/app/.mcp.json mcpServers',
      'project /work/.mcp.json mcpServers',
      'project /.mcp.json mcpServers',
      'managed /etc/claude-code/managed-mcp.json mcpServers',
    ]);
    expect(files('claude-code', mac).at(-1)).toBe('managed /Library/Application Support/ClaudeCode/managed-mcp.json mcpServers');
    expect(files('claude-code', win).at(-1)).toBe('managed C:\\Program Files\\ClaudeCode\\managed-mcp.json mcpServers');
    expect(files('claude-code', { ...linux, env: { CLAUDE_CONFIG_DIR: '/cfg' } })[0]).toBe('user /cfg/.claude.json mcpServers');
    expect(hostLocations('claude-code', win)[1]!.serversPath).toEqual(['projects', 'C:\\src\\app', 'mcpServers']);
  });

  it('Claude Code from a subdirectory of a git work tree: local entries are keyed by the work tree\'s root', () => {
    const sub = { ...linux, cwd: '/work/app/packages/ui', gitRoot: '/work/app' };
    expect(hostLocations('claude-code', sub)[1]!.serversPath).toEqual(['projects', '/work/app', 'mcpServers']);
    expect(files('claude-code', sub).filter((f) => f.startsWith('project')).map((f) => f.split(' ')[1])).toEqual([
      '/work/app/packages/ui/.mcp.json', '/work/app/packages/.mcp.json', '/work/app/.mcp.json', '/work/.mcp.json', '/.mcp.json',
    ]);
    expect(configFileLocations('/home/ada/.claude.json', {}, undefined, sub)[1]!.serversPath).toEqual(['projects', '/work/app', 'mcpServers']);
  });

  it('Cursor, VS Code and Windsurf', () => {
    expect(files('cursor', linux)).toEqual(['user /home/ada/.cursor/mcp.json mcpServers', 'project /work/app/.cursor/mcp.json mcpServers']);
    expect(files('vscode', linux)).toEqual(['user /home/ada/.config/Code/User/mcp.json servers', 'project /work/app/.vscode/mcp.json servers']);
    expect(files('vscode', mac)[0]).toBe('user /Users/ada/Library/Application Support/Code/User/mcp.json servers');
    expect(files('vscode', win)[0]).toBe('user C:\\Users\\ada\\AppData\\Roaming\\Code\\User\\mcp.json servers');
    expect(files('windsurf', win)).toEqual(['user C:\\Users\\ada\\.codeium\\windsurf\\mcp_config.json mcpServers']);
    expect(files('windsurf', mac)).toEqual(['user /Users/ada/.codeium/windsurf/mcp_config.json mcpServers']);
  });

  it('--config: the key is guessed from the file, or taken from --host', () => {
    const keys = (file: string, root: unknown, host?: HostId) => configFileLocations(file, root, host, linux).map((l) => l.serversPath.join('.'));
    expect(keys('/x/mcp.json', { servers: {} })).toEqual(['servers']);
    expect(keys('/x/mcp.json', { mcpServers: {} })).toEqual(['mcpServers']);
    expect(keys('/x/mcp.json', {})).toEqual(['mcpServers']);
    expect(keys('/x/mcp.json', {}, 'vscode')).toEqual(['servers']);
    expect(keys('/x/.claude.json', {})).toEqual(['mcpServers', 'projects./work/app.mcpServers']);
  });

  it('--host values', () => {
    expect(parseHosts(undefined)).toHaveLength(20);
    expect(parseHosts('all')).toHaveLength(20);
    expect(parseHosts('qwen,kilo')).toEqual(['qwen', 'kilo']);
    expect(parseHosts('cursor,vscode')).toEqual(['cursor', 'vscode']);
    expect(parseHosts('zed,codex')).toEqual(['zed', 'codex']);
    expect(() => parseHosts('emacs')).toThrow('unknown host "emacs"');
  });
});
