import type { Dialect, FaultAction, StreamPoint } from '@/lib/protocol';

/** A short human label for a fault, used when the rule has none of its own. */
export function describeFault(options: { action: FaultAction; dialect: Dialect }): string {
  const { action, dialect } = options;
  switch (action.type) {
    case 'http_error': {
      if (action.quota && action.status === 429)
        return dialect !== 'anthropic' ? 'HTTP 429 (quota spent)' : 'HTTP 400 (credit balance too low)';
      const status = dialect !== 'anthropic' && action.status === 529 ? 503 : action.status;
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
      return action.beforeHeaders ? 'stall before response headers' : `stall ${where(action)}`;
    case 'slow_drip':
      return `slow drip, ${action.delayMs} ms per event${placed(action) ? ` ${where(action)}` : ''}`;
    case 'drop':
      return `connection dropped ${where(action)}`;
    case 'sse_error':
      return `in-stream ${action.errorType}${action.responsesEvent === 'response.failed' ? ' as response.failed' : ''} ${where(action)}`;
    case 'malformed':
      return `malformed JSON ${where(action)}`;
    case 'keepalive_only': {
      const beat = `${dialect === 'anthropic' && action.style === 'ping' ? 'ping' : 'comment'} every ${action.intervalMs} ms`;
      return placed(action) ? `keepalives only ${where(action)} (${beat})` : `keepalives only (${beat})`;
    }
  }
}

interface Placed {
  afterEvents?: number | undefined;
  during?: StreamPoint | undefined;
}

const placed = (p: Placed): boolean => p.afterEvents !== undefined || p.during !== undefined;

/** Where a stream fault strikes, in words: its event count, its point, or whichever comes first. */
function where(p: Placed): string {
  const after = (n: number): string => `after ${n} event${n === 1 ? '' : 's'}`;
  const point =
    p.during === undefined
      ? undefined
      : p.during === 'final'
        ? 'at the final delta'
        : `inside the first ${p.during.replace('_', ' ')} block`;
  if (point === undefined) return after(p.afterEvents ?? 0);
  if (p.afterEvents === undefined) return point;
  return `${after(p.afterEvents)} or ${point}`;
}
