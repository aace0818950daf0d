/**
 * The waterfall of a session: the overview, the time axis and the lanes of ticks on canvases, and below
 * them one row per request, virtualised (only the rows in view are in the document). Zoom by dragging
 * on the axis or the overview, the buttons, Ctrl+wheel; pan with Shift+wheel. It draws what the fold
 * holds through the filter the host gives it, and tells the host when a bar or tick is picked or the
 * time range changed. Browser code.
 */
import type { Bar, Tick } from '../bars.js';
import { barOk, type Filter } from '../filter.js';
import type { SessionFold } from '../fold.js';
import { fmtOff } from '../text.js';
import { el, morph, syncChildren } from './dom.js';
import { barTip, rowTip, type Tooltip } from './tooltip.js';
import { AXIS_H, canvasIn, drawAxis, drawLane, drawOverview, LANE_H, OV_H } from './wf-canvas.js';
import { barRow, ROW_H } from './wf-bars.js';
import { TimeView } from './time-view.js';

/** What the waterfall asks of the view it is part of. */
export interface WaterfallHost {
  fold(): SessionFold | null;
  filter(): Filter;
  selected(): number | null;
  /** A bar or a tick was clicked. */
  pick(seq: number): void;
  /** The time range changed (the list may keep to it). */
  viewChanged(): void;
}

const LANES = [
  { key: 'nc', label: '\u2192 notifications from the client' },
  { key: 'ns', label: '\u2190 notifications from the server' },
  { key: 'e', label: 'stderr' },
  { key: 'o', label: 'invalid lines, unpaired answers, events' },
] as const;

interface Lane {
  key: string;
  row: HTMLElement;
  label: HTMLElement;
  canvas: HTMLCanvasElement;
  ticks: Tick[];
}

function trackRow(cls: string, label: string): { row: HTMLElement; label: HTMLElement; track: HTMLElement } {
  const row = el('div', `wf-row ${cls}`);
  const lab = el('div', 'wf-label', label);
  const track = el('div', 'wf-track');
  row.appendChild(lab);
  row.appendChild(track);
  return { row, label: lab, track };
}

export class Waterfall {
  readonly tv = new TimeView();
  /** The bars shown now: passing the filter, overlapping the time range. */
  shown: Bar[] = [];
  /** The bar rows in the document by key. */
  private drawn = new Map<string, Element>();
  private readonly wf = el('div', 'wf');
  private readonly ov = canvasIn(el('div'), OV_H);
  private readonly ax = canvasIn(el('div'), AXIS_H);
  private readonly axTrack: HTMLElement;
  private readonly grid = el('div', 'wf-grid');
  private readonly spacer = el('div', 'wf-spacer');
  private readonly scroll = el('div', 'wf-scroll');
  private readonly holder = el('div', 'wf-holder');
  private readonly empty = el('div', 'wf-empty');
  private lanes: Lane[] = [];
  private frame = 0;

  constructor(
    root: HTMLElement,
    private readonly range: HTMLElement,
    private readonly zAll: HTMLButtonElement,
    private readonly tip: Tooltip,
    private readonly host: WaterfallHost,
  ) {
    const ov = trackRow('wf-ov', 'Whole session \u2014 drag to zoom');
    ov.track.appendChild(this.ov);
    const ovBrush = el('div', 'brush');
    ovBrush.hidden = true;
    ov.track.appendChild(ovBrush);
    const ax = trackRow('wf-axis', 'Time since start \u2014 drag to zoom');
    ax.track.appendChild(this.ax);
    const axBrush = el('div', 'brush');
    axBrush.hidden = true;
    ax.track.appendChild(axBrush);
    this.axTrack = ax.track;
    this.wf.appendChild(ov.row);
    this.wf.appendChild(ax.row);
    this.scroll.appendChild(this.spacer);
    this.holder.appendChild(this.grid);
    this.holder.appendChild(this.scroll);
    this.wf.appendChild(this.holder);
    this.empty.hidden = true;
    this.wf.appendChild(this.empty);
    root.textContent = '';
    root.appendChild(this.wf);
    root.appendChild(el('div', 'wf-help', 'Hover a bar for details, click it to open the message. Drag on the overview or the time axis to zoom into a range; double-click the axis, or \u201cWhole session\u201d, to zoom out. Ctrl+wheel zooms, Shift+wheel pans.'));
    this.scroll.addEventListener('scroll', () => this.later());
    this.scroll.addEventListener('mouseover', (ev) => this.hover(ev));
    this.scroll.addEventListener('mousemove', (ev) => tip.move(ev));
    this.scroll.addEventListener('mouseleave', () => tip.hide());
    this.scroll.addEventListener('click', (ev) => {
      const row = ev.target instanceof Element ? ev.target.closest('.wrow') : null;
      const b = row ? this.bar(row.getAttribute('data-key')) : undefined;
      if (b) host.pick(b.seq);
    });
    this.wf.addEventListener('wheel', (ev) => this.wheel(ev), { passive: false });
    this.drag(ax.track, axBrush, false);
    this.drag(ov.track, ovBrush, true);
    ax.track.addEventListener('dblclick', () => this.setView(this.tv.full[0], this.tv.full[1]));
  }

