import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { McpFault } from '@/lib/protocol';

/** What the fault armed for one call did, once it did it (the hub waits on this, not on the SDK). */
export type FaultEffect =
  | { kind: 'crash'; detail: string }
  | { kind: 'hang' }
  | { kind: 'malformed'; detail: string }
  | { kind: 'list_changed' }
  | { kind: 'is_error' };

/** A request's id, when the message is one. */
function requestId(message: JSONRPCMessage): string | number | undefined {
  return 'method' in message && 'id' in message ? (message.id as string | number) : undefined;
}

/** A response's id, when the message is one. */
function responseId(message: JSONRPCMessage): string | number | undefined {
  return !('method' in message) && 'id' in message ? (message.id as string | number) : undefined;
}

/**
 * The MCP transport beneath the SDK's client, with the transport faults applied to the one
 * tools/call the hub arms (lib/protocol/mcp.ts says what each does). The client sees exactly what
 * a client sees on a bad day: a connection that closes, an answer that never comes, a message that
 * is not JSON-RPC, a result flagged isError, a list_changed notification. What the fault did is
 * also handed to the hub (`effect`), so the hub decides from the fault, not from which of the
 * SDK's own reactions won a race.
 */
export class FaultyTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private armed: { fault: McpFault; resolve: (effect: FaultEffect) => void } | undefined;
  /** The response ids whose answers are dropped (a hang, a malformed answer) or rewritten. */
  private readonly swallowed = new Map<string | number, McpFault>();
  private dead = false;

  constructor(
    private readonly inner: Transport,
    /** Kills the server (the process, or the connection to a server one does not own); resolves once it is gone. */
    private readonly kill: () => Promise<string>,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  async start(): Promise<void> {
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onmessage = (message) => this.receive(message);
    await this.inner.start();
  }

  /** Arms `fault` for the next tools/call; the promise is what it did. */
  arm(fault: McpFault): Promise<FaultEffect> {
    return new Promise((resolve) => {
      this.armed = { fault, resolve };
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const armed = this.armed;
    const id = requestId(message);
    if (!armed || id === undefined || !('method' in message) || message.method !== 'tools/call')
      return this.inner.send(message);
    this.armed = undefined;
    const { fault, resolve } = armed;
    if (fault.kind === 'crash') {
      // The call goes out, then the server dies under it: nothing it says after this is read.
      const sent = this.inner.send(message).catch(() => undefined);
      this.dead = true;
      const detail = await this.kill();
      resolve({ kind: 'crash', detail });
      await sent;
      return;
    }
    this.swallowed.set(id, fault);
    if (fault.kind === 'hang') resolve({ kind: 'hang' });
    this.pending.set(id, resolve);
    return this.inner.send(message);
  }

  private readonly pending = new Map<string | number, (effect: FaultEffect) => void>();

  private receive(message: JSONRPCMessage): void {
    if (this.dead) return;
    const id = responseId(message);
    const fault = id === undefined ? undefined : this.swallowed.get(id);
    if (id === undefined || !fault) return this.onmessage?.(message);
    this.swallowed.delete(id);
    const resolve = this.pending.get(id);
    this.pending.delete(id);
    if (fault.kind === 'hang') return;
    if (fault.kind === 'malformed') {
      // The answer's bytes, cut short: what a client reading them finds.
      const bytes = JSON.stringify(message).slice(0, 40);
      let detail: string;
      try {
        JSONRPCMessageSchema.parse(JSON.parse(bytes));
        detail = 'not a JSON-RPC message';
      } catch (error) {
        detail = error instanceof Error ? error.message.split('\n')[0]!.slice(0, 200) : String(error);
      }
      this.onerror?.(new Error(`malformed JSON-RPC message: ${detail}`));
      resolve?.({ kind: 'malformed', detail: `${bytes}… (${detail})` });
      return;
    }
    if (fault.kind === 'is_error') {
      const text = `Error: the server flagged the result as an error (MCP fault "${fault.id}")`;
      this.onmessage?.({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }], isError: true } });
      resolve?.({ kind: 'is_error' });
      return;
    }
    if (fault.kind === 'list_changed') {
      this.onmessage?.(message);
      this.onmessage?.({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      resolve?.({ kind: 'list_changed' });
      return;
    }
    this.onmessage?.(message);
  }

  async close(): Promise<void> {
    this.dead = true;
    await this.inner.close();
  }
}
