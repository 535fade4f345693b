import { call, type Transport } from './transport.js';

export interface ServiceHealth {
  name: string;
  status: 'ok' | 'unhealthy';
  version?: string;
  via: 'in-process' | 'proxy' | 'fallback';
  error?: string;
}

export interface FeatureFlag {
  name: string;
  enabled: boolean;
  source: 'override' | 'env' | 'default';
  default: boolean;
  env: boolean | null;
  override: boolean | null;
}

/** The gateway's own endpoints (spec 4.1). */
export class GatewayClient {
  constructor(private readonly transport: Transport) {}

  health() {
    return call<{ status: 'ok' | 'degraded'; version: string; services: ServiceHealth[] }>(
      this.transport,
      {
        method: 'GET',
        path: '/api/v1/health',
      },
    );
  }

  features() {
    return call<FeatureFlag[]>(this.transport, { method: 'GET', path: '/api/v1/features' });
  }

  setFeature(name: string, enabled: boolean) {
    return call<FeatureFlag>(this.transport, {
      method: 'PUT',
      path: `/api/v1/features/${encodeURIComponent(name)}`,
      body: { enabled },
    });
  }

  clearFeature(name: string) {
    return call<FeatureFlag>(this.transport, {
      method: 'DELETE',
      path: `/api/v1/features/${encodeURIComponent(name)}`,
    });
  }
}