  /** Shows [a, b] and tells the host. */
  setView(a: number, b: number): void {
    this.tv.set(a, b);
    this.host.viewChanged();
  }

  zoomBy(f: number, at?: number): void {
    this.tv.zoomBy(f, at);
    this.host.viewChanged();
  }

  /** Shows the waterfall, or hides it while there is no session. */
  show(on: boolean): void {
    this.wf.hidden = !on;
  }

  /** Forgets the session shown (a new one opens): its bars, its lanes, its scroll. */
  reset(): void {
    for (const l of this.lanes) l.row.remove();
    this.lanes = [];
    this.shown = [];
    this.drawn.clear();
    this.scroll.scrollTop = 0;
    this.tv.view = [this.tv.full[0], this.tv.full[1]];
  }

  /** Draws everything from the fold: the bars that pass, the canvases, the rows in view. */
  draw(): void {
    const fold = this.host.fold();
    if (!fold) return;
    this.tv.width = Math.max(10, this.axTrack.clientWidth);
    const f = this.host.filter();
    const [v0, v1] = this.tv.view;
    const shown: Bar[] = [];
    const passing: Bar[] = [];
    for (const b of fold.wf.bars) {
      if (!barOk(fold, b, f)) continue;
      passing.push(b);
      if (b.end >= v0 && b.start <= v1) shown.push(b);
    }
    this.shown = shown;
    this.spacer.style.height = `${shown.length * ROW_H}px`;
    this.empty.hidden = shown.length > 0;
    this.empty.textContent = fold.wf.bars.length === 0 ? 'No requests in this session.' : 'No request matches the filters in this time range.';
    drawOverview(this.ov, passing, this.tv);
    const ticks = drawAxis(this.ax, this.tv);
    this.syncLanes(fold);
    for (const l of this.lanes) drawLane(l.canvas, l.key, l.ticks, this.tv);
    this.grid.textContent = '';
    for (const t of ticks) {
      const i = el('i');
      i.style.left = `${Math.round(this.tv.x(t))}px`;
      this.grid.appendChild(i);
    }
    this.renderBars();
    this.range.textContent = `${fmtOff(v0)} \u2013 ${fmtOff(v1)}${this.tv.zoomed() ? '  (zoomed)' : ''}`;
    this.zAll.disabled = !this.tv.zoomed();
  }

  /** Scrolls the rows so that bar `b` is in sight. */
  scrollTo(b: Bar): void {
    const k = this.shown.indexOf(b);
    if (k < 0) return;
    this.scroll.scrollTop = Math.max(0, k * ROW_H - 2 * ROW_H);
    this.renderBars();
  }

  /**
   * Redraws the rows in view (a selection changed, the rows scrolled, time went on). A bar already drawn
   * is updated in place (morph), not replaced: a live session redraws several times a second, and a click
   * held on a replaced bar would be lost.
   */
  renderBars(): void {
    const top = this.scroll.scrollTop;
    const h = this.scroll.clientHeight || 400;
    const i0 = Math.max(0, Math.floor(top / ROW_H) - 4);
    const i1 = Math.min(this.shown.length, Math.ceil((top + h) / ROW_H) + 4);
    const sel = this.host.selected();
    const drawn = new Map<string, Element>();
    const rows: Element[] = [];
    for (let i = i0; i < i1; i++) {
      const b = this.shown[i]!;
      const fresh = barRow(b, i, this.tv, sel);
      const before = this.drawn.get(b.key);
      const row = before !== undefined ? morph(before, fresh) : fresh;
      drawn.set(b.key, row);
      rows.push(row);
    }
    this.drawn = drawn;
    syncChildren(this.spacer, rows);
  }

