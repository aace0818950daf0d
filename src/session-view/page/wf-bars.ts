/**
 * One row of the waterfall: the request's label (direction, method, target, seq) and its bar on the
 * time track, coloured by outcome, with a mark per progress notification, a mark where it was
 * cancelled, the span of its task (from the CreateTaskResult to the task's end), and how it ended
 * written beside it. Browser code.
 */
import type { Bar } from '../bars.js';
import { DIR, outcomeShort, vis } from '../text.js';
import { el } from './dom.js';
import type { TimeView } from './time-view.js';

export const ROW_H = 24;

function barLabel(b: Bar): HTMLElement {
  const lab = el('div', 'wf-label');
  lab.appendChild(el('span', 'wlabel-dir', DIR[b.from[0]!]));
  lab.appendChild(el('span', 'wlabel-m', vis(b.method)));
  if (b.target !== undefined) lab.appendChild(el('span', 'wlabel-t', vis(b.target)));
  lab.appendChild(el('span', 'wlabel-s', `#${b.seq}${b.item !== undefined ? `.${b.item + 1}` : ''}`));
  lab.title = b.method + (b.target !== undefined ? ` ${b.target}` : '');
  return lab;
}

/** A mark `px` from the bar's left end, when it falls between `lo` and `hi`. */
function mark(bar: HTMLElement, cls: string, px: number, lo: number, hi: number): void {
  if (px < lo || px > hi) return;
  const m = el('i', cls);
  m.style.left = `${px}px`;
  bar.appendChild(m);
}

/** The row of bar `b`, the `i`-th of the rows shown. */
export function barRow(b: Bar, i: number, tv: TimeView, selected: number | null): HTMLElement {
  const sel = selected !== null && (b.seq === selected || b.answerSeq === selected);
  const row = el('div', `wrow${sel ? ' sel' : ''}`);
  row.style.top = `${i * ROW_H}px`;
  row.setAttribute('data-key', b.key);
  row.appendChild(barLabel(b));
  const track = el('div', 'wf-track');
  const W = tv.width;
  const left = Math.max(-4, Math.min(W + 4, tv.x(b.start)));
  const right = Math.max(-4, Math.min(W + 4, tv.x(b.end)));
  const width = Math.max(2, right - left);
  const bar = el('div', `bar o-${b.outcome}${sel ? ' sel' : ''}`);
  bar.setAttribute('data-seq', String(b.seq));
  bar.setAttribute('data-outcome', b.outcome);
  bar.setAttribute('data-method', b.method);
  bar.setAttribute('data-key', b.key);
  if (b.item !== undefined) bar.setAttribute('data-item', String(b.item));
  bar.style.left = `${left}px`;
  bar.style.width = `${width}px`;
  if (b.task) {
    // the task's span: from the CreateTaskResult to the task's end (or the session's)
    const from = Math.max(0, tv.x(b.task.at) - left);
    const span = el('i', 'task-span');
    span.style.left = `${from}px`;
    span.style.width = `${Math.max(0, width - from)}px`;
    span.title = `task ${b.task.id}: ${b.task.status}`;
    bar.appendChild(span);
  }
  for (const t of b.progress) mark(bar, 'pm', tv.x(t) - left, 0, width);
  // a cancel that came after the answer stands past the bar's end
  if (b.cancelAt !== undefined) mark(bar, 'cm', tv.x(b.cancelAt) - left, -left, W - left);
  track.appendChild(bar);
  const text = outcomeShort(b);
  const lat = el('span', 'lat', text);
  const tw = text.length * 6.6 + 8;
  if (left + width + tw < W) lat.style.left = `${left + width + 6}px`;
  else if (left - tw > 0) lat.style.left = `${left - tw}px`;
  else {
    lat.className = 'lat in';
    lat.style.left = `${Math.max(0, left) + 6}px`;
  }
  track.appendChild(lat);
  row.appendChild(track);
  return row;
}
