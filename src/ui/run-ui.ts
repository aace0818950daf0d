/**
 * `mcp-tap ui` wired to its edges: launch files of killed runs swept, a fresh token, the log watch, the
 * handler, the loopback server, the URL printed (and opened with --open); runs until the signal aborts.
 */
import { randomBytes } from 'node:crypto';
import { loadTokenizer } from '../lens/context/tokenizer.js';
import type { RedactOptions } from '../transcript/redact.js';
import { makeUiHandler } from './handler.js';
import { LogWatch } from './log-watch.js';
import { realSweepEdges, sweepLaunchFiles, thisProcess, type SweepEdges } from './launch-sweep.js';
import { execaOpener, launchDir, openBrowser, realLaunchHost, type LaunchFile, type LaunchHost, type OpenOptions, type Opener } from './open-browser.js';
import { livePage } from './page-html.js';
import { serveLoopback } from './serve.js';

export interface UiRunOptions {
  dir: string;
  files: readonly string[];
  port: number;
  open: boolean;
  redact: RedactOptions;
  version: string;
  /** The bundled page script. */
  script: string;
  pollMs?: number;
}

export interface UiIo {
  /** The URL line (stdout). */
  say(line: string): void;
  warn(message: string): void;
  signal: AbortSignal;
  /** Starts the browser for --open (default: execa); tests record it instead. */
  opener?: Opener;
  /** The machine --open looks at for where its launch file goes (default: this one); tests give a fake home. */
  launchHost?: LaunchHost;
  /** What the start-up sweep of launch files left behind does to the machine (default: this one's). */
  sweep?: SweepEdges;
  /** Writes --open's launch file (default: writeLaunchFile); tests hold it back. */
  writeLaunch?: OpenOptions['write'];
}

/** Serves the UI until `io.signal` aborts. */
export async function runUi(opts: UiRunOptions, io: UiIo): Promise<void> {
  const token = randomBytes(24).toString('base64url');
  const watch = new LogWatch({ dir: opts.dir, files: opts.files, redact: opts.redact, pollMs: opts.pollMs, tokenizer: await loadTokenizer(), signal: io.signal });
  const page = livePage(opts.script, opts.version);
  const host = io.launchHost ?? realLaunchHost();
  // launch files of earlier runs killed before they could remove theirs (they hold those runs' tokens)
  const swept = sweepLaunchFiles(launchDir(host), io.sweep ?? realSweepEdges(), thisProcess());
  if (swept.length > 0) io.warn(`removed ${swept.length} launch file(s) of ui --open runs that are gone: ${swept.join(', ')}`);
  let launch: LaunchFile | null = null;
  let launched = false;
  // the page has loaded with the token: the launch file has done its work (it holds the token)
  const onPageLoad = (): void => {
    launched = true;
    void launch?.remove();
  };
  const { server, port } = await serveLoopback(opts.port, (p) => makeUiHandler({ token, port: p, watch, page, redact: opts.redact, onPageLoad }));
  try {
    // the URL first: a big log directory takes a moment to read, and the page fills in as it is read
    const url = `http://127.0.0.1:${port}/?token=${token}`;
    io.say(url);
    await watch.start();
    io.warn(`serving ${watch.logs.length} log(s) from ${opts.dir}${opts.files.length ? ` and ${opts.files.length} file(s)` : ''}, read-only, on 127.0.0.1 only; Ctrl-C stops`);
    // the URL on stdout is the user's own terminal; the browser gets it through a 0600 file, never on a command line
    if (opts.open) {
      launched = false; // a load before the file was written is not its
      launch = await openBrowser(url, { opener: io.opener ?? execaOpener, warn: io.warn, host, write: io.writeLaunch });
      if (launched) await launch?.remove();
    }
    await new Promise<void>((resolve) => {
      if (io.signal.aborted) resolve();
      else io.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await launch?.remove();
  }
}
