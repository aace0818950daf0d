/**
 * The waterfall's time window: the whole session (`full`), the range shown (`view`), and the width of
 * the time track in pixels. A small typed state object; zooming and panning only go through `set`, which
 * keeps the view inside the session. No DOM.
 */
export class TimeView {
  full: [number, number] = [0, 1];
  view: [number, number] = [0, 1];
  /** Width of the time track, px. */
  width = 100;

  /** Sets the session's extent; an unzoomed view follows it (a live session grows). */
  extent(first: number, end: number): void {
    const was = this.zoomed();
    const lo = Math.min(0, first);
    let hi = Math.max(end, 0);
    if (hi - lo < 1) hi = lo + 1;
    this.full = [lo, hi + (hi - lo) * 0.01];
    if (!was) this.view = [this.full[0], this.full[1]];
    else this.set(this.view[0], this.view[1]);
  }

  zoomed(): boolean {
    return this.view[0] > this.full[0] + 1e-9 || this.view[1] < this.full[1] - 1e-9;
  }

  /** Pixel of time `t` in the view. */
  x(t: number): number {
    return ((t - this.view[0]) / (this.view[1] - this.view[0])) * this.width;
  }

  /** Time at pixel `px` of the view (or of the whole session: `whole`). */
  at(px: number, whole = false): number {
    const [a, b] = whole ? this.full : this.view;
    return a + (px / this.width) * (b - a);
  }

  /** Shows [a, b], kept inside the session and no narrower than a microsecond-ish. */
  set(a: number, b: number): void {
    const [f0, f1] = this.full;
    const minSpan = Math.max(0.001, (f1 - f0) * 1e-7);
    if (b - a < minSpan) {
      const c = (a + b) / 2;
      a = c - minSpan / 2;
      b = c + minSpan / 2;
    }
    const span = Math.min(b - a, f1 - f0);
    if (a < f0) {
      a = f0;
      b = a + span;
    }
    if (b > f1) {
      b = f1;
      a = b - span;
    }
    this.view = [a, b];
  }

  /** Zooms by `f` around `at` (the middle by default): 0.5 in, 2 out. */
  zoomBy(f: number, at = (this.view[0] + this.view[1]) / 2): void {
    this.set(at - (at - this.view[0]) * f, at + (this.view[1] - at) * f);
  }

  /** Centres the view on [t0, t1] at its current span, when that range is out of sight. */
  reveal(t0: number, t1: number): void {
    if (t1 >= this.view[0] && t0 <= this.view[1]) return;
    const half = (this.view[1] - this.view[0]) / 2;
    const c = (t0 + Math.min(t1, t0 + half)) / 2;
    this.set(c - half, c + half);
  }
}
