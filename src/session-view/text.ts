/**
 * The words and numbers of a session's view: wire text made visible, times since the start, what a
 * row or a bar says in one line. Pure, no DOM, shared by the list, the waterfall and the tooltips.
 */
import type { Bar } from './bars.js';
import type { SessionFold } from './fold.js';
import { fmtMs } from './format.js';
import type { SessionRow } from './row.js';

const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** Control and bidi characters made visible (a log may hold anything a server printed). */
export function vis(s: string): string {
  return s.replace(UNSAFE, (ch) => {
    const c = ch.charCodeAt(0);
    return c <= 0xff ? `\\x${c.toString(16).padStart(2, '0')}` : `\\u${c.toString(16).padStart(4, '0')}`;
  });
}

export const OUTCOME_TEXT: Record<string, string> = { ok: 'ok', error: 'error', isError: 'isError', cancelled: 'cancelled', unanswered: 'no answer', refused: 'refused probe', running: 'task running' };
export const OUTCOME_COLOR: Record<string, string> = { ok: '#2563eb', error: '#dc2626', isError: '#d97706', cancelled: '#6b7280', unanswered: '#7c3aed', refused: '#94a3b8', running: '#0d9488' };
export const DIR: Record<string, string> = { c: '\u2192', s: '\u2190', p: '\u00b7' };
export const DIR_TEXT: Record<string, string> = { c: 'client \u2192 server', s: 'server \u2192 client', p: 'mcp-tap' };

/** `+1.234 s` since the session started. */
export function fmtOff(t: number): string {
  return `${t < 0 ? '\u2212' : '+'}${(Math.abs(t) / 1000).toFixed(3)} s`;
}

export function idText(i: unknown): string {
  return i === undefined ? '' : vis(JSON.stringify(i));
}

export function clip(text: unknown, n: number): string {
  const s = String(text);
  return s.length > n ? `${s.slice(0, n - 1)}\u2026` : s;
}

/** A round step for an axis over `span` with about `count` ticks. */
export function niceStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const pow = Math.pow(10, Math.floor(Math.log10(raw)));
  const m = raw / pow;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * pow;
}

/** An axis label at `t` for ticks `step` apart. */
export function axisLabel(t: number, step: number): string {
  const sign = t < 0 ? '\u2212' : '';
  t = Math.abs(t);
  if (t === 0) return '0';
  if (step >= 60000) {
    const min = Math.floor(t / 60000 + 1e-9);
    const sec = Math.round((t - min * 60000) / 1000);
    return `${sign}${min} min${sec ? ` ${sec} s` : ''}`;
  }
  if (step >= 100) return `${sign}${(t / 1000).toFixed(Math.max(0, Math.ceil(-Math.log10(step / 1000) - 1e-9)))} s`;
  return `${sign}${t.toFixed(Math.max(0, Math.ceil(-Math.log10(step) - 1e-9)))} ms`;
}

/** How a bar ended, short, for the label beside it. */
export function outcomeShort(b: Bar): string {
  if (b.outcome === 'unanswered') return 'no answer';
  if (b.outcome === 'running') return 'task running';
  if (b.outcome === 'cancelled') return `cancelled${b.ms !== undefined ? ` \u00b7 ${fmtMs(b.ms)}` : ''}`;
  if (b.outcome === 'refused') return 'refused probe';
  if (b.outcome === 'error') return `${b.errorText ? `error ${clip(vis(b.errorText.split(' ')[0] ?? ''), 12)}` : 'error'}${b.ms !== undefined ? ` \u00b7 ${fmtMs(b.ms)}` : ''}`;
  if (b.outcome === 'isError') return `isError \u00b7 ${fmtMs(b.ms)}`;
  return fmtMs(b.ms !== undefined ? b.ms : b.end - b.start);
}

/** The text a body holds, made visible: plain text as it is, JSON pretty-printed. */
export function bodyText(r: SessionRow): string {
  if (r.y === undefined) return '';
  if (r.yt) return vis(r.y === null ? '' : String(r.y));
  return vis(JSON.stringify(r.y, null, 2));
}

function has(r: SessionRow, flag: string): boolean {
  return r.x !== undefined && r.x.includes(flag);
}

function notificationText(r: SessionRow): string {
  if (r.m === 'notifications/progress') return `${r.v ?? 'progress'}${r.r !== undefined ? ` for #${r.r}` : ''}`;
  if (r.m === 'notifications/cancelled') return `cancels ${r.r !== undefined ? `#${r.r}` : `id ${idText(r.q)}`}`;
  if (r.m === 'notifications/message') return vis(r.v ?? '');
  return '';
}

function baseText(fold: SessionFold, r: SessionRow): string {
  switch (r.k) {
    case 'request': {
      const bar = fold.wf.request(r.s);
      if (!bar) return r.i === null ? 'id null: not tracked' : '';
      const a = bar.answerSeq !== undefined ? fold.row(bar.answerSeq) : undefined;
      if (bar.task && bar.outcome !== 'running' && bar.ms !== undefined) return `${OUTCOME_TEXT[bar.outcome]} in ${fmtMs(bar.ms)} (its task)`;
      return `${OUTCOME_TEXT[bar.outcome]}${a && a.d !== undefined && bar.outcome !== 'running' ? ` in ${fmtMs(a.d)}` : ''}${bar.answerSeq !== undefined ? ` (#${bar.answerSeq})` : ''}`;
    }
    case 'response':
      return `answers #${String(r.r)}${r.d !== undefined ? ` in ${fmtMs(r.d)}` : ''}${has(r, 'E') ? ' \u00b7 isError' : ''}${has(r, 'I') ? ' \u00b7 input required' : ''}`;
    case 'error':
      return `${has(r, 'R') ? 'refused probe \u00b7 ' : ''}${vis(r.et ?? '')}${r.r !== undefined ? ` \u00b7 answers #${r.r}` : ''}`;
    case 'notification':
      return notificationText(r);
    case 'batch':
      return `${r.it ? r.it.length : 0} elements`;
    case 'stderr':
    case 'invalid':
      return typeof r.y === 'string' ? vis(clip(r.y, 300)) : '';
    case 'event':
      return vis(r.v ?? '');
  }
  return '';
}

/** What a row says in one line: its outcome, what it answers, its task. */
export function summaryText(fold: SessionFold, r: SessionRow): string {
  const s = baseText(fold, r);
  if (r.to !== undefined) return `${s}${s ? ' \u00b7 ' : ''}task of #${r.to}${r.ts ? ` ${vis(r.ts)}` : ''}${r.td !== undefined ? `, ended after ${fmtMs(r.td)}` : ''}`;
  if (r.tk !== undefined && r.k === 'response') return `${s} \u00b7 task created${r.ts ? ` (${vis(r.ts)})` : ''}`;
  return s;
}

/** What the head line says of the session: counts that grow as rows come. */
export function figuresText(fold: SessionFold): string {
  const f = fold.figures();
  const parts = [`${f.messages} messages`, `${f.requests} requests`, `${f.errors} errors`, `${f.findings} findings`];
  if (f.unanswered > 0) parts.push(`${f.unanswered} unanswered`);
  if (f.running > 0) parts.push(`${f.running} tasks running`);
  return parts.join(' \u00b7 ');
}
