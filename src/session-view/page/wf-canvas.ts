/**
 * The waterfall's canvases: the overview of the whole session (a miniature of the bars, or requests in
 * flight over time with marks where the failures are), the time axis, and the lanes of ticks. Drawing
 * only: what to draw comes in as arguments. Browser code.
 */
import type { Bar, Tick } from '../bars.js';
import { axisLabel, niceStep, OUTCOME_COLOR } from '../text.js';
import { el } from './dom.js';
import type { TimeView } from './time-view.js';

export const AXIS_H = 30;
export const OV_H = 46;
export const LANE_H = 20;
/** Up to this many bars the overview draws each; past it, requests in flight. */
const MINI_MAX = 120;
const TAG_COLOR: Record<string, string> = { invalid: '#dc2626', response: '#d97706', error: '#dc2626', batch: '#2563eb' };

export function canvasIn(parent: HTMLElement, h: number): HTMLCanvasElement {
  const c = el('canvas');
  c.style.height = `${h}px`;
  parent.appendChild(c);
  return c;
}

/** The canvas sized to its box at the device's pixel ratio, cleared. */
function fit(c: HTMLCanvasElement, h: number): CanvasRenderingContext2D {
  const w = Math.max(10, (c.parentNode as HTMLElement).clientWidth);
  const dpr = window.devicePixelRatio || 1;
  if (c.width !== Math.round(w * dpr) || c.height !== Math.round(h * dpr)) {
    c.width = Math.round(w * dpr);
    c.height = Math.round(h * dpr);
  }
  const ctx = c.getContext('2d')!;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, h);
  return ctx;
}

/** Tick times for an axis over [a, b], about one every 110 px. */
function ticksFor(a: number, b: number, px: number): { step: number; ticks: number[] } {
  const step = niceStep(b - a, px / 110);
  const out: number[] = [];
  for (let t = Math.ceil(a / step) * step; t <= b + step * 1e-6; t += step) out.push(Math.abs(t) < step * 1e-6 ? 0 : t);
  return { step, ticks: out };
}

/** The time axis; returns the tick times (the grid behind the bars uses them). */
export function drawAxis(c: HTMLCanvasElement, tv: TimeView): number[] {
  const ctx = fit(c, AXIS_H);
  const W = tv.width;
  const tk = ticksFor(tv.view[0], tv.view[1], W);
  ctx.fillStyle = '#f8fafc';
  ctx.fillRect(0, 0, W, AXIS_H);
  ctx.font = '12px system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif';
  ctx.textBaseline = 'middle';
  for (const t of tk.ticks) {
    const x = Math.round(tv.x(t)) + 0.5;
    ctx.strokeStyle = '#6b7280';
    ctx.beginPath();
    ctx.moveTo(x, AXIS_H - 8);
    ctx.lineTo(x, AXIS_H);
    ctx.stroke();
    const label = axisLabel(t, tk.step);
    const w = ctx.measureText(label).width;
    ctx.fillStyle = '#111827';
    ctx.fillText(label, Math.min(Math.max(x - w / 2, 2), W - w - 2), AXIS_H / 2 - 3);
  }
  return tk.ticks;
}

/** Index of the first value ≥ t in a sorted array. */
function below(arr: Float64Array, t: number): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if (arr[m]! < t) lo = m + 1;
    else hi = m;
  }
  return lo;
}

