import {
  jsonApi,
  serviceUnderTest,
  type Json,
  type JsonApi,
  type ServiceUnderTest,
} from '@platform/testing';
import { palette } from '../src/index';

export interface Palette extends ServiceUnderTest, JsonApi {
  /** Creates a record and returns it (fails the test when it cannot). */
  create(path: string, body: object): Promise<Json>;
}

export async function paletteUnderTest(): Promise<Palette> {
  const svc = await serviceUnderTest(palette);
  const api = jsonApi(svc.app, palette.prefix);
  return {
    ...svc,
    ...api,
    async create(path, body) {
      const res = await api.post(path, body);
      if (res.status !== 201) throw new Error(`${path}: ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
  };
}
