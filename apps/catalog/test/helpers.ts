import {
  jsonApi,
  serviceUnderTest,
  type Json,
  type JsonApi,
  type ServiceUnderTest,
} from '@platform/testing';
import { catalog } from '../src/index';

export interface Catalog extends ServiceUnderTest, JsonApi {
  /** Creates a service and returns it (fails the test when it cannot). */
  service(name: string, fields?: object): Promise<Json>;
  /** Makes `from` depend on each of `to`. */
  depend(from: string, ...to: string[]): Promise<void>;
}

export async function catalogUnderTest(): Promise<Catalog> {
  const svc = await serviceUnderTest(catalog);
  const api = jsonApi(svc.app, catalog.prefix);
  return {
    ...svc,
    ...api,
    async service(name, fields = {}) {
      const res = await api.post('/services', { name, ...fields });
      if (res.status !== 201) throw new Error(`${name}: ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    async depend(from, ...to) {
      for (const target of to) {
        const res = await api.post(`/services/${from}/dependencies`, { dependsOn: target });
        if (res.status !== 200)
          throw new Error(`${from} -> ${target}: ${JSON.stringify(res.body)}`);
      }
    },
  };
}
