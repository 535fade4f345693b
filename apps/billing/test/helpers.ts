import {
  jsonApi,
  serviceUnderTest,
  type Json,
  type JsonApi,
  type ServiceUnderTest,
} from '@platform/testing';
import { billing } from '../src/index';
import type { BillingDatabase } from '../src/database';

export interface Billing extends ServiceUnderTest, JsonApi {
  /** Creates an item and returns it (fails the test when it cannot). */
  item(fields: object): Promise<Json>;
  /** Removes every item. */
  reset(): Promise<void>;
}

export async function billingUnderTest(env: Record<string, string> = {}): Promise<Billing> {
  const svc = await serviceUnderTest(billing, { env });
  const api = jsonApi(svc.app, billing.prefix);
  return {
    ...svc,
    ...api,
    async item(fields) {
      const res = await api.post('/items', { name: 'item', amount: 100, ...fields });
      if (res.status !== 201) throw new Error(JSON.stringify(res.body));
      return res.body.data;
    },
    async reset() {
      await svc.db.schema<BillingDatabase>(billing.name).deleteFrom('items').execute();
    },
  };
}
