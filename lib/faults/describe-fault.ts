import type { Dialect, FaultAction } from '@/lib/protocol';

/** A short human label for a fault, used when the rule has none of its own. */
export function describeFault(options: { action: FaultAction; dialect: Dialect }): string {
  const { action, dialect } = options;
  const after = (n: number): string => `after ${n} event${n === 1 ? '' : 's'}`;
  switch (action.type) {
    case 'http_error': {
      const status = dialect === 'openai' && action.status === 529 ? 503 : action.status;
      const hints = [
        action.retryAfterSec !== undefined ? `retry-after ${action.retryAfterSec} s` : '',
        action.retryAfterMs !== undefined ? `retry-after-ms ${action.retryAfterMs}` : '',
      ].filter(Boolean);
      return `HTTP ${status}${hints.length ? ` (${hints.join(', ')})` : ''}`;
    }
    case 'proxy_error':
      return `proxy ${action.status} (${action.body === 'html' ? 'HTML page' : 'plain text'})`;
    case 'connection':
      return `connection ${action.mode}`;
    case 'stall':
      return `stall ${after(action.afterEvents)}`;
    case 'slow_drip':
      return `slow drip, ${action.delayMs} ms per event`;
    case 'drop':
      return action.during !== undefined && action.afterEvents === undefined
        ? `connection dropped inside the first ${action.during.replace('_', ' ')} block`
        : `connection dropped ${after(action.afterEvents ?? 0)}${action.during ? ` or inside ${action.during}` : ''}`;
    case 'sse_error':
      return `in-stream ${action.errorType} ${after(action.afterEvents)}`;
    case 'malformed':
      return `malformed JSON ${after(action.afterEvents)}`;
    case 'keepalive_only':
      return `keepalives only (${dialect === 'anthropic' && action.style === 'ping' ? 'ping' : 'comment'} every ${action.intervalMs} ms)`;
  }
}
