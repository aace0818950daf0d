/** A latency sparkline: the latest answers' latencies as a line on a small canvas. Browser code. */

export function drawSparkline(canvas: HTMLCanvasElement, values: readonly number[], bad: boolean): void {
  const w = canvas.clientWidth || 120;
  const h = canvas.clientHeight || 24;
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(w * dpr);
  canvas.height = Math.round(h * dpr);
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, h);
  if (values.length === 0) return;
  const max = Math.max(...values, 1e-3);
  const step = values.length > 1 ? w / (values.length - 1) : 0;
  ctx.strokeStyle = bad ? '#dc2626' : '#2563eb';
  ctx.lineWidth = 1.25;
  ctx.beginPath();
  values.forEach((v, i) => {
    const x = values.length > 1 ? i * step : w / 2;
    const y = h - 2 - (v / max) * (h - 4);
    if (i === 0) ctx.moveTo(x, y);
    else ctx.lineTo(x, y);
  });
  ctx.stroke();
}
