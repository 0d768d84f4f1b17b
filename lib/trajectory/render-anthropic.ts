import type Anthropic from '@anthropic-ai/sdk';
import { DEFAULT_TAKEOVER, type TakeoverHandling, type Vendor } from '@/lib/protocol';
import type { ModelRequest, ToolSpec } from './model-request';
import { renderAnthropicMessage, renderTarget, type PlacedBlock } from './anthropic-content';
import { describeMinter } from './credentials';
import { createReportBuilder, type RenderReport, type ReportBuilder } from './render-report';
import { modelReasons, thinkingBudget } from './thinking-budget';

export interface RenderAnthropicOptions {
  request: ModelRequest;
  vendor: Vendor;
  /** How foreign history is handled; default: credentials and foreign thinking dropped. */
  handling?: TakeoverHandling;
}

export interface RenderedAnthropic {
  params: Anthropic.MessageCreateParamsStreaming;
  report: RenderReport;
}

/**
 * Renders a neutral request as an Anthropic Messages request. Credentials go back only to
 * their minter; everything dropped or converted on the way is in the report.
 */
export function renderAnthropic(options: RenderAnthropicOptions): RenderedAnthropic {
  const { request, vendor } = options;
  const handling = options.handling ?? DEFAULT_TAKEOVER;
  const report = createReportBuilder();
  const context = { vendor, model: request.model, report, handling, target: renderTarget(vendor, request.model, handling) };
  const messages = mergeByRole(request.messages.map((message) => renderAnthropicMessage(message, context)));

  const params: Anthropic.MessageCreateParamsStreaming = {
    model: request.model,
    max_tokens: request.maxTokens,
    messages,
    stream: true,
  };
  if (request.system !== '') params.system = request.system;
  if (request.tools.length > 0) params.tools = request.tools.map(renderTool);
  const thinking = thinkingConfig({ request, vendor, messages, report, naive: handling.naive });
  if (thinking) params.thinking = thinking;
  return { params, report: report.build() };
}

/**
 * Joins consecutive blocks of one role into one message: the API wants roles to
 * alternate, and tool results for one assistant turn in the single user message after it.
 * Within a user message tool results come first, as the API requires.
 */
function mergeByRole(rendered: readonly (readonly PlacedBlock[])[]): Anthropic.MessageParam[] {
  const groups: { role: PlacedBlock['role']; content: Anthropic.ContentBlockParam[] }[] = [];
  for (const blocks of rendered) {
    for (const { role, block } of blocks) {
      const last = groups[groups.length - 1];
      if (last && last.role === role) last.content.push(block);
      else groups.push({ role, content: [block] });
    }
  }
  for (const group of groups) if (group.role === 'user') group.content = toolResultsFirst(group.content);
  return groups;
}

/** Reorders only when a tool result follows another block: the usual user message needs no copy. */
function toolResultsFirst(blocks: Anthropic.ContentBlockParam[]): Anthropic.ContentBlockParam[] {
  let other = false;
  let outOfOrder = false;
  for (const block of blocks) {
    if (block.type !== 'tool_result') other = true;
    else if (other) outOfOrder = true;
  }
  if (!outOfOrder) return blocks;
  return [...blocks.filter((b) => b.type === 'tool_result'), ...blocks.filter((b) => b.type !== 'tool_result')];
}

function renderTool(tool: ToolSpec): Anthropic.Tool {
  return {
    name: tool.name,
    description: tool.description,
    input_schema: { type: 'object', ...tool.inputSchema } as Anthropic.Tool.InputSchema,
  };
}

/**
 * Extended thinking, when asked for and possible. It stays off for one request when the
 * tool round in progress began without a thinking block this model signed (after a switch
 * or a fallback): the API rejects such a request with thinking on, and accepts it off.
 */
function thinkingConfig(options: {
  request: ModelRequest;
  vendor: Vendor;
  messages: Anthropic.MessageParam[];
  report: ReportBuilder;
  /** A naive takeover keeps thinking on whatever the history holds, and meets the vendor's rule. */
  naive: boolean;
}): Anthropic.ThinkingConfigEnabled | undefined {
  const { request, vendor, messages, report } = options;
  if (!request.thinking) return undefined;
  if (!modelReasons({ model: request.model })) {
    report.drop('thinking_config', `extended thinking not requested: ${request.model} is not known to support it`);
    return undefined;
  }
  const budget = thinkingBudget({ maxTokens: request.maxTokens });
  if (budget === undefined) {
    report.drop(
      'thinking_config',
      `extended thinking not requested: max_tokens ${request.maxTokens} leaves no room for the minimum 1024-token budget`,
    );
    return undefined;
  }
  if (!options.naive && toolRoundLacksThinking(messages)) {
    report.drop(
      'thinking_config',
      `extended thinking off for this request: the tool round in progress did not start with a thinking block signed by ${describeMinter({ vendor, model: request.model })}`,
    );
    return undefined;
  }
  return { type: 'enabled', budget_tokens: budget };
}

/** True when the request ends in tool results answering an assistant turn with no leading thinking. */
function toolRoundLacksThinking(messages: Anthropic.MessageParam[]): boolean {
  const last = messages[messages.length - 1];
  const previous = messages[messages.length - 2];
  if (!last || !previous || last.role !== 'user' || previous.role !== 'assistant') return false;
  if (!hasBlock(last.content, 'tool_result')) return false;
  const first = Array.isArray(previous.content) ? previous.content[0] : undefined;
  return first?.type !== 'thinking' && first?.type !== 'redacted_thinking';
}

function hasBlock(content: Anthropic.MessageParam['content'], type: string): boolean {
  return Array.isArray(content) && content.some((b) => b.type === type);
}
