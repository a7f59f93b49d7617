import { describe, expect, it } from 'vitest';
import { GatewayClient } from '../../../src/connectors/gateway-client.js';
import { connectorGatewayUrl } from '../../../src/connectors/settings.js';
import { validateSettings } from '../../../src/host/settings-document.js';
import { issuesOf } from '../../helpers/settings-issues.js';

describe('connectors', () => {
  it('defaults to enabled without a gateway, which leaves connectors off', () => {
    const settings = validateSettings({});
    expect(settings.connectors).toEqual({ enabled: true });
    expect(connectorGatewayUrl(settings.connectors)).toBeUndefined();
  });

  it('uses the gateway URL only while enabled; a blank URL means none', () => {
    const on = validateSettings({ connectors: { gatewayUrl: '  https://gw.example.com/api/ ' } }).connectors;
    expect(on).toEqual({ gatewayUrl: 'https://gw.example.com/api/', enabled: true });
    expect(connectorGatewayUrl(on)).toBe('https://gw.example.com/api/');
    const off = validateSettings({
      connectors: { gatewayUrl: 'http://127.0.0.1:8080', enabled: false },
    }).connectors;
    expect(connectorGatewayUrl(off)).toBeUndefined();
    expect(validateSettings({ connectors: { gatewayUrl: ' ' } }).connectors).toEqual({ enabled: true });
  });

  it('says what is wrong with a URL without quoting it', () => {
    const cases: Array<[unknown, RegExp]> = [
      ['ftp://gw.example.com/', /must be an http:\/\/ or https:\/\/ address .*got a "ftp:" address/],
      ['gw.example.com CANARY', /is not a valid URL; enter the gateway's address like "https:/],
      ['https://me:CANARYpw@gw.example.com/', /must not hold a user name or password.*secret store/],
      ['https://gw.example.com/?token=CANARYtok', /must not hold a query .*secret store/],
      ['https://gw.example.com/#CANARY', /must not hold a query \("\?…"\) or fragment/],
      [42, /must be a string like "https:\/\/gateway\.example\.com\/"; got number 42/],
    ];
    for (const [gatewayUrl, message] of cases) {
      const issues = issuesOf(() => validateSettings({ connectors: { gatewayUrl } }));
      expect(issues).toEqual([{ path: 'connectors.gatewayUrl', message: expect.stringMatching(message) }]);
      expect(JSON.stringify(issues)).not.toContain('CANARY');
    }
  });

  it('accepts a URL exactly when the gateway client does', () => {
    const urls = [
      'https://gw.example.com',
      'http://127.0.0.1:9000/base',
      'HTTPS://GW.EXAMPLE.COM/v1/',
      'ftp://gw.example.com/',
      'https://u:p@gw.example.com/',
      'not a url',
    ];
    for (const gatewayUrl of urls) {
      let schemaOk = true;
      try {
        validateSettings({ connectors: { gatewayUrl } });
      } catch {
        schemaOk = false;
      }
      let clientOk = true;
      try {
        new GatewayClient({ baseUrl: gatewayUrl, token: undefined });
      } catch {
        clientOk = false;
      }
      expect(schemaOk, gatewayUrl).toBe(clientOk);
    }
  });

  it('refuses a token in settings and says where it belongs, and other wrong fields', () => {
    const issues = issuesOf(() =>
      validateSettings({ connectors: { token: 'CANARY', enabled: 'yes', url: 'https://x' } }),
    );
    const byPath = Object.fromEntries(issues.map((i) => [i.path, i.message]));
    expect(Object.keys(byPath).sort()).toEqual(['connectors.enabled', 'connectors.token', 'connectors.url']);
    expect(byPath['connectors.token']).toMatch(/secret store, never in settings\.json/);
    expect(byPath['connectors.url']).toContain('allowed here: gatewayUrl, enabled');
    expect(JSON.stringify(issues)).not.toContain('CANARY');
    expect(issuesOf(() => validateSettings({ connectors: 'https://me:CANARY@gw.example.com/' }))).toEqual([
      { path: 'connectors', message: expect.stringMatching(/like \{"gatewayUrl".*got a string\.$/) },
    ]);
    expect(issuesOf(() => validateSettings({ connectors: true }))).toEqual([
      { path: 'connectors', message: expect.stringContaining('must be an object like {"gatewayUrl"') },
    ]);
  });
});
