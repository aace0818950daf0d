/** A session summary of `ls` with what came from the server's command line redacted, as export redacts it. Pure. */
import type { SessionSummary } from '../log/session-summary.js';
import { redactArgs, redactString, type RedactOptions } from './redact.js';

/** The summary with its command, args and server name redacted: flags like --api-key=…, URL credentials, token shapes. */
export function redactSummary(s: SessionSummary, rules: RedactOptions): SessionSummary {
  const out = { ...s };
  if (s.command !== undefined) out.command = redactString(s.command, rules);
  if (s.args !== undefined) out.args = redactArgs(s.args, rules);
  if (s.serverName !== undefined) out.serverName = redactString(s.serverName, rules);
  return out;
}
