/**
 * The tooltip over the waterfall: what a bar or a lane's tick stands for (method, target, direction,
 * times, outcome, error text, its task, its progress and its cancel). Browser code.
 */
import type { Bar } from '../bars.js';
import type { SessionFold } from '../fold.js';
import { fmtMs } from '../format.js';
import type { SessionRow } from '../row.js';
import { clip, DIR_TEXT, fmtOff, idText, OUTCOME_TEXT, summaryText, vis } from '../text.js';
import { el } from './dom.js';

type Part = string | HTMLElement | null | undefined | false;

function line(parent: HTMLElement, parts: Part[]): void {
  const d = el('div');
  for (const p of parts) {
    if (typeof p === 'string') d.appendChild(document.createTextNode(p));
    else if (p) d.appendChild(p);
  }
  parent.appendChild(d);
}

/** An outcome as a coloured pill. */
export function pill(o: string): HTMLElement {
  return el('span', `pill o-${o}`, OUTCOME_TEXT[o] ?? o);
}

function what(b: Bar): string {
  const took = fmtMs(b.ms !== undefined ? b.ms : b.end - b.start);
  switch (b.outcome) {
    case 'unanswered':
      return `no answer by the end of the session (${fmtMs(b.end - b.start)} waiting)`;
    case 'running':
      return `its task was still running at the end of the session (${fmtMs(b.end - b.start)} so far)`;
    case 'cancelled':
      return `cancelled${b.cancelAt !== undefined ? ` at ${fmtOff(b.cancelAt)}` : ''}${b.answerSeq !== undefined ? `, answered anyway in ${fmtMs(b.ms)} (#${b.answerSeq})` : ', never answered'}`;
    case 'refused':
      return `discovery probe refused in ${fmtMs(b.ms)} (#${String(b.answerSeq)}): the client falls back to initialize`;
    default:
      return `${b.outcome === 'ok' ? 'answered' : b.outcome === 'error' ? 'error answer' : 'tool failed (isError)'} in ${took} (#${String(b.answerSeq)})${b.cancelAt !== undefined ? `; cancel sent at ${fmtOff(b.cancelAt)}, after the answer` : ''}`;
  }
}

export function barTip(b: Bar): HTMLElement {
  const t = el('div');
  line(t, [el('b', null, vis(b.method)), b.target !== undefined ? ' ' : '', b.target !== undefined ? el('span', 'tgt', vis(clip(b.target, 120))) : null]);
  line(t, [el('span', 'muted', `${DIR_TEXT[b.from[0]!]}${b.id !== undefined ? ` \u00b7 id ${idText(b.id)}` : ''} \u00b7 #${b.seq}${b.item !== undefined ? ` (batch element ${b.item + 1})` : ''}`)]);
  line(t, [pill(b.outcome), what(b)]);
  if (b.errorText) line(t, [el('span', 'err', vis(b.errorText))]);
  if (b.task) line(t, ['task ', el('span', 'tgt', vis(clip(b.task.id, 60))), ` \u00b7 ${vis(b.task.status)} \u00b7 created ${fmtOff(b.task.at)}; the bar runs to the task's end`]);
  line(t, [el('span', 'muted', `sent ${fmtOff(b.start)}${b.outcome !== 'unanswered' ? ` \u00b7 ended ${fmtOff(b.end)}` : ''}`)]);
  if (b.progress.length) line(t, [`${b.progress.length} progress notification${b.progress.length === 1 ? '' : 's'}`]);
  return t;
}

export function rowTip(fold: SessionFold, r: SessionRow): HTMLElement {
  const t = el('div');
  line(t, [el('b', null, r.k === 'event' ? `event ${r.e ?? ''}` : r.k), r.m ? ' ' : '', r.m ? el('span', 'tgt', vis(r.m)) : null]);
  line(t, [el('span', 'muted', `${DIR_TEXT[r.f]} \u00b7 #${r.s} \u00b7 ${fmtOff(r.t)}`)]);
  const s = summaryText(fold, r);
  if (s) line(t, [clip(s, 300)]);
  for (const n of r.n ?? []) line(t, [el('span', 'err', vis(n.code))]);
  return t;
}

/** The one tooltip element of the page. */
export class Tooltip {
  constructor(private readonly tip: HTMLElement) {}

  show(content: HTMLElement, ev: MouseEvent): void {
    this.tip.textContent = '';
    this.tip.appendChild(content);
    this.tip.hidden = false;
    this.move(ev);
  }

  move(ev: MouseEvent): void {
    const tip = this.tip;
    if (tip.hidden) return;
    let x = ev.clientX + 14;
    let y = ev.clientY + 16;
    const r = tip.getBoundingClientRect();
    if (x + r.width > window.innerWidth - 8) x = Math.max(8, ev.clientX - r.width - 14);
    if (y + r.height > window.innerHeight - 8) y = Math.max(8, ev.clientY - r.height - 12);
    tip.style.left = `${x}px`;
    tip.style.top = `${y}px`;
  }

  hide(): void {
    this.tip.hidden = true;
  }
}
