import { serviceUnderTest, type ServiceUnderTest } from '@platform/testing';
import type { InjectOptions } from 'fastify';
import { catalog } from '../src/index';

// JSON bodies, checked by each test.
type Json = any;

export interface Catalog extends ServiceUnderTest {
  get(url: string): Promise<{ status: number; body: Json }>;
  post(url: string, payload?: unknown): Promise<{ status: number; body: Json }>;
  put(url: string, payload: unknown): Promise<{ status: number; body: Json }>;
  del(url: string): Promise<{ status: number; body: Json }>;
  /** Creates a service and returns it (fails the test when it cannot). */
  service(name: string, fields?: object): Promise<Json>;
  /** Makes `from` depend on each of `to`. */
  depend(from: string, ...to: string[]): Promise<void>;
}

export async function catalogUnderTest(): Promise<Catalog> {
  const svc = await serviceUnderTest(catalog);
  const call = async (method: InjectOptions['method'], url: string, payload?: unknown) => {
    const res = await svc.app.inject({
      method,
      url: `/api/v1/catalog${url}`,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: res.statusCode, body: res.json() };
  };
  const post = (url: string, payload?: unknown) => call('POST', url, payload ?? {});
  return {
    ...svc,
    get: (url) => call('GET', url),
    post,
    put: (url, payload) => call('PUT', url, payload),
    del: (url) => call('DELETE', url),
    async service(name, fields = {}) {
      const res = await post('/services', { name, ...fields });
      if (res.status !== 201) throw new Error(`${name}: ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    async depend(from, ...to) {
      for (const target of to) {
        const res = await post(`/services/${from}/dependencies`, { dependsOn: target });
        if (res.status !== 200)
          throw new Error(`${from} -> ${target}: ${JSON.stringify(res.body)}`);
      }
    },
  };
}
