/**
 * The selected session's waterfall on one canvas: a bar per request from its send time to its answer
 * (still-open requests run to now), coloured by outcome. Requests share pixel rows when there are more
 * of them than the canvas is tall, so a 100,000-request session draws in one pass. Browser code.
 */
import type { Bar, Outcome } from './session-rows.js';

export const OUTCOME_COLOR: Record<Outcome, string> = { ok: '#2563eb', error: '#dc2626', isError: '#d97706', cancelled: '#6b7280', unanswered: '#7c3aed', refused: '#6b7280', running: '#0d9488' };

export function drawWaterfall(canvas: HTMLCanvasElement, bars: readonly Bar[], start: number, end: number, now: number): void {
  const w = Math.max(50, canvas.clientWidth);
  const h = Math.max(40, canvas.clientHeight);
  const dpr = window.devicePixelRatio || 1;
  if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
    canvas.width = Math.round(w * dpr);
    canvas.height = Math.round(h * dpr);
  }
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = '#f8fafc';
  ctx.fillRect(0, 0, w, h);
  if (bars.length === 0 || !Number.isFinite(start)) {
    ctx.fillStyle = '#6b7280';
    ctx.font = '12px system-ui, sans-serif';
    ctx.fillText('No requests yet.', 8, 20);
    return;
  }
  const last = Math.max(end, start + 1);
  const span = last - start;
  const axis = 16;
  const rowH = Math.max(1, Math.min(14, (h - axis - 4) / bars.length));
  const perRow = rowH >= 1 ? 1 : Math.ceil(bars.length / (h - axis - 4));
  const x = (t: number) => ((t - start) / span) * (w - 8) + 4;
  ctx.fillStyle = '#374151';
  ctx.font = '10.5px system-ui, sans-serif';
  ctx.fillText(`${(span / 1000).toFixed(2)} s · ${bars.length} requests`, 4, 11);
  for (let i = 0; i < bars.length; i++) {
    const b = bars[i]!;
    const t1 = b.t1 ?? Math.max(now, last);
    const x0 = x(b.t0);
    const x1 = Math.max(x(Math.min(t1, last)), x0 + 1.5);
    const y = axis + Math.floor(i / perRow) * rowH;
    ctx.fillStyle = OUTCOME_COLOR[b.outcome];
    ctx.fillRect(x0, y, x1 - x0, Math.max(1, rowH - (rowH > 2 ? 2 : 0)));
    if (rowH >= 10) {
      // room for a label: the method (and tool), beside the bar where it fits
      const label = b.target !== undefined ? `${b.method} ${b.target}` : b.method;
      ctx.fillStyle = '#374151';
      const tw = ctx.measureText(label).width;
      ctx.fillText(label, x1 + 4 + tw < w ? x1 + 4 : Math.max(2, x0 - tw - 4), y + rowH - 3);
    }
  }
}
