/**
 * Command-line redaction settings → RedactOptions: `--redact-key`, `--redact-pattern` (checked here so
 * a bad regex is one clear usage error), `--redact-env`, and the secret-looking variables of the
 * environment mcp-tap runs in. Shared by every output that shows records (export in every format, tail),
 * so the flags are defined once (addRedactFlags) and mean the same everywhere.
 */
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { RecordRedactor, redactStrings, secretEnvValues, type RedactOptions } from './redact.js';

export interface RedactFlags {
  redactKey?: string[];
  redactPattern?: string[];
  redactEnv?: string[];
}

/** A user pattern: `regex` or `/regex/flags` (flags among i, m, s, u). */
export function parseUserPattern(text: string): RegExp {
  const slashed = /^\/([\s\S]+)\/([a-z]*)$/.exec(text);
  const source = slashed ? slashed[1]! : text;
  const flags = slashed ? slashed[2]! : '';
  if (/[^imsu]/.test(flags)) throw new UsageError(`--redact-pattern ${JSON.stringify(text)}: flags may be i, m, s, u`);
  let re: RegExp;
  try {
    re = new RegExp(source, `${flags}g`);
  } catch (err) {
    throw new UsageError(`--redact-pattern ${JSON.stringify(text)} is not a valid regular expression (${(err as Error).message})`);
  }
  if (re.test('')) throw new UsageError(`--redact-pattern ${JSON.stringify(text)} matches the empty string`);
  return re;
}

/** The options for redactRecord and friends, from flags and the environment. */
export function redactOptionsFrom(flags: RedactFlags, env: NodeJS.ProcessEnv = process.env): RedactOptions {
  for (const name of flags.redactEnv ?? []) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new UsageError(`--redact-env takes the NAME of an environment variable, got ${JSON.stringify(name)}`);
  }
  for (const key of flags.redactKey ?? []) {
    if (key.trim() === '') throw new UsageError('--redact-key needs a key name');
  }
  return {
    keys: flags.redactKey ?? [],
    patterns: (flags.redactPattern ?? []).map(parseUserPattern),
    values: secretEnvValues(env, flags.redactEnv ?? []),
  };
}

/** For commander: collects a repeatable option into an array. */
export function collectOption(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** --no-redact (commander turns it into `redact: false`) and the user rules. */
export interface RedactSwitch extends RedactFlags {
  redact: boolean;
}

/** Adds --no-redact, --redact-key, --redact-pattern and --redact-env to a command (export, tail). */
export function addRedactFlags(cmd: Command, noRedactHelp = 'keep every value as logged (the output may contain secrets)'): Command {
  return cmd
    .option('--no-redact', noRedactHelp)
    .option('--redact-key <name>', 'also redact values under this key (repeatable)', collectOption)
    .option('--redact-pattern <regex>', 'also redact matches of this regular expression, /re/flags allowed (repeatable)', collectOption)
    .option('--redact-env <NAME>', 'also redact the value of this environment variable (repeatable)', collectOption);
}

/**
 * The redactor the flags ask for (one per run: it follows secrets across records), or null with
 * --no-redact. A user rule together with --no-redact is a usage error.
 */
export function redactorFrom(flags: RedactSwitch, env: NodeJS.ProcessEnv = process.env): RecordRedactor | null {
  return redactionOff(flags) ? null : new RecordRedactor(redactOptionsFrom(flags, env));
}

/** True with --no-redact; a user rule together with it is a usage error. */
function redactionOff(flags: RedactSwitch): boolean {
  if (flags.redact) return false;
  if (flags.redactKey || flags.redactPattern || flags.redactEnv) {
    throw new UsageError('--no-redact cannot be combined with --redact-key, --redact-pattern or --redact-env');
  }
  return true;
}

/**
 * Redaction of a report before it is rendered (check, audit, diff, stats): its findings and names quote
 * what the records hold, so every string in it is redacted (redactStrings); with --no-redact it is left
 * as is.
 */
export function outputRedaction(flags: RedactSwitch, env: NodeJS.ProcessEnv = process.env): <T>(report: T) => T {
  if (redactionOff(flags)) return (report) => report;
  const opts = redactOptionsFrom(flags, env);
  return <T>(report: T) => redactStrings(report, opts) as T;
}
