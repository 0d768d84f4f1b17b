import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CreateRunBodySchema } from '@/lib/protocol/http/runs';
import { reduceRunEvent } from '@/lib/run-view/reduce-run-event';
import { resolveFork } from '@/lib/server/resolve-fork';
import type { RunStore } from '@/lib/store';
import { initialRunViewState } from '@/lib/run-view/run-view-state';
import type { EventOf, McpConfig, RunEvent } from '@/lib/protocol';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';

/**
 * Runs that take their file tools from the shipped MCP server, a real process of its own started
 * through the official SDK, over stdio and over Streamable HTTP, with the transport faults the
 * config names. Each run must recover (reconnect, re-list) or say why it cannot, and leave no
 * process behind.
 */

type McpInput = Partial<McpConfig> & Pick<McpConfig, 'servers'>;

/** The shipped server's processes this test process started and that still run. */
function serverChildren(): string[] {
  const out = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((line) => line.includes('workspace-server-main.ts'))
    .filter((line) => Number(line.trim().split(/\s+/)[1]) === process.pid);
}

/** The shipped server's folders (a run makes one per shipped server and removes it when it ends). */
const serverFolders = (): string[] =>
  readdirSync(tmpdir()).filter((name) => name.startsWith('loop-lab-mcp-'));
let foldersBefore: string[] = [];

beforeEach(() => {
  foldersBefore = serverFolders();
});

afterEach(() => {
  expect(serverChildren()).toEqual([]);
  expect(serverFolders().filter((name) => !foldersBefore.includes(name))).toEqual([]);
});

const decisions = (events: RunEvent[]): EventOf<'mechanism_decision'>[] =>
  ofType(events, 'mechanism_decision').filter((e) => e.mechanism.startsWith('mcp:'));

const steps = (events: RunEvent[]): string[] => decisions(events).map((e) => `${e.decision}→${e.next}`);

async function run(mcp: McpInput, extra: Record<string, unknown> = {}): Promise<RunEvent[]> {
  return runToEnd({ mcp: mcp as McpConfig, ...extra });
}

const stdio = { name: 'ws', shipped: 'workspace', transport: 'stdio' } as const;
const http = { name: 'ws', shipped: 'workspace', transport: 'http' } as const;

/** The client's decisions when a server is lost to `cause` and comes back. */
const reconnected = (cause: string): string[] => [
  'connected→go_on',
  `${cause}→reconnect`,
  'reconnect→connect',
  'reconnected→relist',
  'relisted→go_on',
];

describe('the shipped MCP server, killed mid-call', () => {
  it.each([
    ['stdio', stdio],
    ['Streamable HTTP', http],
  ])(
    'over %s: the run reconnects, re-lists and finishes the task',
    async (_, server) => {
      const events = await run({
        servers: [server],
        faults: [{ id: 'kill', kind: 'crash', server: 'ws', onCall: 2, times: 1 }],
      });
      expect(steps(events)).toEqual(reconnected('crashed'));
      const crashed = decisions(events).find((e) => e.decision === 'crashed')!;
      expect(crashed.why).toMatch(
        /while read_file was running \(MCP fault "kill": process exited \(SIGKILL\)\)/,
      );
      const calls = ofType(events, 'tool_call');
      const killed = calls.find((c) => c.seq > crashed.seq)!;
      expect(killed).toMatchObject({ tool: 'read_file', is_error: true });
      expect(killed.result).toMatch(/restarted and its tools re-listed/);
      // The reconnect waited its backoff on the run's clock.
      const reconnect = decisions(events).find((e) => e.decision === 'reconnected')!;
      expect(reconnect.ts - crashed.ts).toBeGreaterThanOrEqual(500);
      // Later reads go through the new process and the task is done.
      expect(
        calls.filter((c) => c.tool === 'read_file' && c.seq > killed.seq && c.status === 'ok').length,
      ).toBeGreaterThan(0);
      expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
      // The run header's server line: the last decision, in its own words.
      const view = events.reduce(reduceRunEvent, initialRunViewState());
      expect(view.mcpServers).toEqual({
        ws: {
          decision: 'relisted',
          next: 'go_on',
          why: expect.stringMatching(/^re-listed its tools after the reconnect: 3/),
          seq: expect.any(Number),
          decisions: 5,
        },
      });
    },
    90_000,
  );

  it('with reconnecting off, the server is gone and its tools answer why', async () => {
    const events = await run({
      servers: [stdio],
      faults: [{ id: 'kill', kind: 'crash', server: 'ws', onCall: 1, times: 1 }],
      recovery: { reconnect: false, maxReconnects: 3, backoffMs: 500, relist: true, callTimeoutMs: 30_000 },
    });
    expect(steps(events)).toEqual(['connected→go_on', 'crashed→gone', 'gone→surface']);
    const later = ofType(events, 'tool_call').filter((c) =>
      ['list_files', 'read_file', 'write_file'].includes(c.tool),
    );
    expect(later.length).toBeGreaterThan(1);
    // Every later call is refused: by the gone server's own answer, or by the loop guard it set off.
    expect(later.slice(1).every((c) => c.is_error)).toBe(true);
    const ran = later.slice(1).filter((c) => c.status === 'error');
    expect(ran.length).toBeGreaterThan(1);
    for (const c of ran)
      expect(c.result).toMatch(
        /which is gone for the rest of this run \(the server crashed, and reconnecting is off\)/,
      );
    expect(terminateOf(events).reason).not.toBe('internal_error');
  }, 60_000);

  it('the same config and seed give the same log', async () => {
    const mcp = {
      servers: [stdio],
      faults: [{ id: 'kill', kind: 'crash' as const, server: 'ws', onCall: 2, times: 1 }],
    };
    const strip = (events: RunEvent[]) => JSON.stringify(events);
    expect(strip(await run(mcp))).toBe(strip(await run(mcp)));
  }, 120_000);
});

