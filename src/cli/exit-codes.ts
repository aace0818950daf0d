import { TapError, type ErrorCode } from '../errors.js';

/** The one place where error codes become process exit statuses (documented in the README). */
export const EXIT_CODES: Record<ErrorCode, number> = {
  USAGE: 2,
  COMMAND_NOT_FOUND: 127,
  NOT_EXECUTABLE: 126,
  SPAWN_FAILED: 126,
  LOG_UNAVAILABLE: 2,
  BAD_INPUT: 2,
  CHECK_FAILED: 1,
  UPSTREAM_UNREACHABLE: 69, // EX_UNAVAILABLE
  PORT_IN_USE: 69,
  INTERNAL: 70,
};

/** Exit status for anything thrown out of a command: typed errors by code, anything else 70. */
export function exitCodeFor(err: unknown): number {
  return err instanceof TapError ? EXIT_CODES[err.code] : 70;
}
