import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { createClient, httpTransport } from '@platform/client';
import { newApiKey } from '@platform/passport';
import { AUTH_ENV, listen, useService } from '@platform/testing';
import { gatewayUnderTest } from './helpers';

// The official OpenAI and Anthropic SDKs, unmodified, against the whole platform with
// authentication on: platform API keys made in passport, as the SDKs send them (Bearer, x-api-key),
// answered by the seeded mock provider through the gateway.

const ADMIN = newApiKey();
const gw = useService(() => gatewayUnderTest({ ...AUTH_ENV, PLATFORM_API_KEY: ADMIN }), {
  scope: 'all',
});
let url: string;
const keys: Record<'invoke' | 'read', string> = { invoke: '', read: '' };
beforeAll(async () => {
  url = await listen(gw.app);
  const admin = createClient(httpTransport(url, { headers: { 'x-api-key': ADMIN } }));
  for (const [name, scope] of [
    ['invoke', 'inference:invoke'],
    ['read', 'inference:read'],
  ] as const)
    keys[name] = (
      await admin.passport.createKey({ body: { name: `sdk-${name}`, scopes: [scope] } })
    ).key;
});

const openai = (apiKey: string) =>
  new OpenAI({ baseURL: `${url}/api/v1/inference/openai/v1`, apiKey, maxRetries: 0 });
const anthropic = (apiKey: string) =>
  new Anthropic({ baseURL: `${url}/api/v1/inference/anthropic`, apiKey, maxRetries: 0 });
const messages = [{ role: 'user' as const, content: 'hello from an SDK' }];

it('chats and streams through the OpenAI SDK with a key sent as Bearer', async () => {
  const answer = await openai(keys.invoke).chat.completions.create({ model: 'mock-1', messages });
  expect(answer.choices[0].message.content).toEqual(expect.any(String));
  expect(answer.usage).toMatchObject({ prompt_tokens: expect.any(Number) });

  const stream = await openai(keys.invoke).chat.completions.create({
    model: 'mock-1',
    messages,
    stream: true,
    stream_options: { include_usage: true },
  });
  let text = '';
  let usage: OpenAI.CompletionUsage | null | undefined;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta.content ?? '';
    usage = chunk.usage ?? usage;
  }
  expect(text.length).toBeGreaterThan(0);
  expect(usage?.completion_tokens).toBeGreaterThan(0);
});

it('sends messages through the Anthropic SDK with a key sent as x-api-key', async () => {
  const answer = await anthropic(keys.invoke).messages.create({
    model: 'mock-1',
    max_tokens: 50,
    messages,
  });
  expect(answer.content[0]).toMatchObject({ type: 'text', text: expect.any(String) });
  expect(answer.usage.output_tokens).toBeGreaterThan(0);
});

it("refuses a key without the scope, and an unknown key, in each SDK's error types", async () => {
  const call = { model: 'mock-1', messages };
  await expect(openai(keys.read).chat.completions.create(call)).rejects.toBeInstanceOf(
    OpenAI.PermissionDeniedError,
  );
  await expect(openai(newApiKey()).chat.completions.create(call)).rejects.toBeInstanceOf(
    OpenAI.AuthenticationError,
  );
  await expect(
    anthropic(keys.read).messages.create({ ...call, max_tokens: 10 }),
  ).rejects.toBeInstanceOf(Anthropic.PermissionDeniedError);
  await expect(
    anthropic(newApiKey()).messages.create({ ...call, max_tokens: 10 }),
  ).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
  // Bearer is for these routes only: the native API still wants X-API-Key.
  const native = await fetch(`${url}/api/v1/inference/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keys.invoke}`, 'content-type': 'application/json' },
    body: JSON.stringify(call),
  });
  expect(native.status).toBe(401);
});
