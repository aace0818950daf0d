/**
 * The proxy flags for sinks beside the log: `--otlp [endpoint]`, `--otlp-content`, `--ship <target>`
 * (repeatable) and `--ship-options <json>` (for the `--ship` before it).
 */
import { UsageError } from '../../errors.js';
import type { ShipTarget } from '../../ship/ship-tap.js';
import type { ProxyOptions } from '../../proxy/run-proxy.js';
import { resolveOtlpConfig } from '../../otlp/otlp-config.js';

/** `--otlp`'s optional value: taken from the next argument only when it is a URL. */
export function isUrlArg(a: string | undefined): a is string {
  return a !== undefined && /^https?:\/\//i.test(a);
}

export type SinkOptions = Pick<ProxyOptions, 'otlp' | 'otlpContent' | 'ship'>;

export class SinkFlags {
  private otlp: string | null | undefined;
  private otlpContent = false;
  private readonly ship: ShipTarget[] = [];

  /** Takes the flag at argv[i] if it is one of these: how many arguments it used (0: not ours). */
  take(argv: readonly string[], i: number): number {
    const a = argv[i]!;
    const eq = a.indexOf('=');
    const flag = eq > 0 ? a.slice(0, eq) : a;
    const inline = eq > 0 ? a.slice(eq + 1) : undefined;
    switch (flag) {
      case '--otlp':
        if (inline !== undefined) {
          if (inline === '') throw new UsageError('--otlp= needs a URL, or give --otlp alone to use OTEL_EXPORTER_OTLP_ENDPOINT');
          this.otlp = inline;
          return 1;
        }
        if (isUrlArg(argv[i + 1])) {
          this.otlp = argv[i + 1]!;
          return 2;
        }
        this.otlp = null;
        return 1;
      case '--otlp-content':
        this.otlpContent = true;
        return 1;
      case '--ship':
      case '--ship-options': {
        const value = inline ?? argv[i + 1];
        if (value === undefined || value === '') throw new UsageError(`${flag} needs a value`);
        if (flag === '--ship') this.ship.push({ target: value });
        else this.shipOptions(value);
        return inline !== undefined ? 1 : 2;
      }
      default:
        return 0;
    }
  }

  private shipOptions(text: string): void {
    const last = this.ship[this.ship.length - 1];
    if (last === undefined) throw new UsageError('--ship-options goes after the --ship it configures');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new UsageError(`--ship-options takes a JSON object, got ${JSON.stringify(text)}`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError(`--ship-options takes a JSON object, got ${JSON.stringify(text)}`);
    last.options = parsed as Record<string, unknown>;
  }

  /** The options; a bad endpoint or OTLP variable is a usage error now, before the server starts. */
  options(env: NodeJS.ProcessEnv): SinkOptions {
    if (this.otlpContent && this.otlp === undefined) throw new UsageError('--otlp-content needs --otlp');
    if (this.otlp !== undefined) resolveOtlpConfig(this.otlp, env, 'check');
    const out: SinkOptions = {};
    if (this.otlp !== undefined) out.otlp = this.otlp;
    if (this.otlpContent) out.otlpContent = true;
    if (this.ship.length > 0) out.ship = this.ship;
    return out;
  }
}
