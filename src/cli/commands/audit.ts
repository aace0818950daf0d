/** `mcp-tap audit`: every server's log at once — shadowed tool names, descriptions naming other servers' tools, each server's security findings. */
import type { Command } from 'commander';
import { readAudit, auditTargets } from '../../audit/read-audit.js';
import { renderAuditJson, renderAuditSarif, renderAuditText } from '../../audit/render-audit.js';
import { UsageError } from '../../errors.js';
import { writeOutput } from '../../transcript/write-output.js';
import { addRedactFlags, outputRedaction, type RedactSwitch } from '../../transcript/redact-options.js';
import { setExitCode } from '../program.js';
import { warn } from '../stderr.js';

interface AuditCliOptions {
  format: string;
  output?: string;
  exitCode?: boolean;
}

const FORMATS = ['text', 'json', 'sarif'];

/** Registers `audit`. */
export function define(program: Command): void {
  const cmd = program
    .command('audit')
    .summary('every server a host runs: shadowed tool names, cross-server references, security findings, context cost')
    .description(
      'Reads the latest session of every log (default: every *.jsonrpc.log of the default log directory, one per server a ' +
        'wrapped host runs) and reports tool names offered by more than one server, descriptions that name another ' +
        "server's tools, each server's security findings (hidden Unicode, injected instructions, rug pulls, credentials " +
        'on the wire) and what each costs in tokens before the first message. Exit 0 unless --exit-code and a finding. ' +
        'See docs/check.md.',
    )
    .argument('[logs...]', 'log files or directories of logs (default: the default log directory)')
    .option('--format <format>', FORMATS.join(', '), 'text')
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .option('--exit-code', 'exit 1 when there is any finding');
  addRedactFlags(cmd, 'show names and texts exactly as logged, secrets included (default: redacted as by export)')
    .action(async (inputs: string[], opts: AuditCliOptions & RedactSwitch) => {
      const redact = outputRedaction(opts);
      const format = opts.format.toLowerCase();
      if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, got ${JSON.stringify(opts.format)}`);
      const report = await readAudit(await auditTargets(inputs), warn);
      const shown = redact(report);
      const text = format === 'json' ? renderAuditJson(shown) : format === 'sarif' ? renderAuditSarif(shown, { cwd: process.cwd() }) : renderAuditText(shown);
      await writeOutput(opts.output, [text], process.stdout, format === 'text' ? 'text' : 'data');
      if (opts.exitCode && report.findings.length > 0) setExitCode(1);
    });
}
