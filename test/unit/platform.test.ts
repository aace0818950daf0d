/**
 * Every platform decision is a pure function of (platform, env, filesystem): each is checked here for
 * win32, darwin and linux with injected inputs, so a Linux machine proves the Windows and macOS rules.
 */
import { describe, expect, it } from 'vitest';
import { commandCandidates, findCommand, hasDirectoryPart, pathExtensions, searchPathOf } from '../../src/platform/command-lookup.js';
import { logDirFor } from '../../src/platform/log-dir.js';
import { treeStopPlan } from '../../src/platform/process-tree.js';
import { homeDirFor } from '../../src/platform/home.js';
import { hostLocations } from '../../src/hosts/locations.js';

describe('command lookup', () => {
  const winEnv = { Path: 'C:\\Program Files\\nodejs;C:\\Windows\\system32', PATHEXT: '.COM;.EXE;.BAT;.CMD' };

  it('win32: PATH is found in any case (Windows spells it Path); POSIX reads PATH only', () => {
    expect(searchPathOf('win32', winEnv)).toBe(winEnv.Path);
    expect(searchPathOf('linux', { Path: '/x', PATH: '/usr/bin' })).toBe('/usr/bin');
    expect(searchPathOf('darwin', {})).toBe('');
  });

  it('win32: a bare name tries the current directory, then each PATH entry, with every PATHEXT extension', () => {
    const c = commandCandidates('npx', { platform: 'win32', env: winEnv, cwd: 'C:\\work' });
    expect(c.slice(0, 4)).toEqual(['C:\\work\\npx.COM', 'C:\\work\\npx.EXE', 'C:\\work\\npx.BAT', 'C:\\work\\npx.CMD']);
    expect(c).toContain('C:\\Program Files\\nodejs\\npx.CMD');
    expect(c).toHaveLength(12);
  });

  it('win32: npx resolves to the npx.cmd shim (Node alone would not find it)', () => {
    const files = new Set(['C:\\Program Files\\nodejs\\npx.CMD', 'C:\\Program Files\\nodejs\\node.EXE']);
    expect(findCommand('npx', { platform: 'win32', env: winEnv, cwd: 'C:\\work' }, (f) => files.has(f))).toBe('C:\\Program Files\\nodejs\\npx.CMD');
    expect(findCommand('uvx', { platform: 'win32', env: winEnv, cwd: 'C:\\work' }, (f) => files.has(f))).toBeNull();
  });

  it('win32: a name with an extension is tried as named first; PATHEXT defaults when unset', () => {
    expect(pathExtensions('npx.cmd', 'win32', {})).toEqual(['', '.COM', '.EXE', '.BAT', '.CMD']);
    expect(pathExtensions('npx', 'win32', {})).toEqual(['.COM', '.EXE', '.BAT', '.CMD']);
    expect(pathExtensions('npx', 'linux', { PATHEXT: '.EXE' })).toEqual(['']);
  });

  it('paths: backslashes and drive letters are paths on win32, only slashes elsewhere', () => {
    expect(hasDirectoryPart('C:\\tools\\server.exe', 'win32')).toBe(true);
    expect(hasDirectoryPart('.\\server.cmd', 'win32')).toBe(true);
    expect(hasDirectoryPart('D:server.exe', 'win32')).toBe(true);
    expect(hasDirectoryPart('server', 'win32')).toBe(false);
    expect(hasDirectoryPart('dir\\server', 'linux')).toBe(false);
    expect(hasDirectoryPart('./server', 'darwin')).toBe(true);
    expect(commandCandidates('.\\bin\\srv', { platform: 'win32', env: {}, cwd: 'C:\\w' })).toEqual(['C:\\w\\bin\\srv.COM', 'C:\\w\\bin\\srv.EXE', 'C:\\w\\bin\\srv.BAT', 'C:\\w\\bin\\srv.CMD']);
  });

  it('POSIX: PATH entries in order, an empty entry is the current directory, no PATH means the default path', () => {
    for (const platform of ['linux', 'darwin'] as const) {
      expect(commandCandidates('npx', { platform, env: { PATH: '/a::/b' }, cwd: '/w' })).toEqual(['/a/npx', '/w/npx', '/b/npx']);
      expect(commandCandidates('npx', { platform, env: {}, cwd: '/w' })).toEqual(['/usr/bin/npx', '/bin/npx']);
      expect(commandCandidates('./srv', { platform, env: { PATH: '/a' }, cwd: '/w' })).toEqual(['/w/srv']);
    }
  });
});

