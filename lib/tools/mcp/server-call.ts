/** One call sent to an MCP server: the fault that hits it, and what the call's failure decides. */
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Clock } from '@/lib/clock';
import type { McpConfig, McpFault } from '@/lib/protocol';
import type { ToolContext, ToolResult } from '../types';
import { syncIn } from './folder-sync';
import type { FaultEffect } from './faulty-transport';
import { WALL_LIMIT_MS, WallLimitError, withinWallLimit, type Connection } from './server-process';

/** The decision words the hub writes (a `mechanism_decision` event's `decision`), each with what happens next. */
export type Decision =
  | 'connected'
  | 'connect_failed'
  | 'crashed'
  | 'lost'
  | 'malformed'
  | 'session_expired'
  | 'hung'
  | 'is_error'
  | 'list_changed'
  | 'reconnect'
  | 'reconnected'
  | 'relisted'
  | 'gone'
  | 'fault_skipped';

/** The text of a tools/call result: its text parts, and a word for each part of another kind. */
function resultText(result: object): string {
  const content = 'content' in result ? result.content : undefined;
  const parts = Array.isArray(content) ? (content as { type: string; text?: string }[]) : [];
  return parts.map((p) => (p.type === 'text' ? (p.text ?? '') : `[${p.type} content]`)).join('\n');
}

/** An error's message, cut to 300 characters for an event or a result. */
export function describe(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 300) : String(error).slice(0, 300);
}

function isSessionGone(error: unknown): boolean {
  return error instanceof StreamableHTTPError && error.code === 404;
}

/** What a call reads of its server's client (server-client.ts): the connection in force, its recovery and its words. */
export interface ServerLink {
  name: string;
  config: McpConfig;
  clock: Clock;
  /** Whether a lost server is reconnected at all (off, or no attempts: it is gone). */
  reconnects: boolean;
  /** The shipped server's folder: the workspace is synced back from it after a call that did not fail. */
  dir: string | undefined;
  /** Tools a list_changed fault took off the server's list. */
  removed: Set<string>;
  /** The connection in force (a reconnect replaces it). */
  conn(): Connection | undefined;
  /** Whether the server is gone for the rest of the run. */
  gone(): boolean;
  decide(decision: Decision, next: string, why: string): void;
  /** Reconnects with a doubling wait on the run's clock; false when the server is gone. */
  recover(cause: string): Promise<boolean>;
  /** The error a call of a tool on a gone server answers. */
  goneText(tool: string): string;
}

/**
 * Sends one call to the server with the fault that hits it (armed on the transport): a hang
 * cancelled after the call timeout of run time, a crash or a malformed message answered with an
 * error after a reconnect, an expired session renewed and the call sent once more, a lost
 * connection recovered as a crash; each decision written through the link.
 */
export async function sendCall(
  link: ServerLink,
  tool: string,
  args: unknown,
  ctx: ToolContext,
  fault: McpFault | undefined,
  armed: Promise<FaultEffect> | undefined,
  mayRetry: boolean,
): Promise<ToolResult> {
  const { name, config, clock, reconnects, dir, removed, decide, recover, goneText } = link;
  const controller = new AbortController();
  const request = link
    .conn()!
    .client.callTool({ name: tool, arguments: (args ?? {}) as Record<string, unknown> }, undefined, {
      signal: controller.signal,
      timeout: WALL_LIMIT_MS,
    });
  request.catch(() => undefined);
  if (fault?.kind === 'hang') {
    const timeout = config.recovery.callTimeoutMs;
    try {
      await clock.sleep(timeout, ctx.signal);
    } finally {
      controller.abort(new Error('timed out'));
    }
    decide(
      'hung',
      'surface',
      `${tool} did not answer within ${timeout} ms of run time (MCP fault "${fault.id}"): the call is cancelled and answered with an error; the server stays connected`,
    );
    return {
      content: `Error: ${tool} on the MCP server "${name}" did not answer within ${timeout} ms and was cancelled. Try again, or use another approach.`,
      isError: true,
    };
  }
  if (fault?.kind === 'crash' || fault?.kind === 'malformed') {
    const effect = await clock.hold(withinWallLimit(armed!, 'the fault'));
    controller.abort(new Error('connection reset'));
    const detail = 'detail' in effect ? effect.detail : '';
    const what =
      fault.kind === 'crash'
        ? `the server crashed while ${tool} was running`
        : `the server answered ${tool} with a malformed JSON-RPC message`;
    decide(
      fault.kind === 'crash' ? 'crashed' : 'malformed',
      reconnects ? 'reconnect' : 'gone',
      `${what} (MCP fault "${fault.id}": ${detail}); the call is answered with an error`,
    );
    const back = await recover(
      fault.kind === 'crash' ? 'the server crashed' : 'the server sent a malformed message',
    );
    return {
      content: back
        ? `Error: ${what}. The server was restarted and its tools re-listed; anything the call did was undone. Send the call again.`
        : goneText(tool),
      isError: true,
    };
  }
  let result: Awaited<typeof request>;
  try {
    result = await clock.hold(withinWallLimit(request, `${tool} on ${name}`));
  } catch (error) {
    if (error instanceof WallLimitError) throw error;
    if (isSessionGone(error)) {
      const why = `the server answered 404 on the session id: the session expired${fault?.kind === 'session_expired' ? ` (MCP fault "${fault.id}")` : ''}`;
      decide(
        'session_expired',
        !mayRetry ? 'surface' : reconnects ? 'reconnect' : 'gone',
        `${why}; ${!mayRetry ? 'it expired again: the call is answered with an error' : reconnects ? `a new session is opened and ${tool} sent again (the server never ran it)` : 'reconnecting is off: the call is answered with an error'}`,
      );
      if (mayRetry && (await recover('the session expired')))
        return sendCall(link, tool, args, ctx, undefined, undefined, false);
      return {
        content: link.gone()
          ? goneText(tool)
          : `Error: the MCP server "${name}" lost the session twice for ${tool}.`,
        isError: true,
      };
    }
    // The server went away without a fault: the same recovery as a crash.
    const cause = `the connection was lost while ${tool} was running (${describe(error)})`;
    decide('lost', reconnects ? 'reconnect' : 'gone', `${cause}; the call is answered with an error`);
    const back = await recover('the connection was lost');
    return {
      content: back
        ? `Error: ${cause}. The server was reconnected and its tools re-listed. Send the call again.`
        : goneText(tool),
      isError: true,
    };
  }
  if (armed) {
    const effect = await clock.hold(withinWallLimit(armed, 'the fault'));
    if (effect.kind === 'is_error')
      decide(
        'is_error',
        'surface',
        `the server flagged ${tool}'s result isError (MCP fault "${fault!.id}"): the model reads it as the tool's error, and it counts against the server's failure budget`,
      );
    if (effect.kind === 'list_changed') {
      if (fault!.remove) removed.add(fault!.remove);
      decide(
        'list_changed',
        config.recovery.relist ? 'relist' : 'go_on',
        `the server sent notifications/tools/list_changed after ${tool} (MCP fault "${fault!.id}"${fault!.remove ? `: ${fault!.remove} is off its list` : ''}); ${config.recovery.relist ? 'its tools are re-listed before its next call' : 're-listing is off: the old list stands'}`,
      );
    }
  }
  const isError = result.isError === true;
  if (dir && !isError) syncIn(dir, ctx.workspace);
  return { content: resultText(result), isError };
}
