/** Every failure mcp-tap reports on purpose carries one of these codes; cli/exit-codes.ts maps them to exit statuses. */
export type ErrorCode =
  | 'USAGE' // wrong flag, missing command, unknown subcommand
  | 'COMMAND_NOT_FOUND' // the server command is not on PATH
  | 'NOT_EXECUTABLE' // the server command exists but cannot be executed
  | 'SPAWN_FAILED' // any other failure to start the server
  | 'LOG_UNAVAILABLE' // a log file to read is missing or unreadable
  | 'BAD_INPUT' // a file that is not an mcp-tap log, a bad config file, ...
  | 'CHECK_FAILED' // check/diff/replay found what it was asked to find
  | 'UPSTREAM_UNREACHABLE' // HTTP mode: the upstream server cannot be reached (the host gets 502)
  | 'PORT_IN_USE' // HTTP mode: the port to listen on is taken
  | 'INTERNAL';

/** A failure with a message meant for a person: printed as one line, never with a stack trace. */
export class TapError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TapError';
    this.code = code;
  }
}

/** Thrown for a bad command line; exits 2. */
export class UsageError extends TapError {
  constructor(message: string) {
    super('USAGE', message);
    this.name = 'UsageError';
  }
}

/** Thrown when the input file (a log, a config) cannot be used. */
export class InputError extends TapError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('BAD_INPUT', message, options);
    this.name = 'InputError';
  }
}

/** Raised by subcommands that succeed in running but report a failure (exit 1), e.g. a failed check. */
export class CheckFailed extends TapError {
  constructor(message: string) {
    super('CHECK_FAILED', message);
    this.name = 'CheckFailed';
  }
}
