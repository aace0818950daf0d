/**
 * What doctor needs from the log mcp-tap wrote for one probe session: the server's stderr lines, the
 * lines it wrote to stdout that were not JSON, and how it exited. Read with src/log/read-log.ts; a
 * missing or unusable log gives empty findings (doctor then falls back to what the client saw).
 */
import { readRecords } from '../log/read-log.js';
import type { LogRecord } from '../log/record.js';

export interface LogFindings {
  stderr: string[];
  nonJsonStdout: string[];
  /** Count of stdout lines that were not JSON (nonJsonStdout keeps only the first few). */
  nonJsonCount: number;
  exit?: { code: number | null; signal: string | null };
  spawnError?: string;
}

const KEEP_NON_JSON = 3;
const KEEP_STDERR = 200;

/** Findings from a session's records (pure). */
export function findingsFromRecords(records: Iterable<LogRecord>): LogFindings {
  const out: LogFindings = { stderr: [], nonJsonStdout: [], nonJsonCount: 0 };
  for (const r of records) {
    if (r.from === 'server' && r.kind === 'stderr' && typeof r.raw === 'string') {
      out.stderr.push(r.raw);
      if (out.stderr.length > KEEP_STDERR) out.stderr.shift();
    } else if (r.from === 'server' && r.kind === 'invalid' && typeof r.raw === 'string') {
      out.nonJsonCount++;
      if (out.nonJsonStdout.length < KEEP_NON_JSON) out.nonJsonStdout.push(r.raw);
    } else if (r.kind === 'event' && r.event === 'exit' && !out.exit) {
      out.exit = { code: typeof r.code === 'number' ? r.code : null, signal: typeof r.signal === 'string' ? r.signal : null };
    } else if (r.kind === 'event' && r.event === 'spawn-error') {
      out.spawnError = typeof r.error === 'string' ? r.error : JSON.stringify(r.error);
    }
  }
  return out;
}

/** Findings from a log file (empty when it cannot be read). */
export async function readLogFindings(file: string): Promise<LogFindings> {
  const records: LogRecord[] = [];
  try {
    for await (const item of readRecords(file)) {
      if ('record' in item) records.push(item.record);
    }
  } catch {
    // no log (mcp-tap could not write one): the caller still has the client's view
  }
  return findingsFromRecords(records);
}
