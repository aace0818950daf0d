/**
 * `mcp-tap ls` as text: one row per session (newest first) with server, id, start, duration, counts,
 * exit status and file. Pure: session summaries in, a table out. Names, ids and paths are escaped.
 */
import type { SessionSummary } from '../log/session-summary.js';
import { makeChalk, type ColorLevel } from './color.js';
import { formatDateTime, formatDuration, padLeft, padRight } from './format.js';
import { jsonLine } from './json-line.js';
import { wireText } from './wire-text.js';

/** Sessions newest first: by start time, then by the time of their last record, then by file order. */
export function sortSessions(sessions: readonly SessionSummary[]): SessionSummary[] {
  const key = (s: SessionSummary) => s.start ?? s.end ?? Number.NEGATIVE_INFINITY;
  return sessions
    .map((s, i) => ({ s, i }))
    .sort((a, b) => key(b.s) - key(a.s) || b.i - a.i)
    .map((x) => x.s);
}

/** The exit column: the code, the signal, or why there is none. */
export function exitLabel(s: SessionSummary): string {
  if (typeof s.signal === 'string' && s.signal) return s.signal;
  if (typeof s.exitCode === 'number') return String(s.exitCode);
  return s.ended ? '?' : '-';
}

interface Column {
  title: string;
  align: 'left' | 'right';
  cell: (s: SessionSummary) => string;
  style?: (s: SessionSummary, c: ReturnType<typeof makeChalk>) => ((t: string) => string) | undefined;
}

const COLUMNS: Column[] = [
  { title: 'SERVER', align: 'left', cell: (s) => wireText(s.serverName ?? '?', 40) },
  { title: 'SESSION', align: 'left', cell: (s) => wireText(s.id, 40) },
  { title: 'STARTED', align: 'left', cell: (s) => formatDateTime(s.start) },
  { title: 'DURATION', align: 'right', cell: (s) => (s.durationMs !== undefined ? formatDuration(s.durationMs) : '-') },
  { title: 'MSGS', align: 'right', cell: (s) => String(s.messages) },
  {
    title: 'ERRORS',
    align: 'right',
    cell: (s) => String(s.errors + s.toolErrors),
    style: (s, c) => (s.errors + s.toolErrors > 0 ? c.red : undefined),
  },
  { title: 'FINDINGS', align: 'right', cell: (s) => String(s.findings), style: (s, c) => (s.findings > 0 ? c.yellow : undefined) },
  {
    title: 'EXIT',
    align: 'right',
    cell: exitLabel,
    style: (s, c) => (typeof s.signal === 'string' || (typeof s.exitCode === 'number' && s.exitCode !== 0) ? c.red : !s.ended ? c.gray : undefined),
  },
  { title: 'PATH', align: 'left', cell: (s) => wireText(s.path) },
];

/** The table, header first; every line ends with a newline. */
export function renderSessionTable(sessions: readonly SessionSummary[], opts: { color: ColorLevel | boolean }): string {
  const c = makeChalk(opts.color);
  const rows = sessions.map((s) => COLUMNS.map((col) => col.cell(s)));
  const widths = COLUMNS.map((col, i) => Math.max(col.title.length, ...rows.map((r) => r[i]!.length)));
  const fit = (text: string, i: number) => {
    const col = COLUMNS[i]!;
    if (i === COLUMNS.length - 1) return text; // last column: no trailing padding
    return col.align === 'right' ? padLeft(text, widths[i]!) : padRight(text, widths[i]!);
  };
  const lines = [c.bold(COLUMNS.map((col, i) => fit(col.title, i)).join('  '))];
  sessions.forEach((s, r) => {
    const cells = rows[r]!.map((text, i) => {
      const padded = fit(text, i);
      const style = COLUMNS[i]!.style?.(s, c);
      return style ? style(padded) : padded;
    });
    lines.push(cells.join('  '));
  });
  return lines.map((l) => `${l}\n`).join('');
}

/** `ls --json`: the session summaries as one JSON array, one session per line, terminal-safe. */
export function renderSessionJson(sessions: readonly SessionSummary[]): string {
  if (sessions.length === 0) return '[]\n';
  return `[\n${sessions.map((s) => `  ${jsonLine(s)}`).join(',\n')}\n]\n`;
}
