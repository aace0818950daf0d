/**
 * The selected session's message list: virtualised (only the rows in view are in the DOM), growing at
 * the bottom and following the newest row while the person has not scrolled up. Browser code.
 */
import type { LiveRow } from '../live-row.js';
import { el, vis } from '../../report/page/dom.js';
import { fmtBytes, fmtClock, fmtMs } from '../../report/page/format.js';
import type { SessionRows } from './session-rows.js';

export const ROW_H = 24;
const DIR: Record<LiveRow['f'], string> = { c: '→', s: '←', p: '•' };

export class MessageList {
  private idx: number[] = [];
  private selected: number | null = null;
  private stick = true;

  constructor(
    private readonly box: HTMLElement,
    private readonly spacer: HTMLElement,
    private readonly onPick: (row: LiveRow) => void,
  ) {
    box.addEventListener('scroll', () => {
      this.stick = box.scrollTop + box.clientHeight >= box.scrollHeight - ROW_H;
      this.render();
    });
    box.addEventListener('click', (ev) => {
      const target = ev.target instanceof Element ? ev.target.closest<HTMLElement>('.lrow') : null;
      const seq = Number(target?.dataset['seq']);
      const row = this.data?.rows.find((r) => r.s === seq);
      if (!row) return;
      this.selected = seq;
      this.render();
      this.onPick(row);
    });
  }

  private data: SessionRows | null = null;

  /** Shows `idx` (indexes into data.rows); keeps the scroll at the bottom when it was there. */
  show(data: SessionRows, idx: number[]): void {
    const fresh = data !== this.data;
    this.data = data;
    this.idx = idx;
    if (fresh) {
      this.selected = null;
      this.stick = true;
    }
    this.spacer.style.height = `${idx.length * ROW_H}px`;
    if (this.stick) this.box.scrollTop = this.box.scrollHeight;
    this.render();
  }

  /** The seqs currently listed (after filters), for tests and the count. */
  seqs(): number[] {
    const rows = this.data?.rows ?? [];
    return this.idx.map((i) => rows[i]!.s);
  }

  private render(): void {
    const data = this.data;
    this.spacer.textContent = '';
    if (!data) return;
    const top = this.box.scrollTop;
    const h = this.box.clientHeight || 600;
    const first = Math.max(0, Math.floor(top / ROW_H) - 5);
    const last = Math.min(this.idx.length, Math.ceil((top + h) / ROW_H) + 5);
    const frag = document.createDocumentFragment();
    for (let i = first; i < last; i++) {
      const r = data.rows[this.idx[i]!]!;
      const e = this.rowEl(data, r);
      e.style.top = `${i * ROW_H}px`;
      frag.appendChild(e);
    }
    this.spacer.appendChild(frag);
  }

  private rowEl(data: SessionRows, r: LiveRow): HTMLElement {
    const outcome = data.outcomeOf(r);
    const bad = outcome === 'error' || outcome === 'isError' || r.k === 'invalid' || r.n !== undefined;
    const e = el('div', `lrow${bad ? ' bad' : ''}${this.selected === r.s ? ' sel' : ''}`);
    e.dataset['seq'] = String(r.s);
    e.dataset['kind'] = r.k;
    e.appendChild(el('span', 'c-t', fmtClock(r.t)));
    e.appendChild(el('span', 'c-s', `#${r.s}`));
    e.appendChild(el('span', 'c-d', DIR[r.f]));
    e.appendChild(el('span', `c-k k-${r.k}`, r.k));
    const what = r.k === 'event' ? `${r.e ?? ''}${r.v ? ` · ${r.v}` : ''}` : r.k === 'batch' ? (r.bm ?? []).join(', ') : (r.m ?? '');
    const m = el('span', 'c-m', vis(what));
    if (r.g !== undefined) m.appendChild(el('span', 'tg', vis(r.g)));
    if (r.n) m.appendChild(el('span', 'note-b', `⚠ ${r.n.join(', ')}`));
    e.appendChild(m);
    e.appendChild(el('span', 'c-i', r.i !== undefined ? `id ${vis(r.i)}` : ''));
    let status = '';
    if (r.k === 'request') {
      const a = data.answerTo(r.s);
      const d = data.barFor(r.s)?.taskMs ?? (outcome === 'running' ? undefined : a?.d);
      status = `${outcome === 'unanswered' ? 'waiting' : outcome === 'running' ? 'task running' : (outcome ?? '')}${d !== undefined ? ` ${fmtMs(d)}` : ''}`;
    } else if (r.d !== undefined) status = `${fmtMs(r.d)} ↩ #${r.r ?? '?'}`;
    e.appendChild(el('span', `c-x${outcome ? ` o-${outcome}` : ''}`, status));
    e.appendChild(el('span', 'c-b', fmtBytes(r.b)));
    return e;
  }
}
