/**
 * Config locations of the hosts beyond the first five (Gemini CLI, Codex CLI, Zed, Cline, Roo Code,
 * Continue, Goose, LM Studio, Amazon Q Developer CLI, Kiro, opencode, Copilot CLI, VS Code Insiders,
 * Qwen Code, Kilo Code CLI). Pure functions of (platform, env, home, project, git root); whether files
 * exist is decided by discover.ts. Sources: each host's docs, and for Gemini CLI, Codex CLI, Qwen Code,
 * opencode and Copilot CLI their published npm packages (read, and run against test directories).
 */
import { posix, win32 } from 'node:path';
import { dirsUpTo } from './project-dirs.js';
import type { HostEnv, HostId, ServersLocation } from './types.js';

function pathApi(platform: NodeJS.Platform): typeof posix {
  return platform === 'win32' ? win32 : posix;
}

function absoluteEnv(h: HostEnv, name: string): string | undefined {
  const v = h.env[name];
  return v && pathApi(h.platform).isAbsolute(v) ? v : undefined;
}

/** $XDG_CONFIG_HOME or ~/.config on every platform (tools that follow XDG even on macOS and Windows). */
function xdgConfig(h: HostEnv): string {
  return absoluteEnv(h, 'XDG_CONFIG_HOME') ?? pathApi(h.platform).join(h.home, '.config');
}

/** A directory whose files of the given extensions each hold entries (Continue's .continue/mcpServers/). */
export interface DirLocation {
  host: HostId;
  scope: 'user' | 'project';
  dir: string;
  extensions: string[];
  /** The location inside one file of the directory. */
  locate(file: string): ServersLocation;
}

/**
 * Locations of the hosts this file knows (undefined for the first five, which locations.ts keeps).
 * `appData` is locations.ts's per-user application data directory (VS Code's and Electron's).
 */
