/** Numbers and times as the report and the live page show them. Pure browser-side helpers. */

export function fmtMs(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '';
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${ms.toFixed(1)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`;
  const min = Math.floor(ms / 60_000);
  return `${min} min ${((ms - min * 60_000) / 1000).toFixed(1)} s`;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** yyyy-mm-dd hh:mm local. */
export function fmtDate(epoch: number): string {
  const d = new Date(epoch);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function fmtBytes(n: number | undefined): string {
  if (n === undefined) return '';
  if (n < 1024) return `${n} B`;
  if (n < 1_048_576) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1_048_576).toFixed(1)} MiB`;
}
