/**
 * Errors shaped like the ones Node's fetch (undici) produces, so the SDKs and the
 * classifier meet a faulted connection exactly as they would meet a real one.
 */

interface SystemErrorFields {
  code: string;
  errno: number;
  syscall: string;
  address?: string;
  port?: number;
}

function systemError(message: string, fields: SystemErrorFields): Error {
  return Object.assign(new Error(message), fields);
}

/** The connection fails before any response: `TypeError: fetch failed` with the socket error as cause. */
export function fetchFailed(options: { mode: 'refused' | 'reset'; host: string; port: number }): TypeError {
  const { mode, host, port } = options;
  const cause =
    mode === 'refused'
      ? systemError(`connect ECONNREFUSED ${host}:${port}`, {
          code: 'ECONNREFUSED',
          errno: -111,
          syscall: 'connect',
          address: host,
          port,
        })
      : systemError('read ECONNRESET', { code: 'ECONNRESET', errno: -104, syscall: 'read' });
  return new TypeError('fetch failed', { cause });
}

/** The body stream dies mid-response: undici's `TypeError: terminated`, cause a SocketError. */
export function socketTerminated(): TypeError {
  const cause = Object.assign(new Error('other side closed'), {
    name: 'SocketError',
    code: 'UND_ERR_SOCKET',
  });
  return new TypeError('terminated', { cause });
}
