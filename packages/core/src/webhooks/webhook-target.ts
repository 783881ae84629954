/**
 * Webhook target policy (spec "Subscribing" 4, docs/webhooks.md): the service must never be usable to
 * reach its own network, so targets are https on publicly routable addresses only. The check runs at
 * registration and again before each delivery, since DNS can change between the two.
 */
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** Every address a host name resolves to; injectable so tests need no DNS. */
export type HostResolver = (hostname: string) => Promise<readonly string[]>;

export const systemResolver: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

export interface WebhookTargetOptions {
  /** Development/test switch: lifts the https-only and public-address rules. */
  allowPrivateTargets?: boolean;
  resolve?: HostResolver;
}

const IPV4_LABELS: Record<string, string> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT',
  private: 'private',
  reserved: 'reserved',
  as112: 'reserved (AS112)',
  amt: 'reserved (AMT)',
};

const IPV6_LABELS: Record<string, string> = {
  unspecified: 'unspecified',
  linkLocal: 'link-local',
  multicast: 'multicast',
  loopback: 'loopback',
  uniqueLocal: 'unique-local',
  deprecatedSiteLocal: 'site-local',
  discard: 'discard-only',
};

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
// Only the well-known NAT64 prefix has a fixed place for the IPv4 address; the local-use
// 64:ff9b:1::/48 is site-specific, so it is refused outright.
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

function ipv4FromBytes(bytes: readonly number[]): ipaddr.IPv4 {
  return new ipaddr.IPv4([...bytes]);
}

function ipv4Kind(address: ipaddr.IPv4): string | null {
  const range = address.range();
  // Allow-list: anything ipaddr.js files under a special range is refused, including anycast
  // blocks nobody would host a webhook receiver on.
  return range === 'unicast' ? null : (IPV4_LABELS[range] ?? 'reserved');
}

/** Addresses that carry an IPv4 address inside are judged by that address. */
function embeddedKind(form: string, embedded: readonly ipaddr.IPv4[]): string | null {
  for (const inner of embedded) {
    const kind = ipv4Kind(inner);
    if (kind !== null) return `${kind} (${form})`;
  }
  return null;
}

function ipv6Kind(address: ipaddr.IPv6): string | null {
  const bytes = address.toByteArray();
  const range = address.range();
  switch (range) {
    case 'ipv4Mapped':
      return embeddedKind('IPv4-mapped', [address.toIPv4Address()]);
    case 'rfc6145':
      return embeddedKind('IPv4-translated', [ipv4FromBytes(bytes.slice(12))]);
    case 'rfc6052':
      return address.match(NAT64_WELL_KNOWN) ? embeddedKind('NAT64', [ipv4FromBytes(bytes.slice(12))]) : 'reserved (local NAT64)';
    case '6to4':
      return embeddedKind('6to4', [ipv4FromBytes(bytes.slice(2, 6))]);
    case 'teredo':
      // RFC 4380: the server address is in bits 32–63, the client address in the last 32 bits, inverted.
      return embeddedKind('Teredo', [ipv4FromBytes(bytes.slice(4, 8)), ipv4FromBytes(bytes.slice(12).map((byte) => byte ^ 0xff))]);
    case 'unicast':
      // Outside 2000::/3 nothing is allocated for global unicast; this also catches the deprecated
      // IPv4-compatible ::a.b.c.d form, which ipaddr.js reports as plain unicast.
      return address.match(GLOBAL_UNICAST_V6) ? null : 'reserved';
    default:
      return IPV6_LABELS[range] ?? 'reserved';
  }
}

// Characters of the IPv4 spellings inet_aton and the WHATWG URL parser accept (hex, octal, short forms).
const IPV4_LIKE = /^[0-9a-fx.]+$/i;

/** The host as a URL would read it, or null when a URL would not accept it. */
function urlHostname(host: string): string | null {
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return null;
  }
}

