import { isIP } from 'node:net';
import proxyAddr from '@fastify/proxy-addr';

/**
 * Which reverse proxies the server believes (TRUST_PROXY), so that `request.ip` is the client's
 * address, not the proxy's: the rate limits, the audit log and the session list use it.
 * - `false`: none; the address is the connection's.
 * - `{ hops: n }` (`TRUST_PROXY=1`, `2`, ...): the n proxies in front, the nearest of them connecting
 *   from a loopback or private address. The address is the one the nearest proxy added to
 *   X-Forwarded-For (the n-th from the end): what a client writes there itself comes before it and
 *   is never believed, and a client connecting from a public address is not believed at all.
 * - `{ addresses }` (`TRUST_PROXY=10.0.0.1,127.0.0.1`, CIDRs, `loopback`, `uniquelocal`): exactly
 *   those proxies; the address is the last one of X-Forwarded-For that is not one of them.
 * `true`, `all` and `*`, or a range of every address, are refused: that would make whatever a client
 * writes its address.
 */
export type TrustProxy = false | { hops: number } | { addresses: string[] };

const EVERYBODY = new Set(['true', 'all', '*', 'yes', 'on']);
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An address written out in full (not `1.5`, IPv4's shorthand for 1.0.0.5), a CIDR, or a named range. */
const isProxyAddress = (a: string): boolean => {
  if (NAMED_RANGES.has(a)) return true;
  const [ip = '', range, ...more] = a.split('/');
  return (
    more.length === 0 &&
    isIP(ip) !== 0 &&
    (range === undefined || /^\d{1,3}$/.test(range) || isIP(range) === 4)
  );
};

const refuse = (value: string, why: string): never => {
  throw new Error(
    `TRUST_PROXY=${value}: ${why}. Give the number of reverse proxies in front of Kodi (1 for one, ` +
      'on this machine or a private network) or their addresses (10.0.0.1,127.0.0.1 or 10.0.0.0/8).',
  );
};

export const parseTrustProxy = (raw: string | undefined): TrustProxy => {
  const value = (raw ?? '').trim();
  if (value === '' || value === '0' || value.toLowerCase() === 'false') return false;
  if (EVERYBODY.has(value.toLowerCase()))
    return refuse(value, "it would make every client's own X-Forwarded-For its address");
  if (/^\d+$/.test(value)) return { hops: Number(value) };
  const addresses = value
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  // a prefix of 0 bits (0.0.0.0/0, ::/0) is every address: the same as `true`
  if (addresses.some((a) => /\/0+(\.0+){0,3}$/.test(a)))
    return refuse(value, 'a range of every address would believe every client');
  const wrong = addresses.find((a) => !isProxyAddress(a));
  if (wrong !== undefined)
    return refuse(value, `"${wrong}" is not an IP address, a CIDR range or a named range`);
  try {
    // the ranges' lengths
    proxyAddr.compile(addresses);
  } catch (err) {
    return refuse(value, (err as Error).message);
  }
  return { addresses };
};

/** Whether an address is on this machine or a private network (what the nearest proxy of `hops` must be). */
const isPrivate = proxyAddr.compile(['loopback', 'linklocal', 'uniquelocal']);

/**
 * Fastify's `trustProxy` of the setting. Not a number of hops: Fastify 5 refuses to trust by a hop
 * count alone (a client reaching the server directly would be believed), so the hop count is a
 * function that also checks the nearest proxy's address.
 */
export const fastifyTrustProxy = (
  trust: TrustProxy,
): false | string[] | ((address: string, hop: number) => boolean) => {
  if (!trust) return false;
  if ('addresses' in trust) return trust.addresses;
  const { hops } = trust;
  return (address, hop) => hop < hops && (hop > 0 || isPrivate(address, hop));
};
