import type { EventOf, ForkEdit, Message, Part } from '@/lib/protocol';
import type { LoggedMessage } from './trajectory-from-log';

/** An edit of the trajectory's messages (a parameter edit changes the config instead). */
export type MessageEdit = Extract<ForkEdit, { kind: 'tool_result' | 'message' }>;

/** What an edit changed, in the fork_edit event's own fields. */
export type EditedMessage = Pick<
  EventOf<'fork_edit'>,
  'target' | 'before' | 'after' | 'before_is_error' | 'after_is_error' | 'where'
>;

export type EditResult =
  { ok: true; messages: LoggedMessage[]; edit: EditedMessage } | { ok: false; problem: string };

/**
 * Applies one edit to the messages a fork starts from and says what stood there before. A tool
 * result is found by its call id; a message by the turn that added it and its role. The messages
 * given are not changed: the result holds new ones. A problem says what to send instead.
 */
export function editMessages(messages: readonly LoggedMessage[], edit: MessageEdit): EditResult {
  return edit.kind === 'tool_result' ? editToolResult(messages, edit) : editText(messages, edit);
}

/** Applies a logged fork_edit again (a fork of a fork, a replay): the same change, from its `after`. */
export function reapplyLoggedEdit(messages: readonly LoggedMessage[], e: EventOf<'fork_edit'>): EditResult {
  const { target } = e;
  if (target.kind === 'params') return { ok: true, messages: [...messages], edit: e };
  if (target.kind === 'tool_result')
    return editToolResult(messages, {
      kind: 'tool_result',
      callId: target.call_id,
      content: String(e.after),
      ...(e.after_is_error !== undefined ? { isError: e.after_is_error } : {}),
    });
  return editText(messages, { kind: 'message', turn: target.turn, role: target.role, text: String(e.after) });
}

function editToolResult(
  messages: readonly LoggedMessage[],
  edit: Extract<MessageEdit, { kind: 'tool_result' }>,
): EditResult {
  const at = messages.findIndex(({ message }) =>
    message.parts.some((p) => p.type === 'tool_result' && p.callId === edit.callId),
  );
  if (at < 0) {
    const known = messages.flatMap(({ message }) =>
      message.parts.flatMap((p) => (p.type === 'tool_result' ? [p.callId] : [])),
    );
    return {
      ok: false,
      problem: `callId: no tool result for call "${edit.callId}" up to this turn; ${
        known.length > 0 ? `the calls with results are ${known.join(', ')}` : 'no tool call has a result yet'
      }`,
    };
  }
  const { message, iteration } = messages[at]!;
  const tool = nameOfCall(messages, edit.callId);
  let before = '';
  let beforeError = false;
  const parts = message.parts.map((p): Part => {
    if (p.type !== 'tool_result' || p.callId !== edit.callId) return p;
    before = p.content;
    beforeError = p.isError;
    return { ...p, content: edit.content, isError: edit.isError ?? p.isError };
  });
  const afterError = edit.isError ?? beforeError;
  return {
    ok: true,
    messages: replaceAt(messages, at, { message: { ...message, parts }, iteration }),
    edit: {
      target: { kind: 'tool_result', call_id: edit.callId, tool, turn: iteration },
      before,
      after: edit.content,
      before_is_error: beforeError,
      after_is_error: afterError,
      where: `the result of ${tool} (call ${edit.callId}) at turn ${iteration}`,
    },
  };
}

function editText(
  messages: readonly LoggedMessage[],
  edit: Extract<MessageEdit, { kind: 'message' }>,
): EditResult {
  const what =
    edit.turn === 0
      ? 'the task'
      : edit.role === 'assistant'
        ? `the reply of turn ${edit.turn}`
        : `the prompt after turn ${edit.turn}`;
  if (edit.turn === 0 && edit.role === 'assistant')
    return { ok: false, problem: 'role: turn 0 holds only the task, a user message; choose role "user"' };
  const at = messages.findIndex(
    ({ message, iteration }) => iteration === edit.turn && message.role === edit.role,
  );
  if (at < 0) {
    const last = Math.max(0, ...messages.map((m) => m.iteration));
    return {
      ok: false,
      problem:
        edit.turn > last
          ? `turn: the fork starts after turn ${last}; edit a message of turns 0 to ${last}`
          : `turn: turn ${edit.turn} added no ${edit.role} message (${
              edit.role === 'assistant' ? 'its reply was not kept' : 'it ended with the model’s reply'
            })`,
    };
  }
  const { message, iteration } = messages[at]!;
  if (message.role === 'user' && message.parts.some((p) => p.type === 'tool_result'))
    return {
      ok: false,
      problem: `kind: turn ${edit.turn}'s user message holds tool results; edit one with kind "tool_result" and its callId`,
    };
  const before = message.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
  return {
    ok: true,
    messages: replaceAt(messages, at, { message: withText(message, edit.text), iteration }),
    edit: {
      target: { kind: 'message', turn: edit.turn, role: edit.role },
      before,
      after: edit.text,
      where: what,
    },
  };
}

/** The message with its text replaced by one part where the first stood (before the first tool call when it had none). */
function withText(message: Message, text: string): Message {
  const part: Part = { type: 'text', text };
  const first = message.parts.findIndex((p) => p.type === 'text');
  if (first >= 0)
    return {
      ...message,
      parts: message.parts.flatMap((p, i): Part[] => (i === first ? [part] : p.type === 'text' ? [] : [p])),
    };
  const call = message.parts.findIndex((p) => p.type === 'tool_call');
  const at = call >= 0 ? call : message.parts.length;
  return { ...message, parts: [...message.parts.slice(0, at), part, ...message.parts.slice(at)] };
}

function nameOfCall(messages: readonly LoggedMessage[], callId: string): string {
  for (const { message } of messages)
    for (const p of message.parts) if (p.type === 'tool_call' && p.id === callId) return p.name;
  return 'a tool';
}

function replaceAt(messages: readonly LoggedMessage[], at: number, next: LoggedMessage): LoggedMessage[] {
  return messages.map((m, i) => (i === at ? next : m));
}
