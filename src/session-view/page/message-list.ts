/**
 * The message list: every row the filters let through, virtualised (only the rows in view are in the
 * document, whatever their number), each unfolding into its details and body. Open rows are measured
 * and the layout follows their height. With `follow` (the live UI) the list stays at the newest row
 * while the person has not scrolled up. Browser code.
 */
import type { SessionFold } from '../fold.js';
import type { SessionRow } from '../row.js';
import { bodyBlock, detail } from './body-pane.js';
import { el, syncChildren } from './dom.js';
import { listRow } from './list-row.js';
import type { BodySource, BodyText } from './source.js';

const LIST_H = 27;
/** Bodies fetched and kept for open rows (the live UI); the oldest go first. */
const BODIES_KEPT = 200;

/** What the list asks of the view it is part of. */
export interface ListHost {
  fold(): SessionFold | null;
  /** The session may still grow (the live UI): an open request says "no answer yet". */
  live(): boolean;
  /** A row's head was clicked. */
  toggle(seq: number): void;
}

type Fetched = { body: BodyText } | { failed: string };

/** A row element in the document, with what it was drawn from. */
interface Drawn {
  e: HTMLElement;
  sig: string;
}

export class MessageList {
  /** Indexes (into the fold's rows) of the rows shown. */
  idx: number[] = [];
  selected: number | null = null;
  readonly expanded = new Set<number>();
  private off = new Float64Array(1);
  private readonly heights = new Map<number, number>();
  private readonly bodies = new Map<number, Fetched>();
  private readonly loading = new Set<number>();
  private stick: boolean;
  private relayouts = 0;
  private frame = 0;
  /** Bumped when fetched bodies are dropped: an answer asked for before is then stale. */
  private generation = 0;
  /** The rows in the document by seq. */
  private drawn = new Map<number, Drawn>();

  constructor(
    readonly box: HTMLElement,
    private readonly spacer: HTMLElement,
    private readonly source: BodySource,
    private readonly host: ListHost,
    private readonly follow: boolean,
  ) {
    this.stick = follow;
    box.addEventListener('scroll', () => {
      if (this.follow) this.stick = box.scrollTop + box.clientHeight >= box.scrollHeight - LIST_H;
      this.later();
    });
    box.addEventListener('click', (ev) => {
      const head = ev.target instanceof Element ? ev.target.closest('.lhead') : null;
      const seq = Number((head?.parentNode as HTMLElement | null)?.getAttribute('data-seq'));
      if (head && Number.isFinite(seq)) host.toggle(seq);
    });
  }

  /** A new session: nothing open or selected, at the top (or, following, at the bottom). */
  reset(): void {
    this.expanded.clear();
    this.heights.clear();
    this.dropFetched();
    this.selected = null;
    this.stick = this.follow;
    this.idx = [];
    this.box.scrollTop = 0;
  }

  /** Forgets the bodies fetched (they are to be fetched again, e.g. revealed). */
  dropBodies(): void {
    this.dropFetched();
    this.render();
  }

  private dropFetched(): void {
    this.bodies.clear();
    this.loading.clear();
    this.generation++;
  }

  /** Shows these rows. */
  show(idx: number[]): void {
    this.idx = idx;
    this.layout();
  }

  /** The seqs listed, in order. */
  seqs(): number[] {
    const rows = this.host.fold()?.rows ?? [];
    return this.idx.map((i) => rows[i]!.s);
  }

  toggle(seq: number): void {
    if (this.expanded.has(seq)) {
      this.expanded.delete(seq);
      this.heights.delete(seq);
    } else this.expanded.add(seq);
    this.layout();
  }

  /** Scrolls row `seq` into view and flashes it; false when it is not listed. */
  scrollTo(seq: number): boolean {
    const rows = this.host.fold()?.rows ?? [];
    let pos = -1;
    for (let i = 0; i < this.idx.length; i++) {
      if (rows[this.idx[i]!]!.s === seq) {
        pos = i;
        break;
      }
    }
    if (pos < 0) return false;
    this.stick = false;
    this.box.scrollTop = Math.max(0, this.off[pos]! - 60);
    this.render();
    const row = document.getElementById(`seq-${seq}`);
    if (row) {
      // a row kept from the last render flashes again
      row.classList.remove('flash');
      void row.offsetWidth;
      row.classList.add('flash');
    }
    return true;
  }

