/**
 * `export --format har`: which records make the HAR and the two passes that read them. HAR describes
 * HTTP, so the chosen session must be an HTTP-mode one; the document holds its whole `mcp-tap http` run
 * (every MCP session of it and the run's own records: the sign-in, metadata and token exchanges), since
 * a host's exchanges with one server are one story. `--session all`: every HTTP run of the log.
 */
import { UsageError } from '../errors.js';
import { readSession, resolveSession } from '../log/read-session.js';
import { escapeControl } from '../text/escape.js';
import type { LogRecord } from '../log/record.js';
import { HarBuilder } from './har.js';
import { openInput } from './read-input.js';
import type { RecordRedactor } from './redact.js';

const noBody = (): boolean => false;

/** Pass 1: the start record of every session (envelopes only), to know which sessions are HTTP and which run each belongs to. */
async function starts(path: string): Promise<Map<string, { run?: string; http: boolean }>> {
  const out = new Map<string, { run?: string; http: boolean }>();
  for await (const r of readSession(path, 'all', { needsBody: noBody })) {
    if (r.kind !== 'event' || r.event !== 'start' || out.has(r.session)) continue;
    const info: { run?: string; http: boolean } = { http: typeof r['upstream'] === 'string' };
    if (typeof r['run'] === 'string') info.run = r['run'];
    out.set(r.session, info);
  }
  return out;
}

/** The HAR of the chosen session's run as JSON text chunks; a usage error for a stdio session. */
export async function harChunks(
  path: string,
  which: string,
  redactor: RecordRedactor | null,
  o: { version: string; warn: (m: string) => void },
): Promise<AsyncIterable<string>> {
  const chosen = which === 'all' ? null : (await resolveSession(path, which))[0]!.id;
  const info = await starts(path);
  let keep: Set<string>;
  if (chosen === null) {
    keep = new Set([...info].filter(([, s]) => s.http).map(([id]) => id));
    if (keep.size === 0) throw new UsageError(`--format har describes HTTP exchanges, and ${escapeControl(path)} holds no HTTP-mode session (mcp-tap http writes them); use md, json, jsonl, html or otlp`);
  } else {
    const s = info.get(chosen);
    if (s === undefined || !s.http) {
      throw new UsageError(`--format har describes HTTP exchanges, and session ${escapeControl(chosen)} is a stdio session (mcp-tap http writes HTTP sessions); use md, json, jsonl, html or otlp`);
    }
    const run = s.run ?? chosen;
    keep = new Set([...info].filter(([id, x]) => id === run || x.run === run).map(([id]) => id));
  }
  const input = await openInput({ file: path, session: 'all', warn: o.warn, needsBody: (h) => keep.has(h.session) });
  const builder = new HarBuilder({ creator: { name: 'mcp-tap', version: o.version }, redacted: redactor !== null });
  async function* chunks(): AsyncGenerator<string> {
    yield builder.head();
    for await (const r of input.records as AsyncIterable<LogRecord>) {
      if (!keep.has(r.session)) continue;
      for (const e of builder.push(redactor ? redactor.next(r) : r)) yield e;
    }
    for (const e of builder.finish()) yield e;
  }
  return chunks();
}
