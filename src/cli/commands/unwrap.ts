/** `mcp-tap unwrap`: restore host config entries that `mcp-tap wrap` (or a hand edit) put behind mcp-tap. */
import type { Command } from 'commander';
import { processHostEnv } from '../../hosts/discover.js';
import { runEdit } from '../../hosts/edit-command.js';
import { HOST_IDS } from '../../hosts/types.js';

interface UnwrapOptions {
  host?: string;
  config?: string;
  project?: string;
  dryRun?: boolean;
}

export function define(program: Command): void {
  program
    .command('unwrap')
    .summary('restore host config entries that run through mcp-tap')
    .description(
      'Puts the original command and args back into entries that start their server through mcp-tap. After `mcp-tap wrap` ' +
        'with no other edit in between, the file is byte for byte what it was.',
    )
    .argument('[names...]', 'server entries to unwrap (default: every wrapped entry)')
    .option('--host <host>', `${HOST_IDS.join(', ')}, a comma list, or all`, 'all')
    .option('--config <file>', 'edit this config file instead of looking for the hosts\' files')
    .option('--project <dir>', 'project whose project-level configs count (.mcp.json, .vscode/mcp.json, .gemini/settings.json, …; default: current directory)')
    .option('--dry-run', 'show the changes as a diff and write nothing')
    .action(async (names: string[], opts: UnwrapOptions) => {
      await runEdit('unwrap', names, opts, {
        hostEnv: processHostEnv(opts.project),
        out: (line) => process.stdout.write(`${line}\n`),
      });
    });
}
