/** Where the hosts beyond the first five keep their servers, per OS, from (platform, env, home, project) alone. */
import { describe, expect, it } from 'vitest';
import { discoverConfigs } from '../../src/hosts/discover.js';
import { hostDirLocations } from '../../src/hosts/host-paths.js';
import { configFileLocations, hostLocations } from '../../src/hosts/locations.js';
import type { HostEnv, HostId } from '../../src/hosts/types.js';

const linux: HostEnv = { platform: 'linux', home: '/home/ada', cwd: '/work/app', env: {} };
const mac: HostEnv = { platform: 'darwin', home: '/Users/ada', cwd: '/Users/ada/app', env: {} };
const win: HostEnv = { platform: 'win32', home: 'C:\\Users\\ada', cwd: 'C:\\src\\app', env: { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' } };

function files(host: HostId, h: HostEnv): string[] {
  return hostLocations(host, h).map((l) => `${l.scope} ${l.file} ${l.serversPath.join('.')}${l.shape ? ` ${l.shape}` : ''}${l.list ? ' list' : ''}`);
}

describe('more hosts, per OS', () => {
  it('Gemini CLI: ~/.gemini/settings.json ($GEMINI_CLI_HOME moves it) and the project .gemini/settings.json', () => {
    expect(files('gemini', linux)).toEqual(['user /home/ada/.gemini/settings.json mcpServers', 'project /work/app/.gemini/settings.json mcpServers']);
    expect(files('gemini', win)[0]).toBe('user C:\\Users\\ada\\.gemini\\settings.json mcpServers');
    expect(files('gemini', { ...linux, env: { GEMINI_CLI_HOME: '/g' } })[0]).toBe('user /g/.gemini/settings.json mcpServers');
  });

  it('Codex CLI: $CODEX_HOME/config.toml or ~/.codex/config.toml, and .codex/config.toml in the project', () => {
    expect(files('codex', mac)).toEqual(['user /Users/ada/.codex/config.toml mcp_servers', 'project /Users/ada/app/.codex/config.toml mcp_servers']);
    expect(files('codex', win)[0]).toBe('user C:\\Users\\ada\\.codex\\config.toml mcp_servers');
    expect(files('codex', { ...linux, env: { CODEX_HOME: '/c' } })[0]).toBe('user /c/config.toml mcp_servers');
    expect(files('codex', { ...linux, env: { CODEX_HOME: 'relative' } })[0]).toBe('user /home/ada/.codex/config.toml mcp_servers');
  });

  it('Zed: ~/.config/zed on Linux and macOS, %APPDATA%\\Zed on Windows; .zed/settings.json in the project', () => {
    expect(files('zed', linux)).toEqual(['user /home/ada/.config/zed/settings.json context_servers zed', 'project /work/app/.zed/settings.json context_servers zed']);
    expect(files('zed', mac)[0]).toBe('user /Users/ada/.config/zed/settings.json context_servers zed');
    expect(files('zed', win)[0]).toBe('user C:\\Users\\ada\\AppData\\Roaming\\Zed\\settings.json context_servers zed');
  });

  it('Cline and Roo Code: VS Code globalStorage; Roo also .roo/mcp.json', () => {
    expect(files('cline', mac)).toEqual(['user /Users/ada/Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json mcpServers']);
    expect(files('roo', win)).toEqual([
      'user C:\\Users\\ada\\AppData\\Roaming\\Code\\User\\globalStorage\\rooveterinaryinc.roo-cline\\settings\\mcp_settings.json mcpServers',
      'project C:\\src\\app\\.roo\\mcp.json mcpServers',
    ]);
    expect(files('cline', linux)[0]).toBe('user /home/ada/.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json mcpServers');
  });

  it('Continue: ~/.continue/config.yaml (a list) and every file in .continue/mcpServers/', () => {
    expect(files('continue', linux)).toEqual(['user /home/ada/.continue/config.yaml mcpServers list']);
    expect(files('continue', win)).toEqual(['user C:\\Users\\ada\\.continue\\config.yaml mcpServers list']);
    const [dir] = hostDirLocations('continue', linux);
    expect(dir!.dir).toBe('/work/app/.continue/mcpServers');
    expect(dir!.locate('/work/app/.continue/mcpServers/a.yaml').list).toBe(true);
    expect(dir!.locate('/work/app/.continue/mcpServers/b.json').list).toBe(false);
    expect(dir!.locate('/work/app/.continue/mcpServers/c.yml').list).toBe(true);
    expect(dir!.locate('/work/app/.continue/mcpServers/D.YAML').list).toBe(true);
  });

  it('Goose: ~/.config/goose/config.yaml, %APPDATA%\\Block\\goose\\config on Windows', () => {
    expect(files('goose', mac)).toEqual(['user /Users/ada/.config/goose/config.yaml extensions goose']);
    expect(files('goose', { ...linux, env: { XDG_CONFIG_HOME: '/xdg' } })).toEqual(['user /xdg/goose/config.yaml extensions goose']);
    expect(files('goose', win)).toEqual(['user C:\\Users\\ada\\AppData\\Roaming\\Block\\goose\\config\\config.yaml extensions goose']);
  });

  it('LM Studio, Amazon Q, Kiro, Copilot CLI: files under home; project files where the host has them', () => {
    expect(files('lmstudio', win)).toEqual(['user C:\\Users\\ada\\.lmstudio\\mcp.json mcpServers']);
    expect(files('amazonq', linux)).toEqual(['user /home/ada/.aws/amazonq/mcp.json mcpServers', 'project /work/app/.amazonq/mcp.json mcpServers']);
    expect(files('kiro', mac)).toEqual(['user /Users/ada/.kiro/settings/mcp.json mcpServers', 'project /Users/ada/app/.kiro/settings/mcp.json mcpServers']);
    // Copilot CLI keeps ~/.copilot whatever XDG_CONFIG_HOME says (run against a test home: it ignores it)
    expect(files('copilot-cli', linux)).toEqual(['user /home/ada/.copilot/mcp-config.json mcpServers', 'project /work/app/.mcp.json mcpServers', 'project /work/app/.github/mcp.json mcpServers']);
    expect(files('copilot-cli', { ...linux, env: { XDG_CONFIG_HOME: '/xdg' } })[0]).toBe('user /home/ada/.copilot/mcp-config.json mcpServers');
    expect(files('copilot-cli', { ...linux, env: { XDG_CONFIG_HOME: '/xdg', COPILOT_HOME: '/cop' } })[0]).toBe('user /cop/mcp-config.json mcpServers');
  });

  it('Copilot CLI in a git work tree: .mcp.json and .github/mcp.json in the project and each parent up to its root', () => {
    expect(files('copilot-cli', { ...linux, cwd: '/work/app/pkg/ui', gitRoot: '/work/app' })).toEqual([
      'user /home/ada/.copilot/mcp-config.json mcpServers',
      'project /work/app/pkg/ui/.mcp.json mcpServers',
      'project /work/app/pkg/ui/.github/mcp.json mcpServers',
      'project /work/app/pkg/.mcp.json mcpServers',
      'project /work/app/pkg/.github/mcp.json mcpServers',
      'project /work/app/.mcp.json mcpServers',
      'project /work/app/.github/mcp.json mcpServers',
    ]);
  });

  it('opencode: $XDG_CONFIG_HOME/opencode (~/.config on every OS), config.json and opencode.json[c]; opencode.json[c] and .opencode/opencode.json[c] up to the git root; $OPENCODE_CONFIG first', () => {
    expect(files('opencode', { ...win, gitRoot: 'C:\\src\\app' })).toEqual([
      'user C:\\Users\\ada\\.config\\opencode\\config.json mcp opencode',
      'user C:\\Users\\ada\\.config\\opencode\\opencode.json mcp opencode',
      'user C:\\Users\\ada\\.config\\opencode\\opencode.jsonc mcp opencode',
      'project C:\\src\\app\\opencode.json mcp opencode',
      'project C:\\src\\app\\opencode.jsonc mcp opencode',
      'project C:\\src\\app\\.opencode\\opencode.json mcp opencode',
      'project C:\\src\\app\\.opencode\\opencode.jsonc mcp opencode',
    ]);
    const deep = files('opencode', { ...linux, cwd: '/work/app/sub', gitRoot: '/work/app' }).filter((f) => f.startsWith('project'));
    expect(deep.map((f) => f.split(' ')[1])).toEqual([
      '/work/app/sub/opencode.json', '/work/app/sub/opencode.jsonc', '/work/app/sub/.opencode/opencode.json', '/work/app/sub/.opencode/opencode.jsonc',
      '/work/app/opencode.json', '/work/app/opencode.jsonc', '/work/app/.opencode/opencode.json', '/work/app/.opencode/opencode.jsonc',
    ]);
    // outside a git work tree opencode looks all the way up
    expect(files('opencode', linux).filter((f) => f.startsWith('project')).map((f) => f.split(' ')[1]).filter((f) => f.endsWith('/opencode.json') && !f.includes('/.opencode/'))).toEqual(['/work/app/opencode.json', '/work/opencode.json', '/opencode.json']);
    expect(files('opencode', { ...linux, env: { OPENCODE_CONFIG: '/o/x.json' } })[0]).toBe('user /o/x.json mcp opencode');
  });

  it('Kilo Code CLI: ~/.config/kilo/config.json and kilo.json[c]; kilo.json[c] and .kilo/kilo.json[c] in the project (opencode\'s shape)', () => {
    expect(files('kilo', { ...linux, gitRoot: '/work/app' })).toEqual([
      'user /home/ada/.config/kilo/config.json mcp opencode',
      'user /home/ada/.config/kilo/kilo.json mcp opencode',
      'user /home/ada/.config/kilo/kilo.jsonc mcp opencode',
      'project /work/app/kilo.json mcp opencode',
      'project /work/app/kilo.jsonc mcp opencode',
      'project /work/app/.kilo/kilo.json mcp opencode',
      'project /work/app/.kilo/kilo.jsonc mcp opencode',
    ]);
    expect(files('kilo', { ...linux, env: { XDG_CONFIG_HOME: '/x' }, gitRoot: '/work/app' })[1]).toBe('user /x/kilo/kilo.json mcp opencode');
  });

  it('Qwen Code: $QWEN_HOME or ~/.qwen, .qwen/settings.json in the project, the machine-wide settings per OS', () => {
    expect(files('qwen', linux)).toEqual(['user /home/ada/.qwen/settings.json mcpServers', 'project /work/app/.qwen/settings.json mcpServers', 'system /etc/qwen-code/settings.json mcpServers']);
    expect(files('qwen', mac)[2]).toBe('system /Library/Application Support/QwenCode/settings.json mcpServers');
    expect(files('qwen', win)).toEqual(['user C:\\Users\\ada\\.qwen\\settings.json mcpServers', 'project C:\\src\\app\\.qwen\\settings.json mcpServers', 'system C:\\ProgramData\\qwen-code\\settings.json mcpServers']);
    expect(files('qwen', { ...linux, env: { QWEN_HOME: '~/q' } })[0]).toBe('user /home/ada/q/settings.json mcpServers');
    expect(files('qwen', { ...win, env: { ...win.env, QWEN_HOME: '~\\q' } })[0]).toBe('user C:\\Users\\ada\\q\\settings.json mcpServers');
    expect(files('qwen', { ...linux, env: { QWEN_HOME: 'rel', QWEN_CODE_SYSTEM_SETTINGS_PATH: '/s.json' } })).toEqual(['user /work/app/rel/settings.json mcpServers', 'project /work/app/.qwen/settings.json mcpServers', 'system /s.json mcpServers']);
  });

  it('VS Code Insiders: its own user folder; the workspace .vscode/mcp.json it shares with VS Code', () => {
    expect(files('vscode-insiders', mac)).toEqual([
      'user /Users/ada/Library/Application Support/Code - Insiders/User/mcp.json servers',
      'project /Users/ada/app/.vscode/mcp.json servers',
    ]);
    expect(files('vscode-insiders', win)[0]).toBe('user C:\\Users\\ada\\AppData\\Roaming\\Code - Insiders\\User\\mcp.json servers');
  });

  it('--config: the servers key and entry shape come from --host, or from the keys the file has', () => {
    const loc = (file: string, root: unknown, host?: HostId) => configFileLocations(file, root, host, linux).map((l) => `${l.serversPath.join('.')} ${l.shape ?? '-'} ${l.list ? 'list' : '-'}`);
    expect(loc('/x/config.toml', {}, 'codex')).toEqual(['mcp_servers - -']);
    expect(loc('/x/a.json', {}, 'zed')).toEqual(['context_servers zed -']);
    expect(loc('/x/a.yaml', {}, 'continue')).toEqual(['mcpServers - list']);
    expect(loc('/x/a.json', {}, 'continue')).toEqual(['mcpServers - -']);
    expect(loc('/x/c.toml', { mcp_servers: {} })).toEqual(['mcp_servers - -']);
    expect(loc('/x/s.json', { context_servers: {} })).toEqual(['context_servers zed -']);
    expect(loc('/x/g.yaml', { extensions: {} })).toEqual(['extensions goose -']);
    expect(loc('/x/o.json', { mcp: {} })).toEqual(['mcp opencode -']);
    expect(loc('/x/c.yaml', { mcpServers: [] })).toEqual(['mcpServers - list']);
  });

  it('discovery reads every host, Continue\'s directory included, and names what it looked at', async () => {
    const present = new Map([
      ['/home/ada/.codex/config.toml', '[mcp_servers.a]\ncommand = "x"\n'],
      ['/work/app/.continue/mcpServers/b.yaml', 'mcpServers:\n  - name: b\n    command: y\n'],
    ]);
    const { found, looked } = await discoverConfigs({}, linux, async (f) => present.get(f), async (d) => (d === '/work/app/.continue/mcpServers' ? ['b.yaml', 'README.md'] : []));
    expect(found.map((f) => f.file)).toEqual(['/home/ada/.codex/config.toml', '/work/app/.continue/mcpServers/b.yaml']);
    expect(looked).toContain('/home/ada/.gemini/settings.json');
    expect(looked).toContain('/work/app/.continue/mcpServers/*{.yaml,.yml,.json}');
  });

  it("discovery takes Continue's files whatever the case of their extension, .yml included, each a list", async () => {
    const yaml = 'mcpServers:\n  - name: b\n    command: y\n';
    const present = new Map([
      ['/work/app/.continue/mcpServers/B.YAML', yaml],
      ['/work/app/.continue/mcpServers/c.yml', yaml],
    ]);
    const { found } = await discoverConfigs({ host: 'continue' }, linux, async (f) => present.get(f), async (d) => (d === '/work/app/.continue/mcpServers' ? ['B.YAML', 'c.yml', 'notes.txt'] : []));
    expect(found.map((f) => [f.file, f.locations.map((l) => l.list)])).toEqual([
      ['/work/app/.continue/mcpServers/B.YAML', [true]],
      ['/work/app/.continue/mcpServers/c.yml', [true]],
    ]);
  });

  it('discovery reads a file several hosts read once, naming each host that reads it', async () => {
    const present = new Map([['/work/app/.mcp.json', '{"mcpServers":{"a":{"command":"x"}}}']]);
    const { found } = await discoverConfigs({ host: 'claude-code,copilot-cli' }, linux, async (f) => present.get(f), async () => []);
    expect(found).toHaveLength(1);
    expect(found[0]!.locations.map((l) => [l.host, l.readBy])).toEqual([['claude-code', ['copilot-cli']]]);
  });
});
