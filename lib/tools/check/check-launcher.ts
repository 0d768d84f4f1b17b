import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { LAUNCHER_SOURCE } from './launcher-source';

/** What supervising a check needs of its child: a ChildProcess, or a `RemoteChild` the launcher started. */
export interface SandboxChild {
  readonly pid?: number | undefined;
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
  /** [stdin, stdout, stderr, report channel]; what is there has `on`, stdin `end`. */
  readonly stdio: readonly unknown[];
  readonly stdin: { end(data?: string): unknown; on(event: 'error', listener: () => void): unknown } | null;
  readonly stderr: { on(event: 'data', listener: (chunk: Buffer) => void): unknown } | null;
  kill(signal: NodeJS.Signals): boolean;
  on(event: 'error', listener: (error: Error) => void): this;
  on(event: 'close' | 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): this;
  once(event: 'spawn', listener: () => void): this;
}

type LauncherMessage =
  | { id: number; op: 'pid'; pid: number | null }
  | { id: number; op: 'report' | 'stderr'; data: string }
  | { id: number; op: 'error'; message: string }
  | { id: number; op: 'close'; code: number | null; signal: NodeJS.Signals | null };

/** A sandbox child started by the launcher: its pipes arrive as messages, and it is signalled by message (SIGINT or SIGKILL). */
export class RemoteChild extends EventEmitter implements SandboxChild {
  pid: number | undefined;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  readonly stderr = new EventEmitter();
  readonly report = new EventEmitter();
  readonly stdin: { end(data?: string): void; on(event: 'error', listener: () => void): unknown };
  readonly stdio: readonly unknown[];
  private refd = false;

  constructor(
    private readonly id: number,
    private readonly launcher: CheckLauncher,
  ) {
    super();
    this.stdin = { end: (data = '') => launcher.send({ op: 'stdin', id, data }), on: () => undefined };
    this.stdio = [this.stdin, null, this.stderr, this.report];
  }

  /** SIGINT interrupts the tests (past their CPU time); any other signal is sent as SIGKILL. */
  kill(signal: NodeJS.Signals = 'SIGKILL'): boolean {
    if (this.exitCode !== null || this.signalCode !== null) return false;
    this.launcher.send({ op: 'kill', id: this.id, signal: signal === 'SIGINT' ? 'SIGINT' : 'SIGKILL' });
    return true;
  }

  /** A child in use keeps the server's process alive (through the launcher's pipes); a warm one does not. */
  ref(): void {
    if (this.exitCode !== null || this.signalCode !== null) return;
    if (!this.refd) this.launcher.hold(+1);
    this.refd = true;
  }

  unref(): void {
    if (this.refd) this.launcher.hold(-1);
    this.refd = false;
  }

  /** @internal A message from the launcher about this child. */
  receive(message: LauncherMessage): void {
    switch (message.op) {
      case 'pid':
        this.pid = message.pid ?? undefined;
        if (this.pid !== undefined) this.emit('spawn');
        return;
      case 'report':
        this.report.emit('data', Buffer.from(message.data, 'base64'));
        return;
      case 'stderr':
        this.stderr.emit('data', Buffer.from(message.data, 'utf8'));
        return;
      case 'error':
        this.emit('error', new Error(message.message));
        return;
      case 'close':
        this.exitCode = message.code;
        this.signalCode = message.signal ?? (message.code === null ? 'SIGKILL' : null);
        this.unref();
        this.emit('exit', message.code, message.signal);
        this.emit('close', message.code, message.signal);
        return;
    }
  }
}

/**
 * The check launcher process (see launcher-source.ts), started on first use: sandbox children
 * are started by it, so the server's event loop never waits for a fork. If it dies, its
 * children are reported closed (killed) and the next check starts a new one.
 */
export class CheckLauncher {
  private process: ChildProcess | undefined;
  private readonly children = new Map<number, RemoteChild>();
  private nextId = 1;
  private pending = '';
  private holds = 0;

  /** Starts `command args` through the launcher at CPU priority `nice`; of its report and stderr, relays up to the limits given. */
  spawn(options: {
    command: string;
    args: readonly string[];
    nice: number;
    maxReportBytes: number;
    maxStderrChars: number;
  }): RemoteChild {
    const id = this.nextId++;
    const child = new RemoteChild(id, this);
    this.children.set(id, child);
    this.send({ op: 'spawn', id, ...options });
    return child;
  }

  /** @internal */
  send(message: Record<string, unknown>): void {
    const launcher = this.start();
    launcher.stdin?.write(`${JSON.stringify(message)}\n`);
  }

  /** @internal Children in use keep the launcher (and so this process) referenced. */
  hold(delta: number): void {
    this.holds += delta;
    this.setRef(this.holds > 0);
  }

  private setRef(on: boolean): void {
    const launcher = this.process;
    if (!launcher) return;
    for (const handle of [launcher, launcher.stdin, launcher.stdout] as Array<{
      ref?: () => void;
      unref?: () => void;
    } | null>) {
      if (on) handle?.ref?.();
      else handle?.unref?.();
    }
  }

  private start(): ChildProcess {
    if (this.process) return this.process;
    const launcher = spawn(process.execPath, ['--no-warnings', '-e', LAUNCHER_SOURCE], {
      env: {} as NodeJS.ProcessEnv,
      cwd: '/',
      stdio: ['pipe', 'pipe', 'ignore'],
      windowsHide: true,
    });
    this.process = launcher;
    launcher.stdout?.setEncoding('utf8');
    launcher.stdout?.on('data', (text: string) => this.read(text));
    launcher.stdin?.on('error', () => undefined);
    launcher.on('error', () => undefined);
    launcher.on('close', () => {
      if (this.process === launcher) this.process = undefined;
      this.pending = '';
      const orphans = [...this.children.values()];
      this.children.clear();
      for (const child of orphans) child.receive({ id: 0, op: 'close', code: null, signal: 'SIGKILL' });
    });
    this.setRef(this.holds > 0);
    return launcher;
  }

  private read(text: string): void {
    this.pending += text;
    for (let at = this.pending.indexOf('\n'); at >= 0; at = this.pending.indexOf('\n')) {
      const line = this.pending.slice(0, at);
      this.pending = this.pending.slice(at + 1);
      if (!line) continue;
      const message = JSON.parse(line) as LauncherMessage;
      const child = this.children.get(message.id);
      if (message.op === 'close') this.children.delete(message.id);
      child?.receive(message);
    }
  }
}
