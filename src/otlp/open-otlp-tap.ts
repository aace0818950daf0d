/** Live `--otlp` from the flag and the environment: the config, the redaction for content, the tap. */
import { resolveOtlpConfig } from './otlp-config.js';
import { OtlpTap } from './otlp-tap.js';
import { redactValue, secretEnvValues } from '../transcript/redact.js';

export interface OpenOtlpOptions {
  endpoint: string | null;
  content: boolean;
  serverName: string;
  env: NodeJS.ProcessEnv;
  warn: (message: string) => void;
}

/** Throws UsageError for a bad endpoint or protocol (before the relay starts). */
export function openOtlpTap(o: OpenOtlpOptions): OtlpTap {
  const config = resolveOtlpConfig(o.endpoint, o.env, o.serverName);
  // content leaves the machine: redacted like export (secret keys, token shapes, this shell's secret values)
  const values = o.content ? secretEnvValues(o.env) : [];
  return new OtlpTap({ config, warn: o.warn, content: o.content, redact: (v) => redactValue(v, { values }) });
}
