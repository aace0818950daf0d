/**
 * The rules `tail` draws where a session starts and ends (pure): when, which session and server, how it
 * ended, what was left unanswered or still running, and the findings of the start and end records.
 */
import type { LogRecord } from '../log/record.js';
import { asObject, formatClock, formatDateTime, shorten } from './format.js';
import type { LineCtx } from './line-style.js';
import { ID_MAX, notesOf } from './record-parts.js';
import { renderBody } from './render-body.js';
import type { SessionInfo } from './session-context.js';
import { wireId, wireText } from './wire-text.js';

function rule(label: string, ctx: LineCtx, style: (s: string) => string): string {
  const lead = '──── ';
  const room = ctx.width - lead.length - label.length - 1;
  return style(`${lead}${label} ${'─'.repeat(Math.max(4, Math.min(room, 200)))}`);
}

/** The rule above a session: its start time, id, name, pid and command. */
export function startSeparator(r: LogRecord, ctx: LineCtx): string {
  const parts: string[] = [formatDateTime(r.time) + formatClock(r.time).slice(8)];
  parts.push(`session ${wireText(r.session ?? '?', 40)}`);
  if (r.name !== undefined) parts.push(wireText(r.name, 60));
  if (typeof r.pid === 'number') parts.push(`mcp-tap pid ${r.pid}`);
  const cmd = r.command !== undefined ? wireText(r.command, 80) : '';
  const args = Array.isArray(r.args) ? r.args.map((a) => wireText(a, 60)).join(' ') : '';
  const command = `${cmd}${args ? ' ' + args : ''}`;
  if (command) parts.push(shorten(command, Math.max(60, ctx.width - parts.join('  ').length - 12)));
  let out = rule(parts.join('  '), ctx, ctx.c.boldCyan);
  const notes = notesOf(r);
  for (const n of notes) out += `\n${ctx.c.yellow(`  ⚠ ${wireText(n.text, 400)} [${wireText(n.code, 60)}]`)}`;
  if (ctx.full) {
    const body = renderBody(r, { indent: '  ' });
    if (body) out += `\n${ctx.c.dim(body)}`;
  }
  return out;
}

/** The rule below a session: how the server ended, what stayed unanswered or running. */
export function endSeparator(r: LogRecord, ctx: LineCtx, info: SessionInfo | undefined): string {
  const parts: string[] = [formatClock(r.time), `end of session ${wireText(r.session ?? '?', 40)}`];
  if (info?.name !== undefined) parts.push(wireText(info.name, 60));
  let bad = false;
  // the exit event seen earlier, else what the end record itself says
  const signal = info?.exitSignal ?? (typeof r.exitSignal === 'string' ? r.exitSignal : undefined);
  const code = info?.exitCode ?? (typeof r.exitCode === 'number' ? r.exitCode : undefined);
  if (signal) {
    parts.push(`killed by ${wireText(signal, 20)}`);
    bad = true;
  } else if (typeof code === 'number') {
    parts.push(`exit ${code}`);
    bad = code !== 0;
  }
  const pending = Array.isArray(r.pending) ? (r.pending as unknown[]) : [];
  if (pending.length) {
    const list = pending
      .slice(0, 5)
      .map((p) => {
        const o = asObject(p) ?? {};
        return `${wireText(o.method ?? '?', 40)} ${wireId(o.id, ID_MAX)}${typeof o.seq === 'number' ? ` #${o.seq}` : ''}`;
      })
      .join(', ');
    parts.push(`${pending.length} unanswered: ${list}${pending.length > 5 ? ', …' : ''}`);
  }
  const running = typeof r.openTaskCount === 'number' ? r.openTaskCount : 0;
  if (running > 0) parts.push(`${running} task${running === 1 ? '' : 's'} still running`);
  let out = rule(parts.join('  '), ctx, bad || pending.length ? ctx.c.boldYellow : ctx.c.boldCyan);
  for (const n of notesOf(r)) out += `\n${ctx.c.yellow(`  ⚠ ${wireText(n.text, 400)} [${wireText(n.code, 60)}]`)}`;
  if (ctx.full) {
    const body = renderBody(r, { indent: '  ' });
    if (body) out += `\n${ctx.c.dim(body)}`;
  }
  return out;
}
