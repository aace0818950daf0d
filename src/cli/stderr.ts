/** mcp-tap's own words go to stderr, prefixed, one line each; stdout belongs to the server in proxy mode. */
export function warn(message: string): void {
  try {
    process.stderr.write(`mcp-tap: ${message}\n`);
  } catch {
    // stderr gone: nothing left to tell.
  }
}