/** A transport fault on the shipped server, and what the run's log must show for it. */
interface FaultCase {
  name: string;
  server: typeof stdio | typeof http;
  fault: McpConfig['faults'][number];
  recovery?: McpConfig['recovery'];
  extra?: Record<string, unknown>;
  /** The client's decisions, in order (with `firstSteps`: the first of them). */
  steps: string[];
  firstSteps?: true;
  /** A decision's reason, by its place among the client's decisions. */
  why?: [number, RegExp];
  /** The run ends with its task done (end_turn, complete). */
  done?: true;
  check?: (events: RunEvent[]) => void;
}

const FAULT_CASES: FaultCase[] = [
  {
    name: 'a session that expires (HTTP 404 on the session id): a new session, and the call is sent again',
    server: http,
    fault: { id: 'expire', kind: 'session_expired', server: 'ws', onCall: 2, times: 1 },
    steps: reconnected('session_expired'),
    why: [1, /answered 404 on the session id/],
    done: true,
    check: (events) => {
      // The call the expiry hit was answered after all: no read_file failed.
      expect(ofType(events, 'tool_call').filter((c) => c.is_error)).toEqual([]);
    },
  },
  {
    name: 'a call that hangs ends at its timeout on the run clock; the server stays',
    server: stdio,
    fault: { id: 'stall', kind: 'hang', server: 'ws', onCall: 2, times: 1 },
    recovery: { reconnect: true, maxReconnects: 3, backoffMs: 500, relist: true, callTimeoutMs: 4_000 },
    steps: ['connected→go_on', 'hung→surface'],
    done: true,
    check: (events) => {
      const call = ofType(events, 'tool_call').find((c) => c.is_error)!;
      expect(call.result).toMatch(/did not answer within 4000 ms/);
      expect(call.latency_ms).toBe(4_000);
    },
  },
  {
    name: 'a malformed JSON-RPC answer: the connection is reset and the tools re-listed',
    server: stdio,
    fault: { id: 'garble', kind: 'malformed', server: 'ws', onCall: 1, times: 1 },
    steps: reconnected('malformed'),
    why: [1, /malformed JSON-RPC message \(MCP fault "garble": \{"jsonrpc":"2.0","id":\d+,"result"/],
    done: true,
  },
  {
    name: 'the tool list changes between calls: re-listed, and a call to the tool gone says so',
    server: stdio,
    fault: { id: 'shrink', kind: 'list_changed', server: 'ws', onCall: 1, times: 1, remove: 'read_file' },
    steps: ['connected→go_on', 'list_changed→relist', 'relisted→go_on'],
    why: [2, /after notifications\/tools\/list_changed: 2 \(gone: read_file\)/],
    check: (events) => {
      const read = ofType(events, 'tool_call').find((c) => c.tool === 'read_file')!;
      expect(read.result).toMatch(
        /no longer offers read_file \(its tool list changed\)\. It offers: list_files, write_file/,
      );
    },
  },
  {
    name: 'results flagged isError spend one failure budget for the whole server',
    server: stdio,
    fault: { id: 'bad', kind: 'is_error', server: 'ws', onCall: 1, times: 3 },
    extra: { preset: 'course' },
    steps: ['connected→go_on', 'is_error→surface', 'is_error→surface', 'is_error→surface'],
    firstSteps: true,
    check: (events) => {
      // One account for the server: list_files and read_file failures count down the same budget.
      const failed = ofType(events, 'tool_call').filter((c) => c.status === 'error');
      expect(failed.map((c) => [c.tool, c.budget_left])).toEqual([
        ['list_files', 2],
        ['read_file', 1],
        ['read_file', 0],
      ]);
      const disabled = ofType(events, 'tool_guard').find((g) => g.kind === 'disabled')!;
      expect(disabled.reason).toBe('the tools of mcp:ws failed 3 times (budget 3)');
    },
  },
];

describe('the other MCP transport faults', () => {
  /** One case of the table: what its fault must make the client decide, and what else the log shows. */
  async function holds(c: FaultCase): Promise<void> {
    const mcp = { servers: [c.server], faults: [c.fault], ...(c.recovery ? { recovery: c.recovery } : {}) };
    const events = await run(mcp, c.extra);
    const got = steps(events);
    expect(c.firstSteps ? got.slice(0, c.steps.length) : got).toEqual(c.steps);
    if (c.why) expect(decisions(events)[c.why[0]]!.why).toMatch(c.why[1]);
    c.check?.(events);
    if (c.done) expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
  }
  for (const c of FAULT_CASES) it(c.name, () => holds(c), 60_000);
});

/** The shipped server's entry, started as a server of one's own (a command or a URL). */
const script = path.resolve('lib/tools/mcp/workspace-server-main.ts');
const serve = (dir: string) => ({
  command: process.execPath,
  args: ['--import', 'tsx', script, '--root', dir],
});

/** A folder a server of one's own serves, one file in it: the run's workspace is not its (only the shipped server mirrors it). */
function folder(prefix: string, file: string, text: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  writeFileSync(path.join(dir, file), text);
  return dir;
}

describe('servers of one’s own (the CLI)', () => {
  it('a command on stdio: its tools take the built-in tools’ places, and answer from its own folder', async () => {
    const dir = folder('mcp-own-', 'NOTES.md', 'served from a folder of its own\n');
    try {
      const events = await run({
        servers: [{ name: 'mine', ...serve(dir) }],
      });
      expect(decisions(events)[0]!.why).toMatch(/^connected to .*node over stdio; it lists 3 tools/);
      const listed = ofType(events, 'tool_call').find((c) => c.tool === 'list_files')!;
      expect(listed.result).toMatch(/NOTES\.md/);
      // Forked through the web, the run would start the command again: refused, naming why.
      const config = ofType(events, 'run_start')[0]!.config;
      const store = {
        getRun: () => ({ config, summary: { status: 'done' } }),
        readEvents: () => events,
      } as unknown as RunStore;
      await expect(
        resolveFork({ store, spec: { runId: 'test-run', atTurn: 2 }, keySent: false }),
      ).rejects.toThrow(
        expect.objectContaining({
          status: 400,
          details: [
            expect.stringMatching(
              /^config\.mcp\.servers\.0 \(from the parent's config\): an MCP server with a command/,
            ),
          ],
        }),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('a URL: a crash drops the connection, and the client reconnects to the same URL', async () => {
    const dir = folder('mcp-own-', 'NOTES.md', 'served from a folder of its own\n');
    const child = spawn(process.execPath, ['--import', 'tsx', script, '--root', dir, '--http'], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    try {
      const url = await new Promise<string>((resolve) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /listening (\S+)\n/.exec(out);
          if (match) resolve(match[1]!);
        });
      });
      const events = await run({
        servers: [{ name: 'remote', url }],
        faults: [{ id: 'drop', kind: 'crash', server: 'remote', onCall: 1, times: 1 }],
      });
      expect(steps(events)).toEqual(reconnected('crashed'));
      expect(decisions(events)[1]!.why).toMatch(/MCP fault "drop": connection dropped/);
      expect(
        ofType(events, 'tool_call').some((c) => c.tool === 'list_files' && /NOTES\.md/.test(c.result!)),
      ).toBe(true);
    } finally {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await gone;
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('which MCP servers a web request may name', () => {
  const body = (server: unknown) => ({
    config: { provider: { vendor: 'sim-anthropic' }, mcp: { servers: [server] } },
  });
  it('refuses a command or a URL of its own, and takes the shipped server or one the environment allows', () => {
    const command = CreateRunBodySchema.safeParse(body({ name: 'x', command: 'rm', args: ['-rf', '/'] }));
    expect(command.success).toBe(false);
    expect(JSON.stringify(command.error!.issues)).toMatch(/runs only from the CLI/);
    expect(CreateRunBodySchema.safeParse(body({ name: 'x', url: 'http://127.0.0.1:9/mcp' })).success).toBe(
      false,
    );
    expect(CreateRunBodySchema.safeParse(body(stdio)).success).toBe(true);
    expect(CreateRunBodySchema.safeParse(body({ name: 'x', allowed: true })).success).toBe(true);
  });

  it('a server the environment allows by name is started from its definition there', async () => {
    const dir = folder('mcp-allowed-', 'ALLOWED.md', 'allowed by the environment\n');
    const before = process.env.LOOP_LAB_MCP_SERVERS;
    process.env.LOOP_LAB_MCP_SERVERS = JSON.stringify({ files: serve(dir) });
    try {
      const events = await run({ servers: [{ name: 'files', allowed: true }] });
      expect(decisions(events)[0]).toMatchObject({ mechanism: 'mcp:files', decision: 'connected' });
      const listed = ofType(events, 'tool_call').find((c) => c.tool === 'list_files')!;
      expect(listed.result).toMatch(/ALLOWED\.md/);
    } finally {
      if (before === undefined) delete process.env.LOOP_LAB_MCP_SERVERS;
      else process.env.LOOP_LAB_MCP_SERVERS = before;
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('a server the environment does not name is gone at the start, with the reason', async () => {
    const events = await run({ servers: [{ name: 'nope', allowed: true }] });
    expect(decisions(events).map((e) => [e.decision, e.why])).toEqual([
      [
        'gone',
        expect.stringMatching(/environment does not allow a server named "nope" \(LOOP_LAB_MCP_SERVERS\)/),
      ],
    ]);
    expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
  }, 30_000);
});
