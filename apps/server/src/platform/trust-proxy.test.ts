import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { fastifyTrustProxy, parseTrustProxy } from './trust-proxy.ts';

describe('TRUST_PROXY', () => {
  it('is off unless set', () => {
    for (const value of [undefined, '', ' ', '0', 'false'])
      expect(parseTrustProxy(value), `${value}`).toBe(false);
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(fastifyTrustProxy(false)).toBe(false);
  });

  it('reads a number as the proxies in front, and a list as their addresses', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toEqual({ hops: 1 });
    expect(parseTrustProxy('2')).toEqual({ hops: 2 });
    expect(parseTrustProxy('10.0.0.1,127.0.0.1')).toEqual({ addresses: ['10.0.0.1', '127.0.0.1'] });
    expect(parseTrustProxy(' 10.0.0.0/8 , loopback, ::1, fd00::/8 ')).toEqual({
      addresses: ['10.0.0.0/8', 'loopback', '::1', 'fd00::/8'],
    });
    expect(fastifyTrustProxy({ addresses: ['10.0.0.1'] })).toEqual(['10.0.0.1']);
  });

  it('refuses at start-up what would believe every client, and what is not an address', () => {
    for (const value of [
      'true',
      'TRUE',
      'all',
      '*',
      'yes',
      '0.0.0.0/0',
      '::/0',
      '10.0.0.1,0.0.0.0/0',
      '0.0.0.0/0.0.0.0',
    ])
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(
        /TRUST_PROXY=.*number of reverse proxies/,
      );
    for (const value of ['proxy.internal', '10.0.0.300', '10.0.0.0/33', '1.5', '-1'])
      expect(() => parseTrustProxy(value), value).toThrow(/TRUST_PROXY=/);
  });

  it('trusts, by a number, only as many hops, the nearest one on a loopback or private address', () => {
    const trust = fastifyTrustProxy({ hops: 1 });
    if (typeof trust !== 'function') throw new Error('a hop count is a function');
    for (const peer of [
      '127.0.0.1',
      '::1',
      '::ffff:127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.0.1',
      'fd12::1',
    ])
      expect(trust(peer, 0), peer).toBe(true);
    for (const peer of ['203.0.113.7', '8.8.8.8', '2001:db8::1', '172.32.0.1'])
      expect(trust(peer, 0), peer).toBe(false);
    // the address the proxy added is the client's: never trusted as a proxy with one hop
    expect(trust('10.0.0.2', 1)).toBe(false);
    const two = fastifyTrustProxy({ hops: 2 });
    if (typeof two !== 'function') throw new Error('a hop count is a function');
    expect(two('203.0.113.7', 1)).toBe(true);
    expect(two('10.0.0.2', 2)).toBe(false);
  });
});
