/**
 * The facts a classifier can read off any thrown value: the HTTP status and vendor error
 * type/code of an SDK APIError (both SDKs, HTTP and in-stream), the codes and names along
 * the `cause` chain (undici puts ECONNRESET there), and all the text, lower-cased. Reading
 * fields structurally, never by class, keeps the classifier working for both SDKs, for
 * errors re-thrown by adapters and for errors that crossed a process boundary.
 */
export interface ErrorFacts {
  status?: number;
  vendorType?: string;
  vendorCode?: string;
  /** The human message: the vendor's own when present, else the error's. */
  message: string;
  /** `name` (and class name, where it differs) of the error and every cause, outermost first. */
  names: string[];
  /** The same for the outermost error alone (OpenAI's classes leave `name` as "Error"). */
  topNames: string[];
  /** String `code`s found along the cause chain (ECONNRESET, UND_ERR_SOCKET, …). */
  codes: string[];
  /** Every message, type and code, lower-cased, for the text heuristics. */
  text: string;
  headers?: unknown;
}

const MAX_CAUSE_DEPTH = 6;
const MAX_MESSAGE_CHARS = 500;

type Dict = Record<string, unknown>;

function isDict(value: unknown): value is Dict {
  return typeof value === 'object' && value !== null;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * Vendor type/code/message from an SDK's `error` body. Anthropic keeps the whole body
 * (`{type:'error', error:{type, message}}`); OpenAI keeps the inner object
 * (`{message, type, param, code}`); the Responses API nests like Anthropic. Accept all.
 */
function readBody(body: unknown): { type?: string; code?: string; message?: string } {
  if (!isDict(body)) return {};
  const inner = isDict(body.error) ? body.error : body;
  const type = str(inner.type);
  return {
    type: type === 'error' ? undefined : type,
    code: str(inner.code),
    message: str(inner.message),
  };
}

export function extractErrorFacts(error: unknown): ErrorFacts {
  const names: string[] = [];
  const topNames: string[] = [];
  const codes: string[] = [];
  const texts: string[] = [];
  /** The message of the first error in the chain that carries a socket code. */
  let codeMessage: string | undefined;
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && current !== undefined && current !== null; depth++) {
    if (!isDict(current)) {
      texts.push(String(current));
      break;
    }
    const name = str(current.name);
    const className = str((current as { constructor?: { name?: unknown } }).constructor?.name);
    for (const n of [name, className !== name && className !== 'Object' ? className : undefined]) {
      if (!n) continue;
      names.push(n);
      if (depth === 0) topNames.push(n);
    }
    const code = str(current.code);
    const message = str(current.message);
    if (code) {
      codes.push(code);
      if (depth > 0) codeMessage ??= message;
    }
    if (message) texts.push(message);
    if (Array.isArray(current.errors)) {
      for (const inner of current.errors) {
        if (isDict(inner) && str(inner.code)) codes.push(inner.code as string);
      }
    }
    current = current.cause;
  }

  const top = isDict(error) ? error : {};
  const body = readBody(top.error);
  const status = typeof top.status === 'number' && top.status >= 400 ? top.status : undefined;
  const vendorType = body.type ?? str(top.type);
  const vendorCode =
    body.code ?? (typeof top.code === 'string' && !/^E[A-Z]|^UND_/.test(top.code) ? top.code : undefined);
  // "Connection error." says little on a timeline: name the socket failure beneath it.
  const ownMessage =
    str(top.message) && codeMessage ? `${str(top.message)} (${codeMessage})` : str(top.message);
  const rawMessage = body.message ?? ownMessage ?? (isDict(error) ? '' : String(error));
  if (body.message) texts.push(body.message);
  if (vendorType) texts.push(vendorType);
  if (vendorCode) texts.push(vendorCode);

  return {
    ...(status !== undefined ? { status } : {}),
    ...(vendorType !== undefined ? { vendorType } : {}),
    ...(vendorCode !== undefined ? { vendorCode } : {}),
    message: tidy(rawMessage || names[0] || 'unknown error'),
    names,
    topNames,
    codes,
    text: texts.join(' \n ').toLowerCase(),
    headers: top.headers,
  };
}

/** One line, bounded: proxy HTML pages and stack-like messages go into events. */
function tidy(message: string): string {
  const flat = message.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_MESSAGE_CHARS ? `${flat.slice(0, MAX_MESSAGE_CHARS - 1)}…` : flat;
}
