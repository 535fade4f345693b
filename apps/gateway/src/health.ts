import { request as undiciRequest } from 'undici';
import {
  serviceIdentityHeaders,
  type App,
  type AuthSettings,
  type ServiceManifest,
} from '@platform/core';
import { withTimeout } from '@platform/db';
import { mayServeInProcess } from './proxy.js';

export interface ServiceHealth {
  name: string;
  status: 'ok' | 'unhealthy';
  version?: string;
  /** Where the answer came from: in-process, the proxy target, or the in-process fallback. */
  via: 'in-process' | 'proxy' | 'fallback';
  error?: string;
}

interface Probe {
  statusCode: number;
  body: { success?: boolean; data?: { version?: string }; error?: { message?: string } };
}

async function probeInProcess(app: App, url: string, auth: AuthSettings): Promise<Probe> {
  // Behind the gateway's authentication like any route: the gateway asks as itself.
  const headers = await serviceIdentityHeaders(auth, 'gateway');
  const response = await app.inject({ method: 'GET', url, headers });
  return { statusCode: response.statusCode, body: response.json() };
}

async function probeRemote(base: string, url: string, timeoutMs: number): Promise<Probe> {
  const response = await undiciRequest(`${base}${url}`, {
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  return { statusCode: response.statusCode, body: (await response.body.json()) as Probe['body'] };
}

/**
 * Calls one service's /healthz: in-process, or, for a proxied service, at its target first and
 * in-process when the target is unreachable. Never waits longer than `timeoutMs`.
 */
export async function checkService(
  manifest: ServiceManifest,
  inProcess: App,
  proxyUrl: string | undefined,
  timeoutMs: number,
  auth: AuthSettings,
): Promise<ServiceHealth> {
  const url = `${manifest.prefix}/healthz`;
  let via: ServiceHealth['via'] = proxyUrl ? 'proxy' : 'in-process';
  try {
    let probe: Probe;
    if (proxyUrl) {
      try {
        probe = await withTimeout(probeRemote(proxyUrl, url, timeoutMs), timeoutMs, manifest.name);
      } catch (error) {
        if (!mayServeInProcess(error, 'GET')) throw error;
        via = 'fallback';
        probe = await withTimeout(probeInProcess(inProcess, url, auth), timeoutMs, manifest.name);
      }
    } else {
      probe = await withTimeout(probeInProcess(inProcess, url, auth), timeoutMs, manifest.name);
    }
    if (probe.statusCode === 200 && probe.body.success) {
      return { name: manifest.name, status: 'ok', version: probe.body.data?.version, via };
    }
    return {
      name: manifest.name,
      status: 'unhealthy',
      via,
      error: probe.body.error?.message ?? `HTTP ${probe.statusCode}`,
    };
  } catch (error) {
    return { name: manifest.name, status: 'unhealthy', via, error: (error as Error).message };
  }
}
