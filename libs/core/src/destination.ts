import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

// Destinations a caller chose (webhook and Slack URLs, SMTP hosts) must not reach the service's
// own network: an address that is loopback, private, link-local, unspecified (or otherwise not
// routable on the internet) is refused unless the service's setting (e.g.
// COMMUNICATION_ALLOW_PRIVATE_TARGETS) allows it. The check is made on every address a name
// resolves to, and again at connection time (DNS rebinding).

/** Whether private destinations are allowed, and the setting that says so (named in refusals). */
export interface TargetPolicy {
  allowPrivate: boolean;
  setting: string;
}

const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // unspecified, "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local (cloud metadata)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128],
  ['64:ff9b::', 96], // NAT64 of any IPv4 address
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv6');

/** Whether an IP address is loopback, private, link-local, unspecified or otherwise internal. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return BLOCKED.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family === 6) return BLOCKED.check(address, 'ipv6');
  return true; // not an address: refuse
}

/** A destination that may not be used: refused for good, never retried. */
export class PrivateTargetError extends Error {}

/** A name that does not resolve now: tried again later. */
export class UnresolvedTargetError extends Error {}

export const refusal = (host: string, policy: TargetPolicy) =>
  `${host} is a loopback, private, link-local or unspecified address, refused (${policy.setting} is not true)`;

const lookupAll = (host: string) =>
  new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(host, { all: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  );

/**
 * The addresses `host` resolves to, every one of them checked (an IP literal is its own address).
 * A refused address is a PrivateTargetError; a name that does not resolve, UnresolvedTargetError.
 */
export async function checkedAddresses(
  host: string,
  policy: TargetPolicy,
  what: string,
): Promise<LookupAddress[]> {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  let addresses: LookupAddress[];
  if (isIP(bare)) addresses = [{ address: bare, family: isIP(bare) }];
  else {
    try {
      addresses = await lookupAll(bare);
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'lookup failed';
      throw new UnresolvedTargetError(`${what} ${host} could not be resolved (${code})`);
    }
  }
  if (!policy.allowPrivate && addresses.some((a) => isPrivateAddress(a.address)))
    throw new PrivateTargetError(`${what} ${refusal(host, policy)}`);
  return addresses;
}

/**
 * A `lookup` for net/tls connections (undici's connect options) that refuses private addresses:
 * the check again at connection time, so a name cannot resolve to a public address when checked
 * and to a private one when connected (DNS rebinding).
 */
export function guardedLookup(policy: TargetPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      if (!policy.allowPrivate && addresses.some((a) => isPrivateAddress(a.address)))
        return callback(
          Object.assign(new Error(refusal(hostname, policy)), { code: 'EPRIVATEADDRESS' }),
          '',
          4,
        );
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/**
 * A service base URL in the form it is compared in (with an allowlist of such URLs): absolute,
 * https or http (any host with `http: 'any'`, loopback only with `'loopback'`), no query,
 * fragment or credentials, without a trailing slash. Throws an Error saying what is wrong.
 */
export function normaliseBaseUrl(raw: string, http: 'any' | 'loopback'): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${JSON.stringify(raw)} is not an absolute URL`);
  }
  const httpAllowed = http === 'any' || LOOPBACK_HOSTS.includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && httpAllowed))
    throw new Error(
      `${JSON.stringify(raw)} must be ${http === 'any' ? 'http(s)' : 'https (http only on localhost)'}`,
    );
  if (url.search || url.hash || url.username || url.password)
    throw new Error(`${JSON.stringify(raw)} must have no query, fragment or credentials`);
  return url.href.replace(/\/+$/, '');
}
