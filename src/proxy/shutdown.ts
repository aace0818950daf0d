/**
 * Shutdown as the official SDKs do it: stdin closed → wait → SIGTERM → wait → SIGKILL. Signals sent to
 * mcp-tap are forwarded, then the same escalation; a second one kills at once. When the server has exited
 * but its pipes stay open (held by grandchildren), mcp-tap stops waiting after the grace period; when it
 * has not exited a grace period after SIGKILL (a tree stop that failed), mcp-tap says so and stops too.
 */
import type { ChildProcess } from 'node:child_process';
import { stopTree, treeStopPlan } from '../platform/process-tree.js';
import type { ServerEnd } from './spawn-server.js';

export interface ShutdownHooks {
  graceMs: number;
  warn: (message: string) => void;
  /** The debug trace: each step with its timing. */
  trace?: (msg: string, fields?: Record<string, unknown>) => void;
  /** mcp-tap sent a signal of its own (escalation). */
  onKill: (signal: NodeJS.Signals, reason: string) => void;
  /** The server process exited (its pipes may still be open). */
  onExit: (code: number | null, signal: NodeJS.Signals | null) => void;
  /** Everything is over: the server is gone and its output drained (or abandoned). */
  onDone: (result: { code: number | null; signal: NodeJS.Signals | null; forced: boolean }) => void;
}

/** Owns the server's end: escalation timers, exit and close bookkeeping. */
export class Shutdown {
  private exited = false;
  private exitCode: number | null = null;
  private exitSignal: NodeJS.Signals | null = null;
  private done = false;
  private escalation: NodeJS.Timeout | null = null;
  private drainTimer: NodeJS.Timeout | null = null;
  /** The pipes were given up on: however the end comes now, it is a forced one. */
  private abandoned = false;
  /** Armed by SIGKILL: the bound on the whole stop. */
  private giveUpTimer: NodeJS.Timeout | null = null;
  private signalsForwarded = 0;
  /** The host closed stdin or stopped reading: shutdown was already asked for before any signal. */
  private asked = false;
  /** When the first shutdown step happened (debug trace timings). */
  private startedAt: number | undefined;

