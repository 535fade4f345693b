import { authSettings } from '@platform/core';
import { gatewayConfig, SERVICES } from '../src/index';
import { AUTH } from './auth-expectations';

// When authentication is on, and what start-up refuses (auth.test.ts sweeps it on).

describe('authentication settings', () => {
  it('are off without the three variables and on with all three', () => {
    expect(gatewayConfig(SERVICES, {}).auth.enabled).toBe(false);
    expect(gatewayConfig(SERVICES, AUTH).auth).toMatchObject({
      enabled: true,
      oidc: { issuer: 'http://127.0.0.1:9/', clientId: 'platform' }, // verbatim
    });
  });

  it('stop start-up naming the missing variables when only some are set', () => {
    expect(() => gatewayConfig(SERVICES, { OIDC_CLIENT_ID: 'x' })).toThrow(
      'Invalid configuration: OIDC_CLIENT_SECRET, SESSION_SECRET are not set: authentication needs OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, SESSION_SECRET all set (or none, to turn it off)',
    );
    expect(() => authSettings({ ...AUTH, SESSION_SECRET: ' ' })).toThrow(
      'Invalid configuration: SESSION_SECRET is not set',
    );
  });

  it('refuse production without authentication unless AUTH_DISABLED=true', () => {
    expect(() => authSettings({ NODE_ENV: 'production' })).toThrow(
      'Invalid configuration: AUTH_DISABLED must be true to run with NODE_ENV=production and no authentication',
    );
    expect(authSettings({ NODE_ENV: 'production', AUTH_DISABLED: 'true' }).enabled).toBe(false);
    expect(authSettings({ ...AUTH, NODE_ENV: 'production' }).enabled).toBe(true);
  });

  it('refuse a short session secret', () => {
    expect(() => authSettings({ ...AUTH, SESSION_SECRET: 'short' })).toThrow(
      'Invalid configuration: SESSION_SECRET must be at least 32 characters long',
    );
  });
});
