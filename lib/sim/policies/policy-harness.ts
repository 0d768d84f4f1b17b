import { createRandom, VirtualClock } from '@/lib/clock';
import type { Message } from '@/lib/protocol';
import { createToolbox, createWorkspace } from '@/lib/tools';
import type { Scenario } from '@/lib/tools/scenario';
import type { ToolResult, Workspace } from '@/lib/tools/types';
import type { Policy, PolicyTool } from '../types';
import { parseArgs } from './history';

export type ToolRunner = (name: string, argsText: string) => Promise<ToolResult>;

/**
 * The scenario's real tools over a fresh workspace, with a minimal executor (validate with the
 * tool's schema, run, return errors as results) — enough to feed a policy realistic results.
 */
export function scenarioTools(scenario: Scenario): {
  run: ToolRunner;
  tools: PolicyTool[];
  workspace: Workspace;
} {
  const workspace = createWorkspace({ files: scenario.files });
  const toolbox = createToolbox({ scenario });
  const ctx = {
    workspace,
    clock: new VirtualClock(),
    random: createRandom(1),
    signal: new AbortController().signal,
  };
  const run: ToolRunner = async (name, argsText) => {
    const tool = toolbox.get(name);
    if (!tool)
      return {
        content: `Error: unknown tool "${name}". Available: ${toolbox.names().join(', ')}`,
        isError: true,
      };
    const args = parseArgs(argsText);
    const parsed = tool.input.safeParse(args ?? null);
    if (!parsed.success)
      return { content: `Error: invalid arguments for ${name}: ${parsed.error.message}`, isError: true };
    return tool.run(parsed.data, ctx);
  };
  return { run, tools: toolbox.specs(), workspace };
}

export interface PolicyRun {
  calls: { name: string; argsText: string; isError: boolean; content: string }[];
  final: string | undefined;
  turns: number;
}

/** Plays a policy against tools in the neutral format until it answers in text (or maxTurns). */
export async function runPolicy(options: {
  policy: Policy;
  tools: PolicyTool[];
  run: ToolRunner;
  task: string;
  seed?: number;
  maxTurns?: number;
  maxTokens?: number;
}): Promise<PolicyRun> {
  const random = createRandom(options.seed ?? 1);
  const messages: Message[] = [{ role: 'user', parts: [{ type: 'text', text: options.task }] }];
  const calls: PolicyRun['calls'] = [];
  const maxTurns = options.maxTurns ?? 60;
  for (let turn = 1; turn <= maxTurns; turn++) {
    const out = options.policy(
      {
        model: 'sim',
        system: '',
        messages,
        tools: options.tools,
        maxTokens: options.maxTokens ?? 4096,
        thinking: true,
      },
      random.fork(`turn-${turn}`),
    );
    if (out.toolCalls.length === 0) return { calls, final: out.text, turns: turn };
    const ids = out.toolCalls.map((_, i) => `call_${turn}_${i}`);
    messages.push({
      role: 'assistant',
      parts: [
        ...(out.text ? [{ type: 'text' as const, text: out.text }] : []),
        ...out.toolCalls.map((c, i) => {
          const args = parseArgs(c.argsText);
          return {
            type: 'tool_call' as const,
            id: ids[i]!,
            name: c.name,
            argsText: c.argsText,
            ...(args ? { args } : {}),
          };
        }),
      ],
    });
    const parts = [];
    for (const [i, c] of out.toolCalls.entries()) {
      const result = await options.run(c.name, c.argsText);
      calls.push({ name: c.name, argsText: c.argsText, isError: result.isError, content: result.content });
      parts.push({
        type: 'tool_result' as const,
        callId: ids[i]!,
        content: result.content,
        isError: result.isError,
      });
    }
    messages.push({ role: 'user', parts });
  }
  return { calls, final: undefined, turns: maxTurns };
}