// Every address goes through the URL parser first, so this check and the eventual connection can
// never disagree about which address is meant: odd IPv4 spellings (2130706433, 0x7f.1, 017.0.0.1)
// and `::a.b.c.d`, which ipaddr.js would otherwise read as IPv4-mapped rather than IPv4-compatible.
function parseAddress(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | 'invalid' | 'zone-scoped' {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  if (bare.includes(':')) {
    if (!ipaddr.IPv6.isValid(bare)) return 'invalid';
    // A zone index only means something for link-scoped addresses, never for a public target.
    if (bare.includes('%')) return 'zone-scoped';
    const host = urlHostname(`[${bare}]`);
    return host === null ? 'invalid' : ipaddr.IPv6.parse(host.slice(1, -1));
  }
  if (!IPV4_LIKE.test(bare)) return 'invalid';
  const host = urlHostname(bare);
  return host !== null && ipaddr.IPv4.isValidFourPartDecimal(host) ? ipaddr.IPv4.parse(host) : 'invalid';
}

/**
 * Why an IP address is not an acceptable public target (e.g. `loopback`, `private (IPv4-mapped)`),
 * or null when it is publicly routable unicast. Unparseable input is `invalid`.
 */
export function nonPublicAddressKind(ip: string): string | null {
  const address = parseAddress(ip.trim());
  if (typeof address === 'string') return address;
  return address.kind() === 'ipv4' ? ipv4Kind(address as ipaddr.IPv4) : ipv6Kind(address as ipaddr.IPv6);
}

export const isPublicAddress = (ip: string): boolean => nonPublicAddressKind(ip) === null;

const isLocalhostName = (host: string): boolean => {
  const name = host.replace(/\.+$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
};

const mustBePublic = 'webhook targets must be publicly reachable';

/**
 * The URL as stored and returned: the serialisation of the same parser that checked it, so what
 * is stored names exactly the host that was checked, however the caller spelled it.
 */
export const normalizedWebhookUrl = (url: string): string => new URL(url).href;

/** Null when `url` is an acceptable webhook target, else a reason a person can act on. */
export async function checkWebhookTarget(url: string, options: WebhookTargetOptions = {}): Promise<string | null> {
  const { allowPrivateTargets = false, resolve = systemResolver } = options;
  if (url.length > MAX_WEBHOOK_URL_LENGTH) return `URL must be at most ${MAX_WEBHOOK_URL_LENGTH} characters.`;

  // WHATWG URL reads `\` as `/` (`https://a.example\@127.0.0.1/` is a.example) where other parsers
  // read userinfo, so a stored string could name another host to another reader.
  if (url.includes('\\')) return 'URL must not contain a backslash.';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'URL is not a valid absolute URL.';
  }
  if (parsed.href.length > MAX_WEBHOOK_URL_LENGTH) return `URL must be at most ${MAX_WEBHOOK_URL_LENGTH} characters once normalised.`;
  if (parsed.protocol !== 'https:' && !(allowPrivateTargets && parsed.protocol === 'http:')) {
    return allowPrivateTargets ? 'URL must use http:// or https://.' : 'URL must use https://.';
  }
  // Credentials would be stored and displayed with the subscription, and sent to a third party.
  if (parsed.username !== '' || parsed.password !== '') return 'URL must not contain a username or password.';
  if (allowPrivateTargets) return null;

  const host = parsed.hostname;
  // WHATWG URL has already normalised every IPv4 spelling to dotted decimal and wrapped IPv6 in brackets.
  if (host.startsWith('[') || ipaddr.IPv4.isValidFourPartDecimal(host)) {
    const kind = nonPublicAddressKind(host);
    return kind === null ? null : `Host ${host} is a non-public address (${kind}); ${mustBePublic}.`;
  }
  if (isLocalhostName(host)) return `Host ${host} is a local name; ${mustBePublic}.`;

  let addresses: readonly string[];
  try {
    addresses = await resolve(host);
  } catch {
    return `Host ${host} could not be resolved.`;
  }
  if (addresses.length === 0) return `Host ${host} could not be resolved.`;
  // Every address must pass: a client may connect to any of them. The address itself is not echoed,
  // so the check cannot be used to map internal DNS.
  for (const address of addresses) {
    const kind = nonPublicAddressKind(address);
    if (kind !== null) return `Host ${host} resolves to a non-public address (${kind}); ${mustBePublic}.`;
  }
  return null;
}
