/**
 * The analysis worker's entry (a worker thread; built as dist/analysis-worker.js): runs the analysis of
 * one stdio run beside the relay thread (analysis-loop.ts) and talks back by message.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runAnalysis, type AnalysisData, type AnalysisMessage } from './analysis-loop.js';
import { sizeYoungGeneration } from './young-generation.js';

const port = parentPort;
if (port !== null) {
  const send = (m: AnalysisMessage) => port.postMessage(m);
  // the analysis allocates per message: its young generation may grow to 4 MiB per semi-space
  sizeYoungGeneration(true);
  // loaded: a failure from here on is the analysis failing, not the worker failing to start
  send({ type: 'ready' });
  // a failure fails the worker: the relay thread hears of it, says so and goes on without the analysis
  runAnalysis(workerData as AnalysisData, send).catch((err: unknown) =>
    setImmediate(() => {
      throw err;
    }),
  );
}
