import { BlockList, isIP, isIPv4 } from 'node:net';

/** What server-to-server calls may reach, and how long and how much they may take. */
export interface OutboundPolicy {
  /** 10/8, 172.16/12, 192.168/16, 100.64/10 (CGNAT), 198.18/15, fc00::/7. */
  allowPrivateNetworks: boolean;
  /** 127/8 and ::1. */
  allowLoopback: boolean;
  /** Connect + response headers (all redirect hops together); never a whole-body limit on streams. */
  timeoutMs: number;
  /** Largest body `OutboundHttp.getJson` reads. */
  maxResponseBytes: number;
  /** Largest body `OutboundHttp.fetch` reads into memory (a remote agent's answer, a task tree's HTTP step). */
  maxAnswerBytes: number;
}

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

/** The two policy switches that decide which addresses may be reached. */
export type AddressPolicy = Pick<OutboundPolicy, 'allowPrivateNetworks' | 'allowLoopback'>;

export type AddressClass =
  'metadata' | 'link-local' | 'unspecified' | 'multicast' | 'reserved' | 'loopback' | 'private' | 'public';

const ENV_HINT = '(set ALLOW_PRIVATE_NETWORK_TARGETS=true to allow)';
const METADATA_REASON = 'link-local/cloud-metadata addresses are never allowed';

const REASONS: Record<Exclude<AddressClass, 'public'>, string> = {
  metadata: METADATA_REASON,
  'link-local': METADATA_REASON,
  unspecified: 'unspecified ("this network") addresses are never allowed',
  multicast: 'multicast addresses are never allowed',
  reserved: 'reserved and broadcast addresses are never allowed',
  loopback: `loopback addresses are not allowed ${ENV_HINT}`,
  private: `private network addresses are not allowed ${ENV_HINT}`,
};

/**
 * Ranges by class, strictest first: an address (or the IPv4 address embedded in it) takes the
 * first class that matches. Metadata comes before private because 100.100.100.200 sits in CGNAT
 * and fd00:ec2::254 in fc00::/7.
 *
 * Never add ::ffff:0:0/96 as a rule: Node's BlockList matches plain IPv4 addresses against it.
 */
const RANGES: ReadonlyArray<readonly [Exclude<AddressClass, 'public'>, readonly string[]]> = [
  ['metadata', ['169.254.169.254/32', '100.100.100.200/32', '192.0.0.192/32', 'fd00:ec2::254/128']],
  ['link-local', ['169.254.0.0/16', 'fe80::/10']],
  ['unspecified', ['0.0.0.0/8', '::/128']],
  ['multicast', ['224.0.0.0/4', 'ff00::/8']],
  // 240/4 includes 255.255.255.255; 192.0.0.0/24 is IETF protocol assignments; 100::/64 is discard-only.
  ['reserved', ['240.0.0.0/4', '192.0.0.0/24', '100::/64']],
  ['loopback', ['127.0.0.0/8', '::1/128']],
  [
    'private',
    [
      '10.0.0.0/8',
      '172.16.0.0/12',
      '192.168.0.0/16',
      '100.64.0.0/10',
      '198.18.0.0/15',
      'fc00::/7',
      'fec0::/10', // deprecated site-local
      '64:ff9b:1::/48', // local-use NAT64 (RFC 8215)
    ],
  ],
];

const BLOCK_LISTS = RANGES.map(([addressClass, cidrs]) => {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [network, prefix] = cidr.split('/');
    list.addSubnet(network, Number(prefix), isIPv4(network) ? 'ipv4' : 'ipv6');
  }
  return { addressClass, list };
});

/** Host names of cloud metadata services, refused before any DNS lookup. */
const METADATA_HOST_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
]);

/**
 * Which class an IP address falls in, looking through IPv4-mapped (::ffff:a.b.c.d), NAT64
 * (64:ff9b::/96, 64:ff9b:1::/48), IPv4-compatible (::a.b.c.d) and 6to4 (2002::/16) forms: the
 * stricter of the IPv6 address's own class and its embedded IPv4 address's class wins.
 * Returns undefined when `address` is not an IP address.
 */
export function classifyAddress(address: string): AddressClass | undefined {
  let known = CLASSES.get(address);
  if (known === undefined && !CLASSES.has(address)) {
    known = classify(address);
    // A few thousand distinct addresses in a process is plenty; past that, start over.
    if (CLASSES.size >= CLASS_CACHE_SIZE) CLASSES.clear();
    CLASSES.set(address, known);
  }
  return known;
}

