/**
 * Where each host keeps its MCP server configuration, per operating system. Pure: paths are computed
 * from an injected HostEnv; whether the files exist is decided by the caller (discover.ts).
 */
import { posix, win32 } from 'node:path';
import { moreHostLocations } from './host-paths.js';
import { dirsUpTo } from './project-dirs.js';
import type { HostEnv, HostId, ServersLocation } from './types.js';

function pathApi(platform: NodeJS.Platform): typeof posix {
  return platform === 'win32' ? win32 : posix;
}

/** Electron's and VS Code's per-user application data directory (where Claude Desktop and Code keep settings). */
export function appDataDir(h: HostEnv): string {
  const p = pathApi(h.platform);
  if (h.platform === 'win32') return h.env.APPDATA || p.join(h.home, 'AppData', 'Roaming');
  if (h.platform === 'darwin') return p.join(h.home, 'Library', 'Application Support');
  const xdg = h.env.XDG_CONFIG_HOME;
  return xdg && p.isAbsolute(xdg) ? xdg : p.join(h.home, '.config');
}

/** Claude Code's ~/.claude.json (or $CLAUDE_CONFIG_DIR/.claude.json when that variable is set). */
export function claudeCodeUserFile(h: HostEnv): string {
  const p = pathApi(h.platform);
  const dir = h.env.CLAUDE_CONFIG_DIR && p.isAbsolute(h.env.CLAUDE_CONFIG_DIR) ? h.env.CLAUDE_CONFIG_DIR : h.home;
  return p.join(dir, '.claude.json');
}

/** Claude Code's managed-mcp.json (set by an administrator; Claude Code's own paths per OS). */
export function claudeCodeManagedFile(h: HostEnv): string {
  if (h.platform === 'darwin') return '/Library/Application Support/ClaudeCode/managed-mcp.json';
  if (h.platform === 'win32') return 'C:\\Program Files\\ClaudeCode\\managed-mcp.json';
  return '/etc/claude-code/managed-mcp.json';
}

/** Every place a host may keep server entries, whether or not the file exists. */
export function hostLocations(host: HostId, h: HostEnv): ServersLocation[] {
  const p = pathApi(h.platform);
  const project = p.resolve(h.cwd);
  switch (host) {
    case 'claude-desktop':
      return [
        { host, scope: 'user', file: p.join(appDataDir(h), 'Claude', 'claude_desktop_config.json'), serversPath: ['mcpServers'] },
      ];
    case 'claude-code': {
      // local entries are keyed by the git work tree's root (the project itself outside one); every
      // .mcp.json from the project up to the filesystem root counts, above the work tree too
      const user = claudeCodeUserFile(h);
      return [
        { host, scope: 'user', file: user, serversPath: ['mcpServers'] },
        { host, scope: 'local', file: user, serversPath: ['projects', h.gitRoot ?? project, 'mcpServers'] },
        ...dirsUpTo(project, null, h.platform).map((dir): ServersLocation => ({ host, scope: 'project', file: p.join(dir, '.mcp.json'), serversPath: ['mcpServers'] })),
        { host, scope: 'managed', file: claudeCodeManagedFile(h), serversPath: ['mcpServers'] },
      ];
    }
    case 'cursor':
      return [
        { host, scope: 'user', file: p.join(h.home, '.cursor', 'mcp.json'), serversPath: ['mcpServers'] },
        { host, scope: 'project', file: p.join(project, '.cursor', 'mcp.json'), serversPath: ['mcpServers'] },
      ];
    case 'vscode':
      return [
        { host, scope: 'user', file: p.join(appDataDir(h), 'Code', 'User', 'mcp.json'), serversPath: ['servers'] },
        { host, scope: 'project', file: p.join(project, '.vscode', 'mcp.json'), serversPath: ['servers'] },
      ];
    case 'windsurf':
      return [
        { host, scope: 'user', file: p.join(h.home, '.codeium', 'windsurf', 'mcp_config.json'), serversPath: ['mcpServers'] },
      ];
    default:
      return moreHostLocations(host, h, appDataDir(h)) ?? [];
  }
}

/**
 * The locations inside a file named with --config: the host's convention when --host names one, else
 * guessed from the file (a `.claude.json` holds user and per-project entries; otherwise the first
 * servers key the file has: mcpServers, servers, mcp_servers, context_servers, extensions, mcp).
 */
export function configFileLocations(
  file: string,
  root: unknown,
  host: HostId | undefined,
  h: HostEnv,
): ServersLocation[] {
  const p = pathApi(h.platform);
  const base = p.basename(file);
  const obj = root !== null && typeof root === 'object' && !Array.isArray(root) ? (root as Record<string, unknown>) : {};
  if (host === 'claude-code' || (host === undefined && base === '.claude.json')) {
    return [
      { host: 'claude-code', scope: 'user', file, serversPath: ['mcpServers'] },
      { host: 'claude-code', scope: 'local', file, serversPath: ['projects', h.gitRoot ?? p.resolve(h.cwd), 'mcpServers'] },
    ];
  }
  if (host !== undefined) {
    // The host's own key and entry shape, from its user location (Continue's project files are lists too).
    const own = hostLocations(host, h)[0];
    const list = host === 'continue' ? /\.ya?ml$/i.test(file) : own?.list;
    return [{ host, scope: 'config', file, serversPath: own?.serversPath ?? ['mcpServers'], shape: own?.shape, list }];
  }
  return [{ host: 'custom', scope: 'config', file, ...guessKey(obj) }];
}

/** The servers key of a config named with --config and no --host, from the keys it has. */
function guessKey(obj: Record<string, unknown>): Pick<ServersLocation, 'serversPath' | 'shape' | 'list'> {
  if ('mcpServers' in obj) return { serversPath: ['mcpServers'], list: Array.isArray(obj.mcpServers) };
  if ('servers' in obj) return { serversPath: ['servers'] };
  if ('mcp_servers' in obj) return { serversPath: ['mcp_servers'] };
  if ('context_servers' in obj) return { serversPath: ['context_servers'], shape: 'zed' };
  if ('extensions' in obj) return { serversPath: ['extensions'], shape: 'goose' };
  if ('mcp' in obj) return { serversPath: ['mcp'], shape: 'opencode' };
  return { serversPath: ['mcpServers'] };
}
