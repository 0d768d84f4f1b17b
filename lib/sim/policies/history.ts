import type { Message } from '@/lib/protocol';
import type { PolicyRequest, PolicyTool, PolicyTurn } from '../types';
import { summaryCalls } from './summary';

/** One tool call the model made earlier and, when the loop sent it, its result. */
export interface CallRecord {
  id: string;
  name: string;
  argsText: string;
  args: Record<string, unknown> | undefined;
  result: { content: string; isError: boolean } | undefined;
}

/**
 * The conversation's tool calls in order, each paired with its result by id. Calls a summary
 * in the conversation records (the history a compaction replaced) count too, with the first
 * line of their result: a model remembers what its summary says it did.
 */
export function callHistory(messages: Message[]): CallRecord[] {
  const records: CallRecord[] = [];
  const byId = new Map<string, CallRecord>();
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type === 'text' && message.role === 'user') {
        summaryCalls(part.text).forEach((c, n) => {
          records.push({
            id: `summary-${records.length}-${n}`,
            name: c.name,
            argsText: c.argsText,
            args: parseArgs(c.argsText),
            result: { content: c.content, isError: c.isError },
          });
        });
      } else if (part.type === 'tool_call') {
        const record: CallRecord = {
          id: part.id,
          name: part.name,
          argsText: part.argsText,
          args: part.args ?? parseArgs(part.argsText),
          result: undefined,
        };
        records.push(record);
        byId.set(part.id, record);
      } else if (part.type === 'tool_result') {
        const record = byId.get(part.callId);
        if (record) record.result = { content: part.content, isError: part.isError };
      }
    }
  }
  return records;
}

export function parseArgs(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Key-order-independent JSON, so `{"a":1,"b":2}` and `{"b":2,"a":1}` are the same call. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function isSameCall(record: CallRecord, name: string, args: Record<string, unknown>): boolean {
  return (
    record.name === name && record.args !== undefined && canonicalJson(record.args) === canonicalJson(args)
  );
}

export function findTool(request: PolicyRequest, name: string): PolicyTool | undefined {
  return request.tools.find((t) => t.name === name);
}

/** Did the arguments break the tool's JSON Schema (unparseable, a missing field, a wrong type)? */
export function breaksSchema(record: CallRecord, tool: PolicyTool | undefined): boolean {
  if (!tool) return false;
  const args = record.args;
  if (!args) return true;
  const schema = tool.inputSchema as { required?: unknown; properties?: Record<string, { type?: unknown }> };
  const required = Array.isArray(schema.required)
    ? schema.required.filter((r): r is string => typeof r === 'string')
    : [];
  if (required.some((key) => !(key in args))) return true;
  return Object.entries(args).some(([key, value]) => {
    const type = schema.properties?.[key]?.type;
    if (type === 'string') return typeof value !== 'string';
    if (type === 'integer') return !Number.isInteger(value);
    if (type === 'number') return typeof value !== 'number';
    if (type === 'boolean') return typeof value !== 'boolean';
    return false;
  });
}

/** A turn that makes one tool call. */
export function callTurn(options: {
  name: string;
  args: Record<string, unknown> | string;
  thinking?: string;
  text?: string;
}): PolicyTurn {
  const argsText = typeof options.args === 'string' ? options.args : JSON.stringify(options.args);
  return {
    ...(options.thinking ? { thinking: options.thinking } : {}),
    ...(options.text ? { text: options.text } : {}),
    toolCalls: [{ name: options.name, argsText }],
  };
}

/** A turn that ends with text and no tool calls. */
export function answerTurn(options: { text: string; thinking?: string }): PolicyTurn {
  return { ...(options.thinking ? { thinking: options.thinking } : {}), text: options.text, toolCalls: [] };
}
