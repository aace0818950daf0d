/**
 * A session's view, the same for the HTML report and the live UI: the head line, the waterfall, the
 * filters and the message list with its bodies, drawn from the rows a page hands it (`open`, `add`)
 * and the bodies its source gives. Its state is a few small objects: the session and its fold, the
 * filter, the time window (Waterfall.tv), the list's open and selected rows. Rows that stream in are
 * applied once per animation frame; the waterfall of a big live session is redrawn at most every
 * `redrawMs`. Browser code.
 */
import { filterRows, NO_FILTER, rowOk, type Filter } from '../filter.js';
import { SessionFold } from '../fold.js';
import type { SessionInfo, SessionRow } from '../row.js';
import { bodyText } from '../text.js';
import { byId } from './dom.js';
import { FilterBar } from './filter-bar.js';
import { SessionHead } from './head.js';
import { MessageList } from './message-list.js';
import type { BodySource } from './source.js';
import { Tooltip } from './tooltip.js';
import { Waterfall } from './waterfall.js';

export interface ViewOptions {
  /** Keep the list at the newest row while the person has not scrolled up (the live UI). */
  follow: boolean;
  /** While rows stream in, redraw the waterfall at most this often (ms). */
  redrawMs: number;
}

export class SessionView {
  info: SessionInfo | null = null;
  fold: SessionFold | null = null;
  filter: Filter = { ...NO_FILTER };
  /** The session may still grow. */
  live = false;
  readonly head = new SessionHead(byId('session-head'));
  readonly bar: FilterBar;
  readonly list: MessageList;
  readonly wf: Waterfall;
  private frame = 0;
  /** Rows came since the list was last made. */
  private rowsDirty = false;
  /** Rows already run through the filter; -1: all of them again. */
  private filteredUpTo = -1;
  private drawn = 0;
  private drawLater = 0;

  constructor(
    source: BodySource,
    private readonly opts: ViewOptions,
  ) {
    const tip = new Tooltip(byId('tip'));
    this.bar = new FilterBar(() => {
      this.filter = this.bar.read();
      this.refilter();
    });
    this.list = new MessageList(byId('list'), byId('list-spacer'), source, { fold: () => this.fold, live: () => this.live, toggle: (seq) => this.toggle(seq) }, opts.follow);
    this.wf = new Waterfall(byId('wf-body'), byId('wf-range'), byId<HTMLButtonElement>('z-all'), tip, {
      fold: () => this.fold,
      filter: () => this.filter,
      selected: () => this.list.selected,
      pick: (seq) => this.select(seq, true),
      viewChanged: () => (this.filter.range ? this.refilter() : this.wf.draw()),
    });
    byId('z-in').addEventListener('click', () => this.wf.zoomBy(0.5));
    byId('z-out').addEventListener('click', () => this.wf.zoomBy(2));
    byId('z-all').addEventListener('click', () => this.wf.setView(this.wf.tv.full[0], this.wf.tv.full[1]));
    document.addEventListener('click', (ev) => {
      const a = ev.target instanceof Element ? ev.target.closest('a.goto') : null;
      if (!a || !this.fold) return;
      ev.preventDefault();
      this.select(Number(a.getAttribute('data-goto')), false);
      if (a.closest('.session-head')) document.getElementById('messages')?.scrollIntoView({ block: 'start' });
    });
    window.addEventListener('resize', () => this.redraw());
  }

  /** Shows a new session with its rows so far; `live`: more may come. */
  open(info: SessionInfo, rows: readonly SessionRow[], live: boolean): void {
    this.info = info;
    this.live = live;
    const fold = new SessionFold(info.duration ?? 0);
    fold.add(rows);
    this.fold = fold;
    this.list.reset();
    this.wf.reset();
    this.wf.show(true);
    this.filter = this.bar.reset(fold);
    this.refilter();
  }

  /** No session: an empty view with the head's words for it. */
  close(): void {
    this.info = null;
    this.fold = null;
    this.list.reset();
    this.list.render();
    this.wf.reset();
    this.wf.show(false);
    this.bar.count.textContent = '';
    this.head.render(null, null);
  }

  /** More rows of the open session (the ones it holds already are skipped). */
  add(rows: readonly SessionRow[]): void {
    if (!this.fold || this.fold.addNew(rows) === 0) return;
    this.rowsDirty = true;
    this.later();
  }

  /** Moves the open session's end on (a live session: open requests run to now): the waterfall only. */
  extendTo(t: number): void {
    if (!this.fold || t <= this.fold.end) return;
    this.fold.wf.extendTo(t);
    this.later();
  }

  /** Draws everything again (a body source changed what it answers, the window was resized). */
  redraw(): void {
    this.list.layout();
    this.wf.draw();
  }

