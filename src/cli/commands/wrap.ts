/** `mcp-tap wrap`: rewrite host config entries so the host starts each stdio server through mcp-tap. */
import { accessSync, constants } from 'node:fs';
import type { Command } from 'commander';
import { processHostEnv } from '../../hosts/discover.js';
import { runEdit } from '../../hosts/edit-command.js';
import { chooseLauncher } from '../../hosts/launcher.js';
import { HOST_IDS } from '../../hosts/types.js';
import { UsageError } from '../../errors.js';

interface WrapOptions {
  host?: string;
  config?: string;
  project?: string;
  dryRun?: boolean;
  npx?: boolean;
  node?: boolean;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function define(program: Command): void {
  program
    .command('wrap')
    .summary('put mcp-tap in front of the stdio servers in a host config')
    .description(
      'Rewrites stdio server entries in MCP host configs (Claude Desktop, Claude Code, Cursor, VS Code, Gemini CLI, Codex CLI and more; JSON, TOML or YAML) so the host ' +
        'starts them through mcp-tap. Only `command` and `args` change; a backup <file>.mcp-tap.bak is written before the first ' +
        'change. HTTP/SSE entries and entries already wrapped are skipped. `mcp-tap unwrap` restores the original.',
    )
    .argument('[names...]', 'server entries to wrap (default: every stdio entry)')
    .option('--host <host>', `${HOST_IDS.join(', ')}, a comma list, or all`, 'all')
    .option('--config <file>', 'edit this config file instead of looking for the hosts\' files')
    .option('--project <dir>', 'project whose project-level configs count (.mcp.json, .vscode/mcp.json, .gemini/settings.json, …; default: current directory)')
    .option('--dry-run', 'show the changes as a diff and write nothing')
    .option('--npx', 'start mcp-tap with `npx -y mcp-tap` instead of its absolute path')
    .option('--node', 'start mcp-tap as `<absolute node> <absolute mcp-tap.js>` (for hosts whose PATH has no node)')
    .action(async (names: string[], opts: WrapOptions) => {
      if (opts.npx && opts.node) throw new UsageError('--npx and --node are two ways to start mcp-tap: give one of them');
      const launcher = chooseLauncher({
        script: process.argv[1],
        execPath: process.execPath,
        platform: process.platform,
        isExecutable,
        npx: opts.npx,
        node: opts.node,
      });
      await runEdit('wrap', names, opts, {
        hostEnv: processHostEnv(opts.project),
        out: (line) => process.stdout.write(`${line}\n`),
        launcher,
      });
    });
}