  constructor(
    private readonly child: ChildProcess,
    private readonly hooks: ShutdownHooks,
    /** How the server has ended so far (spawn-server.ts): it may have exited, even closed, before this exists. */
    end: ServerEnd = { exit: null, closed: false },
  ) {
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      this.step('server exited', { code, signal });
      this.exited = true;
      this.exitCode = code;
      this.exitSignal = signal;
      this.clearEscalation();
      hooks.onExit(code, signal);
      // stdio normally closes right after exit; grandchildren holding the pipes must not keep us alive
      this.drainTimer = setTimeout(() => this.abandonPipes(), hooks.graceMs);
    };
    // the server starts before the relay's code is loaded (early-start.ts): a server that exits at once
    // has its 'exit' and 'close' events behind it by the time this object exists
    const exit = end.exit;
    if (exit !== null) queueMicrotask(() => onExit(exit.code, exit.signal));
    else child.once('exit', onExit);
    if (end.closed) queueMicrotask(() => this.finish(false));
    else child.once('close', () => this.finish(false));
    child.on('error', () => {
      // kill() on a process that is already gone: nothing to do
    });
  }

  /** The host closed our stdin: the server's stdin is closed by the pump; give it time to leave. */
  hostClosedStdin(): void {
    this.step('stdin closed by the host; the server gets the grace period', { graceMs: this.hooks.graceMs });
    this.asked = true;
    this.escalate(['SIGTERM', 'SIGKILL'], 'stdin closed by the host');
  }

  /** The host stopped reading our stdout (EPIPE): close the server's stdin and shut it down. */
  hostGone(): void {
    this.step('the host stopped reading; closing the server\'s stdin', { graceMs: this.hooks.graceMs });
    this.asked = true;
    this.child.stdin?.end();
    this.escalate(['SIGTERM', 'SIGKILL'], 'the host stopped reading stdout');
  }

  /** A signal sent to mcp-tap: pass it on; a second one kills at once. */
  forwardSignal(signal: NodeJS.Signals): void {
    if (this.exited) return;
    this.step('forwarding a signal', { signal, forwarded: this.signalsForwarded + 1 });
    this.signalsForwarded++;
    if (this.signalsForwarded >= 2) {
      this.clearEscalation();
      this.kill('SIGKILL', `second signal (${signal})`);
      return;
    }
    this.kill(signal, 'forwarded', false);
    this.clearEscalation();
    // A host that signals after closing stdin runs the same clock as mcp-tap (the SDKs: stdin closed, 2 s,
    // SIGTERM, 2 s, SIGKILL) but started it first; with a full grace period here its SIGKILL would reach
    // mcp-tap before ours reached the server, orphaning a server that ignores SIGTERM. Half is enough:
    // the server has already had a grace period since its stdin closed.
    const delay = this.asked ? Math.floor(this.hooks.graceMs / 2) : this.hooks.graceMs;
    this.escalate(signal === 'SIGTERM' ? ['SIGKILL'] : ['SIGTERM', 'SIGKILL'], `forwarded ${signal}`, delay);
  }

  private escalate(steps: NodeJS.Signals[], reason: string, delayMs = this.hooks.graceMs): void {
    if (this.exited || this.escalation || this.done) return;
    const next = (i: number) => {
      const signal = steps[i];
      if (signal === undefined) return;
      this.escalation = setTimeout(() => {
        this.escalation = null;
        if (this.exited) return;
        this.kill(signal, `${reason}; the server did not exit within ${delayMs} ms`);
        next(i + 1);
      }, delayMs);
    };
    next(0);
  }

  private kill(signal: NodeJS.Signals, reason: string, record = true): void {
    this.step('kill', { signal, reason, platform: process.platform });
    if (record) this.hooks.onKill(signal, reason);
    if (signal === 'SIGKILL') this.armGiveUp();
    // Windows has no signals: kill() would end the server alone, leaving what `npx`/cmd.exe started
    if (process.platform === 'win32') {
      void this.stopTreeReported(signal);
      return;
    }
    try {
      this.child.kill(signal);
    } catch {
      // already gone
    }
  }

  /** The tree stop, its fallback (if taskkill failed) told on stderr and in the trace. */
  private stopTreeReported(signal: NodeJS.Signals): Promise<void> {
    return stopTree(treeStopPlan(process.platform, this.child.pid, signal), this.child).then((fallback) => {
      if (fallback === null) return;
      this.step('tree stop fell back', { message: fallback });
      this.hooks.warn(fallback);
    });
  }

  /** SIGKILL was sent: if the server is still there a grace period later, stop waiting for it. */
  private armGiveUp(): void {
    if (this.giveUpTimer || this.done) return;
    this.giveUpTimer = setTimeout(() => {
      if (this.exited || this.done) return;
      this.step('the server outlived SIGKILL; giving up on it', { graceMs: this.hooks.graceMs });
      this.hooks.warn(`the server (pid ${this.child.pid}) had not exited ${this.hooks.graceMs} ms after it was killed; mcp-tap stops waiting for it (it may still be running)`);
      this.abandoned = true;
      this.child.stdout?.destroy();
      this.child.stderr?.destroy();
      this.exited = true;
      this.finish(true);
    }, this.hooks.graceMs);
  }

  /** A trace record with the milliseconds since shutdown was first asked for. */
  private step(msg: string, fields: Record<string, unknown>): void {
    if (this.hooks.trace === undefined) return;
    this.startedAt ??= performance.now();
    this.hooks.trace(`shutdown: ${msg}`, { ...fields, ms: Math.round((performance.now() - this.startedAt) * 1000) / 1000 });
  }

  private clearEscalation(): void {
    if (this.escalation) clearTimeout(this.escalation);
    this.escalation = null;
  }

  private abandonPipes(): void {
    if (this.done) return;
    this.abandoned = true;
    this.hooks.warn(
      `the server exited but its stdout/stderr stayed open for ${this.hooks.graceMs} ms (held by a process it started?); stopping`,
    );
    this.child.stdout?.destroy();
    this.child.stderr?.destroy();
    // the holders are in the server's process group (POSIX) or tree (Windows): they go with it; a
    // Windows stop that must list the tree is waited for, a grace period at most
    let bound: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (bound = setTimeout(resolve, this.hooks.graceMs)));
    void Promise.race([this.stopTreeReported('SIGTERM'), waited]).then(() => {
      clearTimeout(bound);
      this.finish(true);
    });
  }

  private finish(forced: boolean): void {
    if (this.done || !this.exited) return;
    this.done = true;
    if (this.drainTimer) clearTimeout(this.drainTimer);
    if (this.giveUpTimer) clearTimeout(this.giveUpTimer);
    this.clearEscalation();
    this.hooks.onDone({ code: this.exitCode, signal: this.exitSignal, forced: forced || this.abandoned });
  }
}
