/** The demo's words on stdout: a short narrative of each step, then what the log recorded. Pure: text out. */
import type { ChalkInstance } from 'chalk';
import { escapeControl } from '../text/escape.js';
import type { DemoServer } from './locate-server.js';
import type { DriveResult, StepResult } from './drive.js';
import type { RecordedSummary } from './log-summary.js';

const STEP_WIDTH = 42;
const KIND_ORDER = ['request', 'response', 'error', 'notification', 'batch', 'invalid', 'stderr', 'event'];

/** Milliseconds as people read them: 0.42 ms, 12.3 ms, 1.21 s. */
export function formatMs(ms: number): string {
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 100) return `${Math.round(ms)} ms`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  return `${ms.toFixed(2)} ms`;
}

/** A path as it can be pasted into a POSIX shell. */
export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Wire text shown on a terminal: control characters escaped, one line, bounded length. */
function wire(text: string, max = 90): string {
  const t = escapeControl(text.replace(/\s*\n\s*/g, ' ').trim());
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

export function renderHeader(c: ChalkInstance, server: DemoServer, logPath: string): string {
  return [
    c.bold('mcp-tap demo'),
    `  The official MCP SDK client plays the host. It starts mcp-tap, and mcp-tap starts ${server.label}.`,
    '  Every byte between them passes through the tap unchanged; the log records each message.',
    '',
    `  ${c.cyan('host (SDK client)')} ⇄ ${c.bold('mcp-tap')} ⇄ ${c.cyan(server.kind === 'everything' ? 'server-everything' : 'demo server')}`,
    `  log → ${escapeControl(logPath)}`,
    '',
    '',
  ].join('\n');
}

export function renderStep(c: ChalkInstance, s: StepResult): string {
  const mark = s.ok ? c.green('✓') : c.red('✗');
  const name = s.step.padEnd(STEP_WIDTH);
  const time = formatMs(s.ms).padStart(9);
  return `  ${mark} ${name}${c.dim(time)}  ${s.ok ? wire(s.detail) : c.red(wire(s.detail))}\n`;
}

export function renderProgress(c: ChalkInstance, p: { progress: number; total?: number; ms: number }): string {
  return c.dim(`      · progress ${p.progress}${p.total !== undefined ? `/${p.total}` : ''} at ${formatMs(p.ms)}\n`);
}

/** The summary of what the log holds for this session. */
export function renderSummary(c: ChalkInstance, sum: RecordedSummary | null, run: DriveResult, logPath: string, logBytes: number | null, problem?: string): string {
  const lines: string[] = [''];
  if (!sum) {
    lines.push(c.yellow(`  The log could not be read back${problem ? `: ${escapeControl(problem)}` : ''}.`), '');
    return lines.join('\n');
  }
  const size = logBytes === null ? '' : `, file ${(logBytes / 1024).toFixed(1)} kB`;
  lines.push(c.bold(`What mcp-tap recorded`) + c.dim(` (session ${escapeControl(sum.session)}: ${sum.records} records${size})`));
  const row = (label: string, text: string) => lines.push(`  ${label.padEnd(10)} ${text}`);
  const accounted = sum.messages.client === run.sent && sum.messages.server === run.received;
  row(
    'messages',
    `${sum.messages.client} from the host, ${sum.messages.server} from the server` +
      (accounted ? c.green(' — the host sent and received exactly these') : c.yellow(` — the host counted ${run.sent} sent, ${run.received} received`)),
  );
  const order = (k: string) => {
    const i = KIND_ORDER.indexOf(k);
    return i === -1 ? KIND_ORDER.length : i;
  };
  const kinds = Object.entries(sum.byKind).sort(([a], [b]) => order(a) - order(b) || a.localeCompare(b));
  row('by kind', kinds.map(([k, n]) => `${k} ${n}`).join(' · '));
  row('requests', `${sum.requests.client} from the host, ${sum.requests.server} from the server; ${sum.answered} answered`);
  if (sum.calls.length > 0) {
    const computed = sum.calls.some((x) => x.source === 'times') ? '; from record times where an answer has no ms' : '';
    row('latency', c.dim(`(each answer's ms in the log${computed})`));
    for (const call of sum.calls) {
      const name = `${call.method}${call.target ? ` ${call.target}` : ''}`;
      lines.push(`    ${wire(name, STEP_WIDTH - 3).padEnd(STEP_WIDTH - 2)}${formatMs(call.ms).padStart(9)}${call.isError ? c.red('  error') : ''}`);
    }
  }
  if (sum.notes.length === 0) row('findings', c.green('none'));
  else {
    lines.push('  findings');
    for (const n of sum.notes) lines.push(`    ${c.yellow(n.code)}${n.count > 1 ? ` ×${n.count}` : ''}  ${wire(n.text, 100)}`);
  }
  if (sum.stderrLines > 0) row('stderr', `${sum.stderrLines} line${sum.stderrLines === 1 ? '' : 's'} from the server, copied to mcp-tap's stderr and logged`);
  const lifecycle = sum.events.filter((e) => e !== 'start' && e !== 'lifecycle' && e !== 'gap');
  row('lifecycle', lifecycle.join(' → '));
  if (sum.lost > 0) row('lost', c.yellow(`${sum.lost} records could not be written (see the gap events)`));
  if (!sum.ended) row('note', c.yellow('the session has no end record yet (mcp-tap may still be finishing)'));
  const q = shellQuote(logPath);
  lines.push('', c.bold('Look closer'), `  mcp-tap tail ${q}`, `  mcp-tap stats ${q}`, `  mcp-tap export ${q}`, '');
  return lines.join('\n') + '\n';
}
