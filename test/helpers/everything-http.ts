/**
 * server-everything in its Streamable HTTP (`/mcp`) or legacy HTTP+SSE (`/sse` + `/message`) mode, as a
 * real child process on 127.0.0.1: a port is taken from the OS (bound to 0 and released) and handed to
 * it in PORT, again on the rare collision.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { EVERYTHING } from './paths.js';
import { waitFor } from './wait.js';

export interface EverythingHttp {
  origin: string;
  child: ChildProcess;
  stop: () => Promise<void>;
}

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as import('node:net').AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/** Starts it; resolves once it listens. */
export async function startEverythingHttp(mode: 'streamableHttp' | 'sse'): Promise<EverythingHttp> {
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const child = spawn(process.execPath, [EVERYTHING, mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    try {
      await waitFor(() => err.includes(`port ${port}`) || child.exitCode !== null, 20_000, `server-everything ${mode} to listen`);
    } catch (e) {
      child.kill('SIGKILL');
      throw e;
    }
    if (child.exitCode === null) {
      return {
        origin: `http://127.0.0.1:${port}`,
        child,
        stop: async () => {
          child.kill('SIGTERM');
          await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        },
      };
    }
    if (attempt >= 3 || !err.includes('in use')) throw new Error(`server-everything ${mode} did not start: ${err}`);
  }
}
