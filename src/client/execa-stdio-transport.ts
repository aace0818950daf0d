/**
 * The SDK's stdio client transport with execa doing the spawn: doctor, check --run and demo start their
 * child (mcp-tap, or a host's server command) the same way the proxy starts a server, so a bare name
 * resolves the same way on every OS. Framing is the SDK's own (ReadBuffer, serializeMessage); the close
 * sequence is the SDK's: stdin closed, 2 s, SIGTERM, 2 s, SIGKILL.
 */
import { PassThrough, type Readable } from 'node:stream';
import type { ChildProcess } from 'node:child_process';
import { execa } from 'execa';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface ExecaStdioParams {
  command: string;
  args?: string[];
  /** Added to the SDK's default environment (HOME, PATH, …), as the SDK transport does. */
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** 'pipe': the child's stderr is readable from `stderr`; default: inherited. */
  stderr?: 'pipe' | 'inherit';
}

const STEP_MS = 2000;

/** A Transport over a child process's stdin/stdout, spawned by execa. */
export class ExecaStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private process: ChildProcess | undefined;
  private readonly readBuffer = new ReadBuffer();
  private readonly stderrStream: PassThrough | null;

  constructor(private readonly params: ExecaStdioParams) {
    this.stderrStream = params.stderr === 'pipe' ? new PassThrough() : null;
  }

  /** The child's stderr when `stderr: 'pipe'` (readable before start(), like the SDK's). */
  get stderr(): Readable | null {
    return this.stderrStream;
  }

  get pid(): number | null {
    return this.process?.pid ?? null;
  }

  start(): Promise<void> {
    if (this.process) throw new Error('ExecaStdioTransport already started');
    return new Promise((resolve, reject) => {
      const child = execa(this.params.command, this.params.args ?? [], {
        env: { ...getDefaultEnvironment(), ...this.params.env },
        extendEnv: false,
        ...(this.params.cwd !== undefined ? { cwd: this.params.cwd } : {}),
        stdio: ['pipe', 'pipe', this.params.stderr === 'pipe' ? 'pipe' : 'inherit'],
        buffer: false,
        reject: false,
        cleanup: true,
        forceKillAfterDelay: false,
        windowsHide: true,
      });
      const proc = child as unknown as ChildProcess;
      this.process = proc;
      proc.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      proc.on('spawn', () => resolve());
      proc.on('close', () => {
        this.process = undefined;
        this.onclose?.();
      });
      proc.stdin?.on('error', (error) => this.onerror?.(error));
      proc.stdout?.on('data', (chunk: Buffer) => {
        try {
          this.readBuffer.append(chunk);
        } catch (error) {
          // a line past the SDK's bound: the session cannot go on
          this.onerror?.(error as Error);
          this.close().catch(() => {});
          return;
        }
        for (;;) {
          let message: JSONRPCMessage | null;
          try {
            message = this.readBuffer.readMessage();
          } catch (error) {
            this.onerror?.(error as Error);
            continue;
          }
          if (message === null) break;
          this.onmessage?.(message);
        }
      });
      proc.stdout?.on('error', (error) => this.onerror?.(error));
      if (this.stderrStream && proc.stderr) proc.stderr.pipe(this.stderrStream);
    });
  }

  async close(): Promise<void> {
    const proc = this.process;
    this.process = undefined;
    if (proc) {
      const closed = new Promise<void>((resolve) => proc.once('close', () => resolve()));
      const step = () => Promise.race([closed, new Promise<void>((resolve) => setTimeout(resolve, STEP_MS).unref())]);
      try {
        proc.stdin?.end();
      } catch {
        // already closed
      }
      await step();
      for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
        if (proc.exitCode !== null || proc.signalCode !== null) break;
        try {
          proc.kill(signal);
        } catch {
          // already gone
        }
        if (signal === 'SIGTERM') await step();
      }
    }
    this.readBuffer.clear();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.process?.stdin;
      if (!stdin) {
        reject(new Error('Not connected'));
        return;
      }
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }
}