export function moreHostLocations(host: HostId, h: HostEnv, appData: string): ServersLocation[] | undefined {
  const p = pathApi(h.platform);
  const project = p.resolve(h.cwd);
  const at = (scope: ServersLocation['scope'], file: string, serversPath: string[], extra: Partial<ServersLocation> = {}): ServersLocation => ({
    host,
    scope,
    file,
    serversPath,
    ...extra,
  });
  const vscodeStorage = (ext: string, file: string) => p.join(appData, 'Code', 'User', 'globalStorage', ext, 'settings', file);
  switch (host) {
    case 'vscode-insiders':
      return [
        at('user', p.join(appData, 'Code - Insiders', 'User', 'mcp.json'), ['servers']),
        at('project', p.join(project, '.vscode', 'mcp.json'), ['servers']),
      ];
    case 'gemini': {
      const home = absoluteEnv(h, 'GEMINI_CLI_HOME') ?? h.home;
      return [
        at('user', p.join(home, '.gemini', 'settings.json'), ['mcpServers']),
        at('project', p.join(project, '.gemini', 'settings.json'), ['mcpServers']),
      ];
    }
    case 'codex': {
      const dir = absoluteEnv(h, 'CODEX_HOME') ?? p.join(h.home, '.codex');
      return [
        at('user', p.join(dir, 'config.toml'), ['mcp_servers']),
        at('project', p.join(project, '.codex', 'config.toml'), ['mcp_servers']),
      ];
    }
    case 'zed': {
      const user = h.platform === 'win32' ? p.join(appData, 'Zed', 'settings.json') : p.join(xdgConfig(h), 'zed', 'settings.json');
      return [
        at('user', user, ['context_servers'], { shape: 'zed' }),
        at('project', p.join(project, '.zed', 'settings.json'), ['context_servers'], { shape: 'zed' }),
      ];
    }
    case 'cline':
      return [at('user', vscodeStorage('saoudrizwan.claude-dev', 'cline_mcp_settings.json'), ['mcpServers'])];
    case 'roo':
      return [
        at('user', vscodeStorage('rooveterinaryinc.roo-cline', 'mcp_settings.json'), ['mcpServers']),
        at('project', p.join(project, '.roo', 'mcp.json'), ['mcpServers']),
      ];
    case 'continue': {
      const dir = absoluteEnv(h, 'CONTINUE_GLOBAL_DIR') ?? p.join(h.home, '.continue');
      return [at('user', p.join(dir, 'config.yaml'), ['mcpServers'], { list: true })];
    }
    case 'goose': {
      const file = h.platform === 'win32' ? p.join(appData, 'Block', 'goose', 'config', 'config.yaml') : p.join(xdgConfig(h), 'goose', 'config.yaml');
      return [at('user', file, ['extensions'], { shape: 'goose' })];
    }
    case 'lmstudio':
      return [at('user', p.join(h.home, '.lmstudio', 'mcp.json'), ['mcpServers'])];
    case 'amazonq':
      return [
        at('user', p.join(h.home, '.aws', 'amazonq', 'mcp.json'), ['mcpServers']),
        at('project', p.join(project, '.amazonq', 'mcp.json'), ['mcpServers']),
      ];
    case 'kiro':
      return [
        at('user', p.join(h.home, '.kiro', 'settings', 'mcp.json'), ['mcpServers']),
        at('project', p.join(project, '.kiro', 'settings', 'mcp.json'), ['mcpServers']),
      ];
    case 'opencode':
    case 'kilo': {
      // opencode, and Kilo CLI (its fork) with its own names: config.json (the older name, still read) and
      // <name>.json(c) in its config directory; <name>.json(c) and .<name>/<name>.json(c) in the project and
      // each parent up to the git work tree's root (the filesystem root outside one)
      const name = host === 'kilo' ? 'kilo' : 'opencode';
      const dir = p.join(xdgConfig(h), name);
      const shape = { shape: 'opencode' as const };
      const out = ['config.json', `${name}.json`, `${name}.jsonc`].map((f) => at('user', p.join(dir, f), ['mcp'], shape));
      for (const d of dirsUpTo(project, h.gitRoot ?? null, h.platform)) {
        for (const f of [`${name}.json`, `${name}.jsonc`, p.join(`.${name}`, `${name}.json`), p.join(`.${name}`, `${name}.jsonc`)]) out.push(at('project', p.join(d, f), ['mcp'], shape));
      }
      const custom = host === 'opencode' ? absoluteEnv(h, 'OPENCODE_CONFIG') : undefined;
      if (custom) out.unshift(at('user', custom, ['mcp'], shape));
      return out;
    }
    case 'copilot-cli': {
      // ~/.copilot (or $COPILOT_HOME) whatever XDG_CONFIG_HOME says; in the project and each parent up to
      // the git work tree's root, .mcp.json (which Claude Code reads too) or else .github/mcp.json
      const dir = absoluteEnv(h, 'COPILOT_HOME') ?? p.join(h.home, '.copilot');
      const out = [at('user', p.join(dir, 'mcp-config.json'), ['mcpServers'])];
      for (const d of h.gitRoot ? dirsUpTo(project, h.gitRoot, h.platform) : [project]) {
        out.push(at('project', p.join(d, '.mcp.json'), ['mcpServers']), at('project', p.join(d, '.github', 'mcp.json'), ['mcpServers']));
      }
      return out;
    }
    case 'qwen': {
      // Gemini CLI's format; $QWEN_HOME (~ expanded, relative to the project) else ~/.qwen; machine-wide
      // settings where Qwen Code's getSystemSettingsPath puts them
      const q = h.env['QWEN_HOME'];
      const home = q ? (q === '~' || /^~[\\/]/.test(q) ? p.join(h.home, q.slice(1)) : p.resolve(project, q)) : p.join(h.home, '.qwen');
      const system =
        h.env['QWEN_CODE_SYSTEM_SETTINGS_PATH'] ||
        (h.platform === 'darwin' ? '/Library/Application Support/QwenCode/settings.json' : h.platform === 'win32' ? 'C:\\ProgramData\\qwen-code\\settings.json' : '/etc/qwen-code/settings.json');
      return [at('user', p.join(home, 'settings.json'), ['mcpServers']), at('project', p.join(project, '.qwen', 'settings.json'), ['mcpServers']), at('system', system, ['mcpServers'])];
    }
    default:
      return undefined;
  }
}

/** Directories whose every config file holds entries (Continue's project `.continue/mcpServers/`). */
export function hostDirLocations(host: HostId, h: HostEnv): DirLocation[] {
  if (host !== 'continue') return [];
  const p = pathApi(h.platform);
  const dir = p.join(p.resolve(h.cwd), '.continue', 'mcpServers');
  return [
    {
      host,
      scope: 'project',
      dir,
      extensions: ['.yaml', '.yml', '.json'],
      // YAML blocks list their servers; JSON files there use the mcpServers object other hosts use.
      locate: (file) => ({ host, scope: 'project', file, serversPath: ['mcpServers'], list: /\.ya?ml$/i.test(file) }),
    },
  ];
}