  layout(): void {
    const rows = this.host.fold()?.rows ?? [];
    const n = this.idx.length;
    const off = new Float64Array(n + 1);
    for (let i = 0; i < n; i++) {
      const s = rows[this.idx[i]!]!.s;
      off[i + 1] = off[i]! + (this.expanded.has(s) ? (this.heights.get(s) ?? LIST_H) : LIST_H);
    }
    this.off = off;
    this.spacer.style.height = `${off[n]}px`;
    if (this.stick) this.box.scrollTop = this.box.scrollHeight;
    this.render();
  }

  /**
   * Draws the rows in view. A row whose line, details and body are as drawn before keeps its element: a
   * live session renders with every frame of new rows, and a rebuilt row would lose a click held on it
   * and any text selected in its body.
   */
  render(): void {
    const fold = this.host.fold();
    if (!fold) {
      this.drawn.clear();
      this.spacer.textContent = '';
      return;
    }
    const top = this.box.scrollTop;
    const h = this.box.clientHeight || 600;
    const live = this.host.live();
    const drawn = new Map<number, Drawn>();
    const nodes: HTMLElement[] = [];
    const made: [number, HTMLElement][] = [];
    for (let i = Math.max(0, this.firstAt(top) - 3); i < this.idx.length && this.off[i]! < top + h + 300; i++) {
      const r = fold.rows[this.idx[i]!]!;
      const open = this.expanded.has(r.s);
      const head = listRow(fold, r, open, this.selected === r.s);
      let sig = head.outerHTML;
      // an open row: its details (links, notes, a batch's answers) as they are now, the body where it stands
      let details: { box: HTMLElement; slot: HTMLElement } | null = null;
      if (open) {
        const slot = el('div');
        details = { box: detail(fold, r, live, slot), slot };
        sig += `\u0000${details.box.outerHTML}\u0000${this.bodyState(r.s)}`;
      }
      const before = this.drawn.get(r.s);
      let e: HTMLElement;
      if (before !== undefined && before.sig === sig) e = before.e;
      else {
        e = head;
        if (details !== null) {
          details.slot.replaceWith(this.body(r));
          e.appendChild(details.box);
        }
      }
      if (open) made.push([r.s, e]);
      const y = `${this.off[i]}px`;
      if (e.style.top !== y) e.style.top = y;
      drawn.set(r.s, { e, sig });
      nodes.push(e);
    }
    this.drawn = drawn;
    syncChildren(this.spacer, nodes);
    let changed = false;
    for (const [seq, e] of made) {
      const hh = e.offsetHeight;
      if (this.heights.get(seq) !== hh) {
        this.heights.set(seq, hh);
        changed = true;
      }
    }
    if (changed && this.relayouts < 2) {
      this.relayouts++;
      this.layout();
      this.relayouts--;
    }
  }

  /** Where an open row's body stands (fetched, failed, on its way), with the generation it belongs to. */
  private bodyState(seq: number): string {
    const got = this.bodies.get(seq);
    return `${this.generation}:${got === undefined ? (this.loading.has(seq) ? 'loading' : 'none') : 'body' in got ? 'body' : 'failed'}`;
  }

  private later(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  private firstAt(y: number): number {
    let lo = 0;
    let hi = this.idx.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.off[mid + 1]! <= y) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The body block of an open row: at once, from what was fetched, or fetched now. */
  private body(r: SessionRow): HTMLElement {
    const got = this.bodies.get(r.s);
    if (got) return 'body' in got ? bodyBlock(r.s, got.body) : bodyBlock(r.s, undefined, got.failed);
    const answer = this.source.body(r);
    if (!(answer instanceof Promise)) return bodyBlock(r.s, answer);
    if (!this.loading.has(r.s)) {
      this.loading.add(r.s);
      const generation = this.generation;
      answer
        .then((body): Fetched => ({ body }), (err: unknown): Fetched => ({ failed: (err as Error).message }))
        .then((got) => {
          if (this.generation !== generation) return;
          this.loading.delete(r.s);
          if (this.bodies.size >= BODIES_KEPT) this.bodies.delete(this.bodies.keys().next().value!);
          this.bodies.set(r.s, got);
          this.layout();
        });
    }
    return bodyBlock(r.s, undefined);
  }
}

