/** `--fail-on`: which categories of results make `mcp-tap check` exit 1. */
import { UsageError } from '../errors.js';
import type { Category } from './rules.js';

/** The categories `--fail-on` can name, in display order. */
export const FAIL_ON_VALUES = ['findings', 'spec', 'errors', 'is-error', 'unanswered', 'assertions', 'schema', 'security'] as const;
/** A category `--fail-on` can name. */
export type FailOn = (typeof FAIL_ON_VALUES)[number];

/**
 * The default: findings, messages that break the schema of their protocol version (an SDK-based host
 * fails on them as on a finding) and unanswered requests (issue 10), plus assertions — they exist only
 * when --max-ms, --expect-tool or --forbid-tool was given, and an assertion that cannot fail would be a
 * trap — and security: a poisoned tool list must not pass a default check.
 */
export const DEFAULT_FAIL_ON: readonly FailOn[] = ['findings', 'spec', 'unanswered', 'assertions', 'security'];

/** Comma-separated lists (the flag may repeat) → categories; `all` and `none` too. Throws UsageError. */
export function parseFailOn(values: readonly string[] | undefined): FailOn[] {
  if (values === undefined || values.length === 0) return [...DEFAULT_FAIL_ON];
  const out = new Set<FailOn>();
  let none = false;
  for (const v of values.flatMap((x) => x.split(','))) {
    const name = v.trim().toLowerCase();
    if (name === '') continue;
    if (name === 'all') FAIL_ON_VALUES.forEach((c) => out.add(c));
    else if (name === 'none') none = true;
    else if ((FAIL_ON_VALUES as readonly string[]).includes(name)) out.add(name as FailOn);
    else throw new UsageError(`--fail-on takes a list of ${FAIL_ON_VALUES.join(', ')} (or all, none), got ${JSON.stringify(v.trim())}`);
  }
  if (none && out.size > 0) throw new UsageError('--fail-on none cannot be combined with other categories');
  return FAIL_ON_VALUES.filter((c) => out.has(c));
}

/** Whether a result of this category fails the check. */
export const failsOn = (failOn: readonly FailOn[], category: Category): boolean => (failOn as readonly string[]).includes(category);
