/**
 * Where a stdio run's analysis runs. The log (masked or not) costs the machine least on the relay's own
 * thread (no second isolate, no bytes read again on another core), and that thread little, batched after
 * the relay's turn (inline-observer.ts). Sinks beside the log (spans, transports) cost several
 * microseconds a message more: with them the analysis goes to the worker, off the relay's thread.
 */
import { InlineObserver } from './inline-observer.js';
import { observeInto, type AnalysisOptions } from './open-analysis.js';
import { FileSink } from '../log/file-sink.js';

/** True when the run has nothing beside the log: no sinks. */
export function analysedHere(o: AnalysisOptions): boolean {
  return o.taps.otlp === undefined && (o.taps.ship?.length ?? 0) === 0;
}

/** The log's analysis on this thread. */
export function inlineObserver(o: AnalysisOptions, warn: (message: string) => void): InlineObserver {
  const { observer, logFile } = observeInto(o, [], warn);
  return new InlineObserver(observer, { warn, logFile: logFile instanceof FileSink ? logFile : null });
}
