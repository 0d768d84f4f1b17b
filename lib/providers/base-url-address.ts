/**
 * Where a base URL chosen by a run request points, by its host alone: the server fetches that
 * URL and shows the answer in the run (a model_error quotes the body), so a request must not be
 * able to aim it at this machine, the local network or a cloud's metadata service. The URLs
 * the environment names are trusted as they are and never come here.
 */
export type AddressKind = 'metadata' | 'link-local' | 'loopback' | 'private';

/** Cloud metadata services reached by name (GCP, and the short names their images resolve). */
const METADATA_NAMES = new Set([
  'metadata.google.internal',
  'metadata.goog',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
]);

/** The kind of address `hostname` (as new URL() gives it: lower case, IPv6 in brackets) is, or undefined for a public one. */
export function addressKindOf(hostname: string): AddressKind | undefined {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  if (METADATA_NAMES.has(name)) return 'metadata';
  if (name === 'localhost' || name.endsWith('.localhost')) return 'loopback';
  if (name.startsWith('[')) return ipv6Kind(name.slice(1, -1));
  const v4 = ipv4Octets(name);
  if (v4) return ipv4Kind(v4);
  if (name.endsWith('.internal') || name.endsWith('.local') || name.endsWith('.lan') || !name.includes('.'))
    return 'private';
  return undefined;
}

/** What each kind is, for the error message. */
export const ADDRESS_KIND_WORDS: Record<AddressKind, string> = {
  metadata: 'a cloud metadata service',
  'link-local': 'a link-local address (169.254.0.0/16 or fe80::/10, where cloud metadata services answer)',
  loopback: 'a loopback address (this machine)',
  private: 'a private-network address',
};

function ipv4Octets(name: string): number[] | undefined {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(name);
  return match ? match.slice(1).map(Number) : undefined;
}

function ipv4Kind([a, b, c, d]: number[]): AddressKind | undefined {
  if (a === 169 && b === 254)
    return a === 169 && b === 254 && c === 169 && d === 254 ? 'metadata' : 'link-local';
  if (a === 100 && b === 100 && c === 100 && d === 200) return 'metadata'; // Alibaba Cloud
  if (a === 127 || a === 0) return 'loopback'; // 0.0.0.0 reaches this machine too
  if (a === 10 || (a === 172 && b! >= 16 && b! <= 31) || (a === 192 && b === 168)) return 'private';
  if (a === 100 && b! >= 64 && b! <= 127) return 'private'; // carrier-grade NAT, also cloud VPCs
  if (a === 198 && (b === 18 || b === 19)) return 'private'; // benchmarking networks, used inside clouds
  return undefined;
}

function ipv6Kind(address: string): AddressKind | undefined {
  const groups = expandIpv6(address);
  if (!groups) return 'private'; // not an address new URL() would produce: treat as not public
  if (groups.slice(0, 7).every((g) => g === 0) && (groups[7] === 1 || groups[7] === 0)) return 'loopback'; // ::1 and ::
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return ipv4Kind([groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff]); // ::ffff:a.b.c.d
  }
  if (
    groups[0] === 0xfd00 &&
    groups[1] === 0x0ec2 &&
    groups[7] === 0x254 &&
    groups.slice(2, 7).every((g) => g === 0)
  )
    return 'metadata'; // AWS fd00:ec2::254
  if ((groups[0]! & 0xffc0) === 0xfe80) return 'link-local';
  if ((groups[0]! & 0xfe00) === 0xfc00) return 'private'; // unique local fc00::/7
  return undefined;
}

/** Eight 16-bit groups of an IPv6 address (a dotted IPv4 tail allowed), or undefined. */
function expandIpv6(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const tail = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail[1]!.split('.').map(Number);
    text = `${text.slice(0, -tail[1]!.length)}${((a! << 8) | b!).toString(16)}:${((c! << 8) | d!).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string): number[] =>
    part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  const groups =
    halves.length === 2
      ? [...head, ...new Array<number>(8 - head.length - rest.length).fill(0), ...rest]
      : head;
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff)
    ? groups
    : undefined;
}
