/**
 * The analysis worker's entry (a worker thread; built as dist/analysis-worker.js): runs the analysis of
 * one stdio run beside the relay thread (analysis-loop.ts) and talks back by message.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runAnalysis, type AnalysisData, type AnalysisMessage } from './analysis-loop.js';
import { sizeYoungGeneration } from './young-generation.js';

const port = parentPort;
if (port !== null) {
  // the analysis allocates per message: its young generation may grow to 4 MiB per semi-space
  sizeYoungGeneration(true);
  const send = (m: AnalysisMessage) => port.postMessage(m);
  runAnalysis(workerData as AnalysisData, send).catch((err: unknown) => {
    send({ type: 'warn', message: `the analysis stopped (${err instanceof Error ? err.message : String(err)}); the relay goes on without a log` });
  });
}
