/** `mcp-tap doctor`: start each configured stdio server through mcp-tap and say why it does or does not work. */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { processHostEnv } from '../../hosts/discover.js';
import { probeServer } from '../../hosts/doctor-probe.js';
import { runDoctor } from '../../hosts/doctor-run.js';
import { setExitCode } from '../program.js';
import { HOST_IDS } from '../../hosts/types.js';

interface DoctorCliOptions {
  host?: string;
  config?: string;
  project?: string;
  timeout: string;
  keepLogs?: boolean;
}

export function define(program: Command): void {
  program
    .command('doctor')
    .summary('start each configured server through mcp-tap and explain what fails')
    .description(
      'For each stdio server in the hosts\' MCP configs (or the ones named): finds its command on PATH as the host would, ' +
        'starts it through mcp-tap, runs initialize and tools/list with the official SDK client, and reports in plain words: ' +
        'not found, not executable, exited before initialize (with its last stderr lines), non-JSON on stdout, or the ' +
        'protocol version, number of tools and time to initialize. Exit status 0 when all are healthy, 1 otherwise.',
    )
    .argument('[names...]', 'server entries to check (default: all)')
    .option('--host <host>', `${HOST_IDS.join(', ')}, a comma list, or all`, 'all')
    .option('--config <file>', 'check the servers in this config file')
    .option('--project <dir>', 'project whose project-level configs count (.mcp.json, .vscode/mcp.json, .gemini/settings.json, …; default: current directory)')
    .option('--timeout <ms>', 'how long to wait for initialize and for tools/list', '15000')
    .option('--keep-logs', 'keep the mcp-tap log of each check and print its path')
    .action(async (names: string[], opts: DoctorCliOptions) => {
      if (!/^\d+$/.test(opts.timeout) || Number(opts.timeout) < 1) throw new UsageError(`--timeout takes milliseconds, got ${JSON.stringify(opts.timeout)}`);
      const script = process.argv[1];
      if (!script) throw new UsageError('cannot tell where mcp-tap is installed');
      const healthy = await runDoctor(
        names,
        { host: opts.host, config: opts.config, timeoutMs: Number(opts.timeout), keepLogs: opts.keepLogs },
        {
          hostEnv: processHostEnv(opts.project),
          out: (line) => process.stdout.write(`${line}\n`),
          tap: { command: process.execPath, args: [resolve(script)] },
          probe: probeServer,
        },
      );
      if (!healthy) setExitCode(1);
    });
}
