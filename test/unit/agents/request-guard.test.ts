import { describe, expect, it } from 'vitest';
import {
  allowedHosts,
  digestsEqual,
  hasCredentialInQuery,
  isAllowedHost,
  isAllowedOrigin,
  isLoopbackBindAddress,
  ownOrigins,
  readBearerToken,
  secretDigest,
} from '../../../src/agents/request-guard.js';

describe('isLoopbackBindAddress', () => {
  it('accepts loopback addresses only', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', '::1', 'localhost'])
      expect(isLoopbackBindAddress(address)).toBe(true);
    for (const address of ['0.0.0.0', '::', '192.168.1.10', '10.0.0.1', 'example.com', '127.example.com']) {
      expect(isLoopbackBindAddress(address)).toBe(false);
    }
  });
});

describe('isAllowedHost', () => {
  const hosts = allowedHosts(4100);
  it('allows exactly our three loopback names on our port', () => {
    for (const host of ['127.0.0.1:4100', 'localhost:4100', '[::1]:4100', 'LOCALHOST:4100']) {
      expect(isAllowedHost(host, hosts)).toBe(true);
    }
  });
  it('refuses other hosts, other ports, a missing port and a missing header', () => {
    for (const host of [
      'attacker.example',
      'attacker.example:4100',
      '127.0.0.1:4101',
      '127.0.0.1',
      'localhost',
      undefined,
    ]) {
      expect(isAllowedHost(host, hosts)).toBe(false);
    }
  });
});

describe('isAllowedOrigin', () => {
  const origins = new Set(ownOrigins(4100));
  it('allows an absent Origin (non-browser agents) and our own origins', () => {
    expect(isAllowedOrigin(undefined, origins)).toBe(true);
    expect(isAllowedOrigin('http://127.0.0.1:4100', origins)).toBe(true);
    expect(isAllowedOrigin('http://localhost:4100', origins)).toBe(true);
  });
  it('refuses foreign, null, other-port and look-alike origins', () => {
    for (const origin of [
      'http://evil.example',
      'null',
      'http://127.0.0.1:9999',
      'http://localhost.evil.example',
      'http://localhost:4100.evil.example',
      'https://127.0.0.1:4100',
      'http://127.0.0.1:4100/',
      '',
    ]) {
      expect(isAllowedOrigin(origin, origins)).toBe(false);
    }
  });
});

describe('readBearerToken', () => {
  it('reads the token from a Bearer header', () => {
    expect(readBearerToken('Bearer abc.def-123')).toBe('abc.def-123');
    expect(readBearerToken('bearer abc')).toBe('abc');
  });
  it('ignores other schemes and malformed headers', () => {
    for (const header of [undefined, '', 'Basic abc', 'Bearer', 'Bearer ', 'Bearer a b', 'Tokenabc']) {
      expect(readBearerToken(header)).toBeUndefined();
    }
  });
});

describe('hasCredentialInQuery', () => {
  it('spots tokens in the query string', () => {
    expect(hasCredentialInQuery('/mcp?token=abc')).toBe(true);
    expect(hasCredentialInQuery('/mcp?x=1&access_token=abc')).toBe(true);
    expect(hasCredentialInQuery('/mcp')).toBe(false);
    expect(hasCredentialInQuery('/mcp?session=1')).toBe(false);
  });
});

describe('digestsEqual', () => {
  it('matches equal secrets and nothing else, whatever the lengths', () => {
    expect(digestsEqual(secretDigest('tb_secret'), secretDigest('tb_secret'))).toBe(true);
    expect(digestsEqual(secretDigest('tb_secret'), secretDigest('tb_secreT'))).toBe(false);
    expect(digestsEqual(secretDigest('tb_secret'), secretDigest('tb_secret-and-more'))).toBe(false);
    expect(digestsEqual(secretDigest('a'), Buffer.from('short'))).toBe(false);
  });
});
