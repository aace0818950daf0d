/** `mcp-tap check`: a session's findings, errors, unanswered requests and assertions as a CI gate (exit 1 on failure). */
import type { Command } from 'commander';
import { DEFAULT_TIMEOUT_MS, FORMATS, planCheck, type CheckCliOptions, type Format } from '../../check/check-options.js';
import { DEFAULT_FAIL_ON, FAIL_ON_VALUES } from '../../check/fail-on.js';
import { renderJunit } from '../../check/render-junit.js';
import { renderSarif } from '../../check/render-sarif.js';
import { renderText } from '../../check/render-text.js';
import type { CheckReport } from '../../check/report.js';
import { checkLog, checkRun } from '../../check/run-check.js';
import { addRedactFlags, collectOption, outputRedaction, type RedactSwitch } from '../../transcript/redact-options.js';
import { writeOutput } from '../../transcript/write-output.js';
import { setExitCode } from '../program.js';
import { warn } from '../stderr.js';

function render(format: Format, report: CheckReport): string {
  switch (format) {
    case 'text':
      return renderText(report);
    case 'json':
      return `${JSON.stringify(report, null, 2)}\n`;
    case 'sarif':
      return renderSarif(report, { cwd: process.cwd() });
    case 'junit':
      return renderJunit(report);
  }
}

/** Registers `check`. */
export function define(program: Command): void {
  const cmd = program
    .command('check')
    .summary('check a session (or run a server and check it): findings, security, errors, unanswered requests, assertions, token budgets; exit 1 on failure')
    .description(
      'Reads a session of a log (default: the last session of the most recent log) and reports every finding the log ' +
        'carries, security findings (hidden Unicode, injected instructions, rug pulls, credentials on the wire), JSON-RPC errors, ' +
        'isError results, unanswered requests, schema problems in tool definitions and failed ' +
        'assertions. With --run, starts the server through mcp-tap, drives a standard session with the official SDK client ' +
        '(initialize, tools/resources/prompts list, ping, and only the --call tool calls) and checks that session. ' +
        `Exit 0 when nothing named in --fail-on occurred (default ${DEFAULT_FAIL_ON.join(',')}), 1 when something did, 2 for a ` +
        'usage error. Rule ids and formats: docs/check.md.',
    )
    .argument('[file-or-command...]', 'the log file; with --run, the server command and its arguments (after --)')
    .option('--session <which>', "'last' or a session id (or unique prefix) of the log; one session per check ('all' is refused)")
    .option('--format <format>', FORMATS.join(', '), 'text')
    .option('-o, --output <file>', 'write the report to this file instead of stdout (the text verdict then goes to stderr)')
    .option('--fail-on <list>', `categories that fail the check: ${FAIL_ON_VALUES.join(', ')}, all or none (repeatable)`, collectOption)
    .option('--max-ms <name=ms>', 'latency limit for a method (tools/call), a tool, prompt or resource uri, or * (repeatable)', collectOption)
    .option('--expect-tool <name>', 'the server must list this tool (repeatable)', collectOption)
    .option('--forbid-tool <name>', 'the server must neither list nor be asked to run this tool (repeatable)', collectOption)
    .option('--max-context-tokens <n>', 'the tool definitions and instructions must cost at most n tokens (o200k_base)')
    .option('--max-result-tokens <n>', 'every tool result must cost at most n tokens (o200k_base)')
    .option('--run', 'start the server given after -- through mcp-tap and check that session')
    .option('--call <tool=json>', "--run: call this tool with these JSON arguments, e.g. echo='{\"message\":\"hi\"}' (repeatable)", collectOption)
    .option('--timeout <ms>', `--run: deadline of each step, initialize included (default ${DEFAULT_TIMEOUT_MS})`)
    .option('--log <file>', '--run: keep the session in this log file (appended) instead of a temporary one')
    .option('--name <name>', '--run: server name for the log (default: derived from the command)');
  addRedactFlags(cmd, 'show what the findings quote exactly as logged, secrets included (default: redacted as by export)')
    .action(async (operands: string[], opts: CheckCliOptions & RedactSwitch) => {
      const plan = planCheck(operands, opts);
      const redact = outputRedaction(opts);
      let report: CheckReport;
      let after: (() => Promise<void>) | undefined;
      if (plan.run) {
        const r = await checkRun(plan);
        report = r.report;
        if (r.temporary) {
          if (report.passed) after = r.cleanup;
          else warn(`the log of this session is kept at ${r.logPath}`);
        }
      } else {
        report = await checkLog(plan, warn);
      }
      try {
        const shown = redact(report);
        await writeOutput(plan.output, [render(plan.format, shown)], process.stdout, plan.format === 'text' ? 'text' : 'data');
        if (plan.output !== undefined && plan.output !== '-' && plan.format !== 'text') process.stderr.write(renderText(shown));
      } finally {
        await after?.();
      }
      setExitCode(report.passed ? 0 : 1);
    });
}
