/** Shared shapes for host integration (wrap, unwrap, doctor). */

/** The MCP hosts whose configuration files mcp-tap knows how to find. */
export const HOST_IDS = [
  'claude-desktop',
  'claude-code',
  'cursor',
  'vscode',
  'vscode-insiders',
  'windsurf',
  'gemini',
  'codex',
  'zed',
  'cline',
  'roo',
  'continue',
  'goose',
  'lmstudio',
  'amazonq',
  'kiro',
  'opencode',
  'copilot-cli',
  'qwen',
  'kilo',
] as const;
export type HostId = (typeof HOST_IDS)[number];

/** Everything discovery depends on, injected so tests run against temporary directories. */
export interface HostEnv {
  platform: NodeJS.Platform;
  home: string;
  /** The project whose project-level configs (.mcp.json, .vscode/mcp.json, ...) are considered. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /**
   * The git work tree the project is in (the nearest directory up from it holding `.git`), null when it
   * is in none. Claude Code keys its local scope by it; Copilot CLI and opencode read project files up to it.
   * Undefined: not looked up (treated as none).
   */
  gitRoot?: string | null;
}

/** Where one object of server entries lives: a file and the JSON path of the object inside it. */
export interface ServersLocation {
  host: HostId | 'custom';
  /**
   * user, project, local (Claude Code's per-project entries in ~/.claude.json), managed (Claude Code's
   * managed-mcp.json), system (Qwen Code's machine-wide settings), or config (--config).
   */
  scope: 'user' | 'project' | 'local' | 'managed' | 'system' | 'config';
  file: string;
  /** JSON path of the object whose properties are the server entries, e.g. ['mcpServers']. */
  serversPath: (string | number)[];
  /** How one entry writes its command line (default `standard`: `command` + `args`). */
  shape?: EntryShape;
  /** The entries are a list of objects named by their `name` key (Continue), not an object keyed by name. */
  list?: boolean;
  /** Other hosts that read the same entries (`.mcp.json`: Claude Code and Copilot CLI), for labels. */
  readBy?: HostId[];
}

/**
 * How a host writes one server's command line: `standard` `command` + `args`; `zed` also the older
 * `"command": { "path", "args", "env" }`; `goose` `cmd` + `args` with `envs`; `opencode` one `command`
 * array (program first) with `environment`.
 */
export type EntryShape = 'standard' | 'zed' | 'goose' | 'opencode';

/** How mcp-tap itself is started from a host config: `command` plus the arguments before mcp-tap's own. */
export interface Launcher {
  command: string;
  /** Arguments that select mcp-tap before its options: [] for the script itself, [script] for node, ['-y', 'mcp-tap'] for npx. */
  prefixArgs: string[];
  /** Which of the three forms this is (reported to the user). */
  form: 'script' | 'node' | 'npx';
}

/** One textual replacement in a config file; offsets into the original text. */
export interface TextEdit {
  offset: number;
  length: number;
  content: string;
}