/** Many bars: requests in flight per pixel column, and marks where they failed. */
function inFlight(ctx: CanvasRenderingContext2D, shown: readonly Bar[], tv: TimeView, xo: (t: number) => number): void {
  const n = shown.length;
  const W = tv.width;
  const span = tv.full[1] - tv.full[0];
  const h = OV_H - 8;
  const starts = new Float64Array(n);
  const ends = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    starts[j] = shown[j]!.start;
    ends[j] = shown[j]!.end;
  }
  starts.sort();
  ends.sort();
  const cols = Math.max(1, Math.floor(W));
  const act = new Float64Array(cols);
  let max = 1;
  for (let c = 0; c < cols; c++) {
    act[c] = below(starts, tv.full[0] + ((c + 1) / cols) * span) - below(ends, tv.full[0] + (c / cols) * span);
    if (act[c]! > max) max = act[c]!;
  }
  const ah = h - 6;
  const y = (k: number) => 4 + ah - (act[k]! / max) * ah;
  ctx.fillStyle = '#bfdbfe';
  ctx.beginPath();
  ctx.moveTo(0, 4 + ah);
  for (let k = 0; k < cols; k++) ctx.lineTo(k + 0.5, y(k));
  ctx.lineTo(cols, 4 + ah);
  ctx.closePath();
  ctx.fill();
  ctx.strokeStyle = '#2563eb';
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (let k = 0; k < cols; k++) {
    if (k === 0) ctx.moveTo(0, y(k));
    else ctx.lineTo(k + 0.5, y(k));
  }
  ctx.stroke();
  ctx.fillStyle = '#374151';
  ctx.font = '10.5px system-ui, sans-serif';
  ctx.textBaseline = 'top';
  ctx.fillText(`max ${max} in flight`, 4, 3);
  for (const o of ['isError', 'error', 'unanswered']) {
    ctx.fillStyle = OUTCOME_COLOR[o]!;
    let lastX = NaN;
    for (const b of shown) {
      if (b.outcome !== o) continue;
      const x = Math.round(xo(o === 'unanswered' ? b.start : b.end));
      if (x === lastX) continue;
      lastX = x;
      ctx.fillRect(x - 1, OV_H - 7, 2, 6);
    }
  }
}

/** The whole session at a glance, with the zoomed range outlined. */
export function drawOverview(c: HTMLCanvasElement, shown: readonly Bar[], tv: TimeView): void {
  const ctx = fit(c, OV_H);
  const W = tv.width;
  const span = tv.full[1] - tv.full[0];
  const h = OV_H - 8;
  const xo = (t: number): number => ((t - tv.full[0]) / span) * W;
  ctx.fillStyle = '#f8fafc';
  ctx.fillRect(0, 0, W, OV_H);
  const n = shown.length;
  if (n <= MINI_MAX) {
    // few requests: a miniature of the whole waterfall
    const lh = Math.max(1, Math.min(4, h / Math.max(1, n)));
    for (let i = 0; i < n; i++) {
      const b = shown[i]!;
      const x0 = xo(b.start);
      const x1 = Math.max(xo(b.end), x0 + 1.5);
      ctx.fillStyle = OUTCOME_COLOR[b.outcome] ?? '#2563eb';
      ctx.fillRect(x0, 4 + (n > 1 ? (i / (n - 1)) * (h - lh) : h / 2 - lh / 2), x1 - x0, lh);
    }
  } else inFlight(ctx, shown, tv, xo);
  if (tv.zoomed()) {
    const a = xo(tv.view[0]);
    const z = xo(tv.view[1]);
    ctx.fillStyle = 'rgba(17,24,39,0.10)';
    ctx.fillRect(0, 0, a, OV_H);
    ctx.fillRect(z, 0, W - z, OV_H);
    ctx.strokeStyle = '#111827';
    ctx.lineWidth = 1.5;
    ctx.strokeRect(a + 0.75, 0.75, Math.max(1, z - a - 1.5), OV_H - 1.5);
  }
}

/** One lane of ticks in the view's range. */
export function drawLane(c: HTMLCanvasElement, key: string, ticks: readonly Tick[], tv: TimeView): void {
  const ctx = fit(c, LANE_H);
  let lastX = -1;
  let lastC = '';
  for (const tick of ticks) {
    if (tick.t < tv.view[0] || tick.t > tv.view[1]) continue;
    const x = Math.round(tv.x(tick.t));
    const color = key === 'e' ? '#475569' : key === 'o' ? (TAG_COLOR[tick.tag ?? ''] ?? '#111827') : '#0f766e';
    if (x === lastX && color === lastC) continue;
    lastX = x;
    lastC = color;
    ctx.fillStyle = color;
    ctx.fillRect(x - 1, 3, 2, LANE_H - 6);
  }
}
