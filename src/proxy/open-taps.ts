/**
 * The sinks beside the log that a run asked for (`--otlp`, `--ship`), for both proxy modes: each one's
 * module loads only when asked for; a sink that cannot start is reported and left out.
 */
import type { RecordTap } from '../log/record-tap.js';
import type { ShipTarget } from '../ship/ship-tap.js';

/** The options of the sinks beside the log (stdio and HTTP mode take the same flags). */
export interface TapOptions {
  name: string;
  /** undefined off; null on, endpoint from OTEL_EXPORTER_OTLP_*; a string: the endpoint. */
  otlp?: string | null;
  otlpContent?: boolean;
  ship?: ShipTarget[];
}

/** The OTLP exporter and pino transports asked for. */
export async function openTaps(opts: TapOptions, warn: (m: string) => void): Promise<RecordTap[]> {
  const taps: RecordTap[] = [];
  try {
    await addTaps(opts, warn, taps);
  } catch (err) {
    warn(`cannot start the sinks beside the log (${err instanceof Error ? err.message : String(err)}); relaying without them`);
  }
  return taps;
}

async function addTaps(opts: TapOptions, warn: (m: string) => void, taps: RecordTap[]): Promise<void> {
  if (opts.otlp !== undefined) {
    const { openOtlpTap } = await import('../otlp/open-otlp-tap.js');
    taps.push(openOtlpTap({ endpoint: opts.otlp, content: opts.otlpContent === true, serverName: opts.name, env: process.env, warn }));
  }
  if (opts.ship !== undefined && opts.ship.length > 0) {
    const { openShipTaps } = await import('../ship/ship-tap.js');
    taps.push(...(await openShipTaps(opts.ship, process.cwd(), warn)));
  }
}
