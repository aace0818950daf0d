/**
 * Everything beside the relay of one stdio run, opened in one place: the sinks beside the log (their
 * modules load only when asked for), the log file, env-secret masking in front of all of them, and the
 * observer that feeds the session analysis. The analysis worker opens it (the relay thread when the
 * worker cannot start); a run with the log alone opens the log and the observer on the relay thread.
 */
import { Observer, type RecordSink } from './observer.js';
import { openSink, type SinkOptions } from './open-sink.js';
import { openTaps, type TapOptions } from './open-taps.js';
import { EnvMasker } from '../log/env-mask.js';
import type { EnvSecret } from '../log/env-secrets.js';
import { MaskingSink } from './masking-sink.js';
import { MaskingTap } from './masking-tap.js';
import { nullSink } from './open-sink.js';
import { jsonShortener } from '../framing/json-shortener.js';
import type { RecordTap } from '../log/record-tap.js';

/** What the analysis of a run needs (plain data: it crosses into the worker). */
export interface AnalysisOptions {
  sessionId: string;
  maxLogBytes: number;
  log: SinkOptions;
  taps: TapOptions;
  /** The server's secret environment values: never in the log nor a sink beside it. */
  secrets: EnvSecret[];
}

/** The opened analysis: the observer, and the log's own sink (its queue is reported at shutdown). */
export interface Analysis {
  observer: Observer;
  logFile: RecordSink;
}

/** Opens the taps, the log and the masking; `warn` hears of what could not open (the run goes on without it). */
export async function openAnalysis(o: AnalysisOptions, warn: (message: string) => void): Promise<Analysis> {
  return observeInto(o, await openTaps(o.taps, warn), warn);
}

/** The log (masked when the server's environment holds secrets), the given taps masked alike, and the observer writing to them. */
export function observeInto(o: AnalysisOptions, taps: RecordTap[], warn: (message: string) => void): Analysis {
  const logFile = openSink(o.log, warn);
  let sink = logFile;
  if (o.secrets.length > 0) {
    const masker = new EnvMasker(o.secrets);
    if (sink !== nullSink) sink = new MaskingSink(sink, masker);
    taps = taps.map((t) => new MaskingTap(t, masker));
  }
  const observer = new Observer({ sessionId: o.sessionId, maxLogBytes: o.maxLogBytes, sink, warn, shortener: jsonShortener, taps });
  return { observer, logFile };
}