describe('log directory', () => {
  it('$XDG_STATE_HOME/mcp-tap when set to an absolute path, on every OS', () => {
    expect(logDirFor('linux', { XDG_STATE_HOME: '/s' }, '/home/ada')).toBe('/s/mcp-tap');
    expect(logDirFor('darwin', { XDG_STATE_HOME: '/s' }, '/Users/ada')).toBe('/s/mcp-tap');
    expect(logDirFor('win32', { XDG_STATE_HOME: 'D:\\state' }, 'C:\\Users\\ada')).toBe('D:\\state\\mcp-tap');
  });

  it('otherwise the platform place: ~/.local/state, ~/Library/Logs, %LOCALAPPDATA%\\mcp-tap\\Logs', () => {
    expect(logDirFor('linux', {}, '/home/ada')).toBe('/home/ada/.local/state/mcp-tap');
    expect(logDirFor('linux', { XDG_STATE_HOME: 'relative' }, '/home/ada')).toBe('/home/ada/.local/state/mcp-tap');
    expect(logDirFor('darwin', {}, '/Users/ada')).toBe('/Users/ada/Library/Logs/mcp-tap');
    expect(logDirFor('win32', { LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local' }, 'C:\\Users\\ada')).toBe('C:\\Users\\ada\\AppData\\Local\\mcp-tap\\Logs');
    expect(logDirFor('win32', {}, 'C:\\Users\\ada')).toBe('C:\\Users\\ada\\AppData\\Local\\mcp-tap\\Logs');
  });
});

describe('process-tree stop', () => {
  it('POSIX: one signal to the server’s process group', () => {
    expect(treeStopPlan('linux', 4242, 'SIGTERM')).toEqual({ kind: 'group-signal', pgid: 4242, signal: 'SIGTERM' });
    expect(treeStopPlan('darwin', 4242, 'SIGKILL')).toEqual({ kind: 'group-signal', pgid: 4242, signal: 'SIGKILL' });
  });

  it('win32: taskkill /T /F on the tree (no groups, no signals)', () => {
    expect(treeStopPlan('win32', 4242, 'SIGTERM')).toEqual({ kind: 'taskkill', file: 'taskkill', args: ['/PID', '4242', '/T', '/F'], pid: 4242 });
  });

  it('no pid (never started): nothing to stop', () => {
    expect(treeStopPlan('linux', undefined, 'SIGTERM')).toEqual({ kind: 'none' });
    expect(treeStopPlan('win32', 0, 'SIGTERM')).toEqual({ kind: 'none' });
  });
});

describe('config paths', () => {
  it('home: %USERPROFILE% on win32 even when a Git Bash HOME is set; $HOME elsewhere', () => {
    expect(homeDirFor('win32', { USERPROFILE: 'C:\\Users\\ada', HOME: '/c/Users/ada' }, 'X')).toBe('C:\\Users\\ada');
    expect(homeDirFor('win32', {}, 'C:\\fallback')).toBe('C:\\fallback');
    expect(homeDirFor('darwin', { HOME: '/Users/ada', USERPROFILE: 'C:\\x' }, 'X')).toBe('/Users/ada');
    expect(homeDirFor('linux', {}, '/root')).toBe('/root');
  });

  it('Claude Desktop: %APPDATA%\\Claude on win32, Application Support on darwin, $XDG_CONFIG_HOME on linux', () => {
    const file = (platform: NodeJS.Platform, home: string, env: NodeJS.ProcessEnv) => hostLocations('claude-desktop', { platform, home, cwd: home, env })[0]!.file;
    expect(file('win32', 'C:\\Users\\ada', { APPDATA: 'D:\\Roaming' })).toBe('D:\\Roaming\\Claude\\claude_desktop_config.json');
    expect(file('win32', 'C:\\Users\\ada', {})).toBe('C:\\Users\\ada\\AppData\\Roaming\\Claude\\claude_desktop_config.json');
    expect(file('darwin', '/Users/ada', {})).toBe('/Users/ada/Library/Application Support/Claude/claude_desktop_config.json');
    expect(file('linux', '/home/ada', { XDG_CONFIG_HOME: '/cfg' })).toBe('/cfg/Claude/claude_desktop_config.json');
  });
});
