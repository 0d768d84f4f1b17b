import type { Random } from '@/lib/clock';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Random base-62 text from the seeded source, so ids repeat run after run. */
export function randomChars(options: { random: Random; length: number; alphabet?: string }): string {
  const alphabet = options.alphabet ?? BASE62;
  let out = '';
  for (let i = 0; i < options.length; i++)
    out += alphabet[Math.floor(options.random.next() * alphabet.length)];
  return out;
}

export type IdKind = 'msg' | 'toolu' | 'req' | 'chatcmpl' | 'call';

/** Vendor-shaped ids: `msg_01…`, `toolu_01…`, `req_011C…`, `chatcmpl-…`, `call_…`. */
export function makeId(options: { random: Random; kind: IdKind }): string {
  const { random } = options;
  switch (options.kind) {
    case 'msg':
      return `msg_01${randomChars({ random, length: 22 })}`;
    case 'toolu':
      return `toolu_01${randomChars({ random, length: 22 })}`;
    case 'req':
      return `req_011C${randomChars({ random, length: 20 })}`;
    case 'chatcmpl':
      return `chatcmpl-${randomChars({ random, length: 29 })}`;
    case 'call':
      return `call_${randomChars({ random, length: 24 })}`;
  }
}