  /** Filters every row again and draws (a filter or the time window changed). */
  refilter(): void {
    this.filteredUpTo = -1;
    this.flush(true);
  }

  /** Opens row `seq` in the list (and its bar in the waterfall), whatever hid it. */
  select(seq: number, fromWaterfall: boolean): void {
    const fold = this.fold;
    const i = fold?.indexOf(seq);
    if (!fold || i === undefined) return;
    const r = fold.rows[i]!;
    const tv = this.wf.tv;
    if (!rowOk(fold, i, this.filter, this.range())) {
      this.filter = { ...NO_FILTER, range: this.filter.range };
      this.bar.write(this.filter);
      if (this.filter.range && tv.zoomed() && (r.t < tv.view[0] || r.t > tv.view[1])) {
        const half = (tv.view[1] - tv.view[0]) / 2;
        tv.set(r.t - half, r.t + half);
      }
    }
    this.list.selected = seq;
    this.list.expanded.add(seq);
    const b = fold.barFor(r);
    if (b && !fromWaterfall) tv.reveal(b.start, b.end);
    this.refilter();
    this.list.scrollTo(seq);
    if (b && !fromWaterfall) this.wf.scrollTo(b);
    const rect = this.list.box.getBoundingClientRect();
    if (fromWaterfall && (rect.top > window.innerHeight - 120 || rect.bottom < 80)) document.getElementById('messages')?.scrollIntoView({ block: 'start' });
  }

  private toggle(seq: number): void {
    this.list.selected = seq;
    this.list.toggle(seq);
    this.wf.renderBars();
  }

  /** The time range the list keeps to, when it does. */
  private range(): [number, number] | null {
    return this.filter.range && this.wf.tv.zoomed() ? this.wf.tv.view : null;
  }

  private later(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.flush(false);
    });
  }

  /** Applies what changed: the filters' choices, the list, the count and the head when rows did; the waterfall. */
  private flush(now: boolean): void {
    const fold = this.fold;
    if (!fold) return;
    this.wf.tv.extent(fold.first, fold.end);
    if (now || this.rowsDirty) {
      this.rowsDirty = false;
      this.bar.options(fold);
      // an outcome can change when its answer comes, so those filters look at every row again
      const f = this.filter;
      if (this.filteredUpTo < 0 || f.outcome || f.err) this.list.idx = filterRows(fold, f, this.range());
      else for (const i of filterRows(fold, f, this.range(), this.filteredUpTo)) this.list.idx.push(i);
      this.filteredUpTo = fold.rows.length;
      this.list.show(this.list.idx);
      const n = fold.rows.length;
      const shown = this.list.idx.length;
      this.bar.count.textContent = shown === n ? `${n} messages` : `${shown} of ${n} messages`;
      this.head.render(this.info, fold);
    }
    const t = performance.now();
    if (now || t - this.drawn >= this.opts.redrawMs) {
      this.drawn = t;
      this.wf.draw();
    } else if (!this.drawLater) {
      this.drawLater = window.setTimeout(() => {
        this.drawLater = 0;
        this.drawn = performance.now();
        this.wf.draw();
      }, this.opts.redrawMs);
    }
  }

  /** A small API for tests and for people poking at the page from the console. */
  readonly api = {
    bars: () => (this.fold?.wf.bars ?? []).map((b) => ({ key: b.key, seq: b.seq, item: b.item, from: b.from, method: b.method, target: b.target, start: b.start, end: b.end, outcome: b.outcome, answer: b.answerSeq, progress: b.progress.length, cancelAt: b.cancelAt, task: b.task?.status })),
    waterfallBars: () => this.wf.shown.map((b) => b.key),
    visibleRows: () => this.list.seqs(),
    rows: () => (this.fold?.rows ?? []).map((r) => r.s),
    setFilter: (f: Partial<Filter>) => {
      this.filter = { ...this.filter, ...f, ...(f.text !== undefined ? { text: String(f.text).toLowerCase() } : {}) };
      this.bar.write(this.filter);
      this.refilter();
    },
    setView: (a: number, b: number) => this.wf.setView(a, b),
    view: () => this.wf.tv.view.slice(),
    select: (seq: number) => this.select(seq, false),
    figures: () => (this.fold ? this.fold.figures() : null),
    choices: () => ({ method: [...this.bar.method.options].map((o) => o.value), kind: [...this.bar.kind.options].map((o) => o.value), finding: [...this.bar.finding.options].map((o) => o.value) }),
    bodyText: (seq: number) => {
      const r = this.fold?.row(seq);
      return r ? bodyText(r) : undefined;
    },
  };
}
