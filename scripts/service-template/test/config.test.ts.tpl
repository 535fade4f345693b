import { ConfigError } from '@platform/core';
import { jsonApi, serviceUnderTest, useService } from '@platform/testing';
import service from '../src/index';

// Its variables (src/config.ts): the defaults, the start-up check, and what they change.
describe('configuration', () => {
  it('has defaults, and refuses a bad value at start-up naming the variable', () => {
    expect(service.config({})).toEqual({ maxItems: 10_000 });
    expect(service.config({ {{NAME}}_MAX_ITEMS: '5' })).toEqual({ maxItems: 5 });
    expect(() => service.config({ {{NAME}}_MAX_ITEMS: '0' })).toThrow(
      new ConfigError('{{NAME}}_MAX_ITEMS', 'must be an integer from 1 to 1000000, got "0"'),
    );
  });
});

describe('{{NAME}}_MAX_ITEMS', () => {
  const svc = useService(() => serviceUnderTest(service, { env: { {{NAME}}_MAX_ITEMS: '1' } }));

  it('keeps at most that many items', async () => {
    const api = jsonApi(svc.app, '/api/v1/{{name}}');
    expect((await api.post('/items', { name: 'One' })).status).toBe(201);
    const res = await api.post('/items', { name: 'Two' });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      code: 'BAD_REQUEST',
      message:
        'The service keeps 1 items already, the most it may ({{NAME}}_MAX_ITEMS): delete one first',
    });
  });
});
