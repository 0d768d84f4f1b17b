import type { Dialect, FaultAction } from '@/lib/protocol';
import {
  ANTHROPIC_REQUEST_ID_HEADER,
  OPENAI_REQUEST_ID_HEADER,
  vendorErrorBody,
  vendorHttpError,
} from '@/lib/dialects';

type HttpErrorAction = Extract<FaultAction, { type: 'http_error' }>;
type ProxyErrorAction = Extract<FaultAction, { type: 'proxy_error' }>;

/** An HTTP error exactly as the vendor sends it: status, JSON body, request id, Retry-After. */
export function httpErrorResponse(options: {
  dialect: Dialect;
  action: HttpErrorAction;
  requestId: string;
  model: string;
}): Response {
  const { dialect, action, requestId, model } = options;
  const error = vendorHttpError({
    dialect,
    status: action.status,
    model,
    ...(action.quota ? { quota: true } : {}),
  });
  const headers = new Headers({ 'content-type': 'application/json', ...error.headers });
  headers.set(dialect === 'anthropic' ? ANTHROPIC_REQUEST_ID_HEADER : OPENAI_REQUEST_ID_HEADER, requestId);
  if (action.retryAfterSec !== undefined) headers.set('retry-after', String(action.retryAfterSec));
  if (action.retryAfterMs !== undefined) headers.set('retry-after-ms', String(action.retryAfterMs));
  return new Response(vendorErrorBody({ dialect, error, requestId }), {
    status: error.status,
    statusText: REASONS[error.status] ?? '',
    headers,
  });
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Request Entity Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Temporarily Unavailable',
  504: 'Gateway Time-out',
  529: 'Overloaded',
};

/** nginx's own error page, byte for byte (it writes CRLF line ends). */
function nginxPage(status: number): string {
  const title = `${status} ${REASONS[status] ?? 'Error'}`;
  return [
    '<html>',
    `<head><title>${title}</title></head>`,
    '<body>',
    `<center><h1>${title}</h1></center>`,
    '<hr><center>nginx</center>',
    '</body>',
    '</html>',
    '',
  ].join('\r\n');
}

/** A body from something in front of the vendor: an nginx page, or an Envoy-style line. */
export function proxyErrorResponse(options: { action: ProxyErrorAction }): Response {
  const { status, body } = options.action;
  if (body === 'html') {
    return new Response(nginxPage(status), {
      status,
      statusText: REASONS[status] ?? '',
      headers: { 'content-type': 'text/html', server: 'nginx' },
    });
  }
  const text =
    status === 502 || status === 503
      ? 'upstream connect error or disconnect/reset before headers. reset reason: connection termination'
      : `${status} ${REASONS[status] ?? 'Error'}`;
  return new Response(text, {
    status,
    statusText: REASONS[status] ?? '',
    headers: { 'content-type': 'text/plain', server: 'envoy' },
  });
}