  private later(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.renderBars();
    });
  }

  private bar(key: string | null): Bar | undefined {
    return key === null ? undefined : this.host.fold()?.wf.barByKey(key);
  }

  private syncLanes(fold: SessionFold): void {
    const lists: Record<string, () => Tick[]> = {
      nc: () => fold.wf.fromClient,
      ns: () => fold.wf.fromServer,
      e: () => fold.wf.stderr,
      o: () => fold.wf.other,
    };
    const next: Lane[] = [];
    for (const def of LANES) {
      let lane = this.lanes.find((l) => l.key === def.key);
      const ticks = lists[def.key]!();
      if (ticks.length === 0) continue;
      if (!lane) lane = this.lane(def.key);
      lane.ticks = ticks;
      lane.label.textContent = `${def.label} (${ticks.length})`;
      next.push(lane);
    }
    // keep the lanes in their order, above the bars
    for (const l of next) this.wf.insertBefore(l.row, this.holder);
    this.lanes = next;
  }

  private lane(key: string): Lane {
    const lr = trackRow('lane', '');
    lr.row.setAttribute('data-lane', key);
    const canvas = canvasIn(lr.track, LANE_H);
    const lane: Lane = { key, row: lr.row, label: lr.label, canvas, ticks: [] };
    canvas.addEventListener('mousemove', (ev) => {
      const t = this.nearest(ev, canvas, lane.ticks);
      const fold = this.host.fold();
      const r = t && fold ? fold.row(t.seq) : undefined;
      canvas.style.cursor = t ? 'pointer' : '';
      if (r && fold) this.tip.show(rowTip(fold, r), ev);
      else this.tip.hide();
    });
    canvas.addEventListener('mouseleave', () => this.tip.hide());
    canvas.addEventListener('click', (ev) => {
      const t = this.nearest(ev, canvas, lane.ticks);
      if (t) this.host.pick(t.seq);
    });
    return lane;
  }

  private nearest(ev: MouseEvent, c: HTMLCanvasElement, ticks: readonly Tick[]): Tick | null {
    const px = ev.clientX - c.getBoundingClientRect().left;
    let best: Tick | null = null;
    let bd = 5;
    for (const tk of ticks) {
      const d = Math.abs(this.tv.x(tk.t) - px);
      if (d <= bd) {
        bd = d;
        best = tk;
      }
    }
    return best;
  }

  private hover(ev: MouseEvent): void {
    const row = ev.target instanceof Element ? ev.target.closest('.wrow') : null;
    const b = row ? this.bar(row.getAttribute('data-key')) : undefined;
    if (b) this.tip.show(barTip(b), ev);
    else this.tip.hide();
  }

  private wheel(ev: WheelEvent): void {
    if (!(ev.ctrlKey || ev.metaKey || ev.shiftKey || Math.abs(ev.deltaX) > Math.abs(ev.deltaY))) return;
    const px = ev.clientX - this.axTrack.getBoundingClientRect().left;
    const tv = this.tv;
    if (px < 0 || px > tv.width) return;
    ev.preventDefault();
    if (ev.ctrlKey || ev.metaKey) this.zoomBy(ev.deltaY > 0 ? 1.25 : 0.8, tv.at(px));
    else {
      const d = ((ev.shiftKey ? ev.deltaY : ev.deltaX) / tv.width) * (tv.view[1] - tv.view[0]);
      this.setView(tv.view[0] + d, tv.view[1] + d);
    }
  }

  /** Drag across `track` to zoom into that range; on the overview a click centres the view there. */
  private drag(track: HTMLElement, brush: HTMLElement, whole: boolean): void {
    const px = (ev: MouseEvent): number => Math.max(0, Math.min(this.tv.width, ev.clientX - track.getBoundingClientRect().left));
    track.addEventListener('mousedown', (ev: MouseEvent) => {
      if (ev.button !== 0) return;
      ev.preventDefault();
      const start = px(ev);
      brush.style.left = `${start}px`;
      brush.style.width = '0px';
      brush.hidden = false;
      const move = (e: MouseEvent): void => {
        const p = px(e);
        brush.style.left = `${Math.min(p, start)}px`;
        brush.style.width = `${Math.abs(p - start)}px`;
      };
      const up = (e: MouseEvent): void => {
        window.removeEventListener('mousemove', move);
        window.removeEventListener('mouseup', up);
        brush.hidden = true;
        const p = px(e);
        if (Math.abs(p - start) >= 4) this.setView(this.tv.at(Math.min(p, start), whole), this.tv.at(Math.max(p, start), whole));
        else if (whole) {
          const c = this.tv.at(p, true);
          const half = (this.tv.view[1] - this.tv.view[0]) / 2;
          this.setView(c - half, c + half);
        }
      };
      window.addEventListener('mousemove', move);
      window.addEventListener('mouseup', up);
    });
  }
}
