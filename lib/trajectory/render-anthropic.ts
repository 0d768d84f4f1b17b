import type Anthropic from '@anthropic-ai/sdk';
import { DEFAULT_TAKEOVER, takeoverRuleOn, type TakeoverHandling, type Vendor } from '@/lib/protocol';
import type { ModelRequest, ToolSpec } from './model-request';
import { renderTarget } from './anthropic-content';
import { renderAnthropicHistory } from './anthropic-history';
import { markCachePrefix } from './anthropic-cache-breakpoints';
import { describeMinter } from './credentials';
import {
  recordingReport,
  reportFromCalls,
  type RenderReport,
  type ReportBuilder,
  type ReportCall,
} from './render-report';
import { modelReasons, thinkingBudget } from './thinking-budget';

export interface RenderAnthropicOptions {
  request: ModelRequest;
  vendor: Vendor;
  /** How foreign history is handled; default: credentials and foreign thinking dropped. */
  handling?: TakeoverHandling;
}

export interface RenderedAnthropic {
  params: Anthropic.MessageCreateParamsStreaming;
  /** Built on first read: only a takeover's first request reads it, so the others never pay for it. */
  readonly report: RenderReport;
}

/**
 * Renders a neutral request as an Anthropic Messages request. Credentials go back only to
 * their minter; everything dropped or converted on the way is in the report.
 */
export function renderAnthropic(options: RenderAnthropicOptions): RenderedAnthropic {
  const { request, vendor } = options;
  const handling = options.handling ?? DEFAULT_TAKEOVER;
  const context = {
    vendor,
    model: request.model,
    handling,
    target: renderTarget(vendor, request.model, handling),
  };
  const { messages, calls: messageCalls } = renderAnthropicHistory(request.messages, context);
  // What the request's own rendering reports; in the report it follows every message's.
  const own: ReportCall[] = [];

  const params: Anthropic.MessageCreateParamsStreaming = {
    model: request.model,
    max_tokens: request.maxTokens,
    messages,
    stream: true,
  };
  if (request.system !== '') params.system = request.system;
  if (request.tools.length > 0) params.tools = request.tools.map(renderTool);
  if (request.promptCaching) markCachePrefix(params);
  const thinking = thinkingConfig({
    request,
    vendor,
    messages,
    report: recordingReport(own),
    latestTurnRule: takeoverRuleOn(handling, 'latest_turn'),
    ruleOffBy: handling.naive ? '' : 'latest-turn rule off: ',
  });
  if (thinking) params.thinking = thinking;
  let report: RenderReport | undefined;
  return {
    params,
    get report() {
      return (report ??= reportFromCalls([...messageCalls, own]));
    },
  };
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
  report: Omit<ReportBuilder, 'build'>;
  /** Off (alone, or in a naive takeover): thinking stays on whatever the history holds, and meets the vendor's rule. */
  latestTurnRule: boolean;
  /** The report entry's opening when the rule alone is off ("latest-turn rule off: "); empty in a naive takeover. */
  ruleOffBy: string;
}): Anthropic.ThinkingConfigEnabled | undefined {
  const { request, vendor, messages, report } = options;
  if (!request.thinking) return undefined;
  if (!modelReasons({ model: request.model })) {
    report.drop(
      'thinking_config',
      `extended thinking not requested: ${request.model} is not known to support it`,
    );
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
  if (toolRoundLacksThinking(messages)) {
    const signer = describeMinter({ vendor, model: request.model });
    if (!options.latestTurnRule) {
      report.asIs(
        `${options.ruleOffBy}extended thinking left on, though the tool round in progress did not start with a thinking block signed by ${signer}`,
        'latest_turn',
      );
    } else {
      report.drop(
        'thinking_config',
        `extended thinking off for this request: the tool round in progress did not start with a thinking block signed by ${signer}`,
        'latest_turn',
      );
      return undefined;
    }
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
