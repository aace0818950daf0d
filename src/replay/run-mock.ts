/**
 * The mock's I/O edge: a stdio MCP server. stdout carries only the JSON-RPC lines the engine produces
 * (honouring backpressure: reading pauses while stdout is full); every explanation goes to stderr.
 * Ends when the client closes stdin or stops reading stdout.
 */
import type { Readable, Writable } from 'node:stream';
import { jsonShortener } from '../framing/json-shortener.js';
import { LineSplitter } from '../framing/line-splitter.js';
import { lineText } from '../framing/line-text.js';
import { MockEngine, type MockOut } from './mock-engine.js';
import type { RecordedSession } from './recorded.js';

/** Requests longer than this are not held whole (and not answered from the recording). */
const MAX_LINE_BYTES = 64 * 1024 * 1024;

export interface MockIo {
  stdin: Readable;
  stdout: Writable;
  /** One explanation line (the caller prefixes and writes it to stderr). */
  say: (text: string) => void;
}

/** Serves the session until the client goes away; `quiet`: only what is wrong or refused goes to stderr. */
export async function runMock(session: RecordedSession, io: MockIo, answerWaitMs: number, quiet = false): Promise<void> {
  const started = performance.now();
  const engine = new MockEngine(session, { now: () => performance.now() - started, answerWaitMs });
  const era = engine.eraNote();
  if (era && (!quiet || era.refuses)) io.say(era.text);
  await new Promise<void>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    let done = false;
    let blocked = false;
    const stop = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      io.stdin.pause();
      resolve();
    };
    // the engine reads recorded bodies from the log as it goes: a log changed meanwhile ends the mock (InputError)
    const guarded = (f: () => void): void => {
      try {
        f();
      } catch (err) {
        reject(err);
        stop();
      }
    };
    const emit = (outs: MockOut[]): void => {
      for (const o of outs) {
        if ('stderr' in o) {
          io.say(o.stderr);
          continue;
        }
        if (done) continue;
        if (!io.stdout.write(`${o.stdout}\n`) && !blocked) {
          // the client is not reading: stop reading its requests until it catches up
          blocked = true;
          io.stdin.pause();
          io.stdout.once('drain', () => {
            blocked = false;
            if (!done) io.stdin.resume();
          });
        }
      }
    };
    const schedule = (): void => {
      clearTimeout(timer);
      const d = engine.nextDeadline();
      if (d === undefined || done) return;
      timer = setTimeout(
        () =>
          guarded(() => {
            emit(engine.onTick());
            schedule();
          }),
        Math.max(0, Math.ceil(d - (performance.now() - started))) + 1,
      );
    };
    const splitter = new LineSplitter(
      MAX_LINE_BYTES,
      (line) =>
        guarded(() => {
          if (line.data) {
            const text = lineText(line.data);
            if (text === null) return;
            emit(engine.onLine(text));
          } else {
            io.say(`a line of ${line.bytes} bytes from the client is longer than the mock reads (${MAX_LINE_BYTES}); ignored`);
          }
          schedule();
        }),
      jsonShortener,
    );
    io.stdout.on('error', stop); // the client stopped reading
    io.stdin.on('data', (c: Buffer) => splitter.push(c));
    io.stdin.on('end', () => {
      splitter.end();
      stop();
    });
    io.stdin.on('error', stop);
    guarded(() => {
      emit(engine.start());
      schedule();
    });
  });
}
