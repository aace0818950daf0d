/**
 * The analysis side of a stdio run: takes what the relay thread put in the ring and runs the whole
 * analysis — splitting, session analysis, the log and the sinks beside it. It runs in the analysis worker
 * (analysis-worker.ts), so the relay thread's own work per message stays near a bare relay's; on the
 * relay thread only when the worker cannot start. It polls the ring while traffic flows (one wake-up per
 * POLL_MS, however many messages came) and sleeps on the ring's header when it is quiet, where the relay
 * wakes it.
 */
import { openAnalysis, type AnalysisOptions } from './open-analysis.js';
import { RingReader } from './ring-reader.js';
import { Kind } from './ring.js';
import type { Observer, Stream } from './observer.js';
import type { EventName } from '../log/record.js';
import { FileSink } from '../log/file-sink.js';

/** What the analysis of a run gets from the relay thread. */
export interface AnalysisData extends AnalysisOptions {
  ring: SharedArrayBuffer;
}

/** What the analysis tells the relay thread. */
export type AnalysisMessage =
  | { type: 'ready' }
  | { type: 'warn'; message: string }
  | { type: 'room' }
  | { type: 'finished'; logQueue: { records: number; bytes: number } | null };

/** The Finish entry's payload. */
export interface FinishRequest {
  fields: Record<string, unknown>;
  maxWaitMs: number;
}

/** While traffic flows the ring is looked at this often: one wake-up per poll, not per message. */
const POLL_MS = 1;
/** Polls that found nothing before the analysis sleeps until the relay wakes it. */
const IDLE_POLLS = 20;

const STREAMS: readonly Stream[] = ['client', 'server', 'stderr'];

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs the analysis of one session until the relay's Finish entry; then ends the log and says so. */
export async function runAnalysis(data: AnalysisData, send: (m: AnalysisMessage) => void): Promise<void> {
  const warn = (message: string) => send({ type: 'warn', message });
  const { observer, logFile } = await openAnalysis(data, warn);
  const reader = new RingReader(data.ring);
  let finish: FinishRequest | null = null;
  const onEntry = (kind: Kind, payload: Buffer, time: number) => {
    if (finish === null) finish = take(observer, kind, payload, time);
  };
  const onRoom = () => send({ type: 'room' });
  let idle = 0;
  for (;;) {
    const n = reader.drain(onEntry, onRoom);
    if (finish !== null) break;
    idle = n > 0 ? 0 : idle + 1;
    if (idle < IDLE_POLLS) await delay(POLL_MS);
    else {
      await reader.sleep(60_000);
      idle = 0;
    }
  }
  const { fields, maxWaitMs } = finish as FinishRequest;
  // what still waited for the disk when the session ended (the debug trace reports it)
  const logQueue = logFile instanceof FileSink ? logFile.queued() : null;
  await observer.finish(fields, maxWaitMs);
  send({ type: 'finished', logQueue });
}

/** One ring entry into the observer; returns the end of the session when the entry is the Finish. */
function take(observer: Observer, kind: Kind, payload: Buffer, time: number): FinishRequest | null {
  switch (kind) {
    case Kind.Client:
    case Kind.Server:
    case Kind.Stderr:
      observer.take(STREAMS[kind]!, payload, time);
      return null;
    case Kind.Event: {
      const { name, fields } = JSON.parse(payload.toString('utf8')) as { name: EventName; fields: Record<string, unknown> };
      observer.event(name, fields, time);
      return null;
    }
    case Kind.Lost: {
      const loss = JSON.parse(payload.toString('utf8')) as { stream: 0 | 1 | 2; bytes: number; lines: number; endsLine: boolean };
      observer.lost(STREAMS[loss.stream]!, loss, time);
      return null;
    }
    case Kind.End:
      observer.endOf(STREAMS[payload[0] ?? 0]!, time);
      return null;
    case Kind.Finish:
      return JSON.parse(payload.toString('utf8')) as FinishRequest;
    default:
      return null;
  }
}
