/** Numbers and times as exports show them; one place, so Markdown, stats and HTML agree. */

/** Latency: `0.42 ms`, `12.3 ms`, `1.23 s`, `2 min 3.4 s`. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${ms.toFixed(1)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`;
  const min = Math.floor(ms / 60_000);
  return `${min} min ${((ms - min * 60_000) / 1000).toFixed(1)} s`;
}

/** Sizes: `234 B`, `12.3 KiB`, `4.0 MiB`. */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}

/** Time since the start of the session: `+1.234 s`. */
export function formatOffset(ms: number): string {
  return `+${(Math.max(0, ms) / 1000).toFixed(3)} s`;
}

/** Epoch ms → ISO 8601 UTC (time-zone independent, so goldens and bug reports agree). */
export function formatTime(epochMs: number): string {
  const d = new Date(epochMs);
  return Number.isNaN(d.getTime()) ? String(epochMs) : d.toISOString();
}

/** A command line as a person would type it in a POSIX shell (arguments quoted when needed). */
export function formatCommandLine(command: string | undefined, args: readonly string[] | undefined): string {
  const parts = [command ?? '', ...(args ?? [])];
  return parts.map((p) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`)).join(' ');
}
