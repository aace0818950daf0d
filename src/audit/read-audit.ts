/**
 * The I/O edge of `mcp-tap audit`: the logs to read (files given, the `*.jsonrpc.log` files of the
 * directories given, or of the default log directory), the latest session of each through the lenses
 * and the context-cost fold, one server per log. Logs that are not usable are skipped and said.
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { evaluate } from '../check/evaluate.js';
import { LISTED_REQUESTS } from '../check/facts.js';
import { readFacts } from '../check/read-facts.js';
import { InputError } from '../errors.js';
import { ContextCostBuilder, contextNeedsBody } from '../lens/context/context-cost.js';
import { loadTokenizer } from '../lens/context/tokenizer.js';
import { listLogs } from '../log/log-files.js';
import { defaultLogDir } from '../log/log-path.js';
import { LogNotUsable } from '../log/read-log.js';
import { audit, type AuditReport, type ServerFacts } from './audit.js';

/** The log files named by `inputs` (files, or directories of logs); none: the default log directory. */
export async function auditTargets(inputs: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const input of inputs.length > 0 ? inputs : [defaultLogDir()]) {
    const st = await stat(input).catch(() => null);
    if (st === null) throw new InputError(`${input}: no such file or directory`);
    if (st.isDirectory()) out.push(...(await listLogs(input)).map((l) => l.path).sort());
    else out.push(input);
  }
  if (out.length === 0) throw new InputError(`no logs in ${inputs.join(', ') || defaultLogDir()}; wrap the host's servers (mcp-tap wrap) and use them first`);
  return [...new Set(out)];
}

/** Reads every log and audits them together. */
export async function readAudit(paths: readonly string[], warn?: (m: string) => void): Promise<AuditReport> {
  const tokenizer = await loadTokenizer();
  const servers: ServerFacts[] = [];
  const skipped: AuditReport['skipped'] = [];
  for (const path of paths) {
    let context: ContextCostBuilder | undefined;
    try {
      const facts = await readFacts(path, {
        session: 'last',
        bound: { listed: LISTED_REQUESTS, maxMs: [], forbidTools: [] },
        fold: { needsBody: contextNeedsBody, add: (r) => (context ??= new ContextCostBuilder(r.session, tokenizer)).add(r) },
        ...(warn ? { warn } : {}),
      });
      const report = evaluate(facts, { failOn: ['security'] });
      const name = facts.start?.name ?? basename(path).replace(/\.jsonrpc\.log$/, '');
      servers.push({ name, log: path, report, tools: facts.tools, ...(context ? { context: context.finish() } : {}) });
    } catch (err) {
      if (!(err instanceof LogNotUsable)) throw err;
      skipped.push({ log: path, reason: err.message });
    }
  }
  return audit(servers, skipped, tokenizer.name);
}