/** classifyAddress's answers: checking the block lists costs ~10 µs, and each outbound request asks. */
const CLASSES = new Map<string, AddressClass | undefined>();
const CLASS_CACHE_SIZE = 4096;

function classify(address: string): AddressClass | undefined {
  const ip = bareAddress(address);
  const family = isIP(ip);
  if (family === 0) return undefined;
  const candidates: Array<[string, 'ipv4' | 'ipv6']> = [[ip, family === 4 ? 'ipv4' : 'ipv6']];
  if (family === 6) {
    const embedded = embeddedIPv4(ip);
    if (embedded) candidates.push([embedded, 'ipv4']);
  }
  for (const { addressClass, list } of BLOCK_LISTS) {
    if (candidates.some(([candidate, type]) => list.check(candidate, type))) return addressClass;
  }
  return 'public';
}

/** Whether the policy lets a connection go to this IP address, and if not, why. */
export function checkAddress(address: string, policy: AddressPolicy): AddressVerdict {
  const addressClass = classifyAddress(address);
  if (addressClass === undefined) return { allowed: false, reason: 'not an IP address' };
  if (addressClass === 'public') return { allowed: true };
  if (addressClass === 'loopback' && policy.allowLoopback) return { allowed: true };
  if (addressClass === 'private' && policy.allowPrivateNetworks) return { allowed: true };
  return { allowed: false, reason: REASONS[addressClass] };
}

/** Refuses cloud metadata host names by name, whatever they resolve to. */
export function checkHostName(hostName: string): AddressVerdict {
  const name = hostName.toLowerCase().replace(/\.+$/, '');
  return METADATA_HOST_NAMES.has(name) ? { allowed: false, reason: METADATA_REASON } : { allowed: true };
}

/** Drops URL brackets and an IPv6 zone id (`fe80::1%eth0`), which BlockList does not accept. */
export function bareAddress(address: string): string {
  const unbracketed = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const zone = unbracketed.indexOf('%');
  return zone === -1 ? unbracketed : unbracketed.slice(0, zone);
}

function embeddedIPv4(ipv6: string): string | undefined {
  const words = ipv6Words(ipv6);
  if (!words) return undefined;
  const zeros = (from: number, to: number): boolean => words.slice(from, to).every((word) => word === 0);
  const fromWords = (high: number, low: number): string =>
    [high >> 8, high & 0xff, low >> 8, low & 0xff].map(String).join('.');
  // ::ffff:a.b.c.d (mapped)
  if (zeros(0, 5) && words[5] === 0xffff) return fromWords(words[6], words[7]);
  // ::a.b.c.d (deprecated IPv4-compatible); :: and ::1 keep their own meaning
  if (zeros(0, 6) && words[6] !== 0) return fromWords(words[6], words[7]);
  // 64:ff9b::a.b.c.d and 64:ff9b:1::a.b.c.d (NAT64, /96 form)
  if (words[0] === 0x64 && words[1] === 0xff9b && (words[2] === 0 || words[2] === 1) && zeros(3, 6)) {
    return fromWords(words[6], words[7]);
  }
  // 2002:AABB:CCDD::/48 (6to4)
  if (words[0] === 0x2002) return fromWords(words[1], words[2]);
  return undefined;
}

/** The eight 16-bit words of a valid IPv6 address (dotted IPv4 tail allowed). */
function ipv6Words(ipv6: string): number[] | undefined {
  let text = ipv6;
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const octets = tail.split('.').map(Number);
    text = `${text.slice(0, lastColon + 1)}${((octets[0] << 8) | octets[1]).toString(16)}:${((octets[2] << 8) | octets[3]).toString(16)}`;
  }
  const [head, rest] = text.split('::');
  const parse = (part: string | undefined): number[] =>
    part ? part.split(':').map((word) => Number.parseInt(word, 16)) : [];
  const headWords = parse(head);
  const restWords = parse(rest);
  const missing = 8 - headWords.length - restWords.length;
  const words = rest === undefined ? headWords : [...headWords, ...new Array<number>(missing).fill(0), ...restWords];
  return words.length === 8 && words.every((word) => Number.isInteger(word)) ? words : undefined;
}
