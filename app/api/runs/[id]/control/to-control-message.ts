import type { ControlBody } from '@/lib/protocol/http';
import type { ControlMessage } from '@/lib/runtime/types';

/** The control body (lib/protocol/http) as the message the run registry queues. */
export function toControlMessage(body: ControlBody): ControlMessage {
  switch (body.action) {
    case 'abort':
      return { action: 'abort', reason: 'aborted' };
    case 'set_faults':
    case 'compact':
    case 'pause':
    case 'step':
    case 'continue':
    case 'cancel':
    case 'set_breakpoints':
    case 'approve':
    case 'deny':
    case 'edit':
      return body;
    case 'swap': {
      const { vendor, model, baseUrl, apiKey, takeover } = body;
      return {
        action: 'swap',
        target: {
          vendor,
          model,
          ...(baseUrl ? { baseUrl } : {}),
          ...(apiKey ? { apiKey } : {}),
          ...(takeover ? { takeover } : {}),
        },
      };
    }
  }
}
