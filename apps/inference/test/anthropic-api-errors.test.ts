import Anthropic from '@anthropic-ai/sdk';
import { anthropicError } from './fakes';
import { compatGateway, failure as failed } from './compat';

// Errors in Anthropic's shape, as the official `@anthropic-ai/sdk` reads them.
let t: Awaited<ReturnType<typeof compatGateway>>;
const as = (apiKey: string) =>
  new Anthropic({ apiKey, baseURL: `${t.gw.base}/anthropic`, maxRetries: 0 });
const failure = (p: Promise<unknown>) => failed<InstanceType<typeof Anthropic.APIError>>(p);
beforeEach(async () => {
  t = await compatGateway([
    ['oa', 'openai', 'gpt-4o'],
    ['ant', 'anthropic', 'claude-sonnet-4-6'],
    ['gem', 'google', 'gemini-2.5-flash'],
  ]);
});
afterEach(() => t.close());

describe('errors in Anthropic shape', () => {
  it('401 without a valid key, 403 without the scope, 400 naming what cannot be honoured', async () => {
    const none = await failure(
      as('pk-nope').messages.create({
        model: 'claude-sonnet-4-6',
        max_tokens: 5,
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(none).toBeInstanceOf(Anthropic.AuthenticationError);
    expect(none).toMatchObject({ status: 401, type: 'authentication_error' });
    const denied = await failure(
      as('pk-read').messages.create({
        model: 'claude-sonnet-4-6',
        max_tokens: 5,
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(denied).toBeInstanceOf(Anthropic.PermissionDeniedError);
    expect(denied).toMatchObject({ status: 403, type: 'permission_error' });
    const topK = await failure(
      as('pk-invoke').messages.create({
        model: 'gpt-4o',
        max_tokens: 5,
        ...({ top_k: 3 } as object),
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(topK).toBeInstanceOf(Anthropic.BadRequestError);
    expect(topK).toMatchObject({ status: 400, type: 'invalid_request_error' });
    expect(topK.message).toContain('top_k is not supported by model gpt-4o on provider oa');
    const missing = await failure(
      as('pk-invoke').messages.create({
        model: 'claude-sonnet-4-6',
        messages: [{ role: 'user', content: 'x' }],
      } as never),
    );
    expect(missing).toMatchObject({ status: 400, type: 'invalid_request_error' });
    expect(t.fake.seen).toHaveLength(0);
  });

  it("passes the provider's failures on: 429 rate_limit_error, 529 overloaded_error", async () => {
    t.fake.next(anthropicError(429, 'rate_limit_error', 'Too many requests'));
    const limited = await failure(
      as('pk-invoke').messages.create({
        model: 'claude-sonnet-4-6',
        max_tokens: 5,
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(limited).toBeInstanceOf(Anthropic.RateLimitError);
    expect(limited).toMatchObject({ status: 429, type: 'rate_limit_error' });
    t.fake.next(anthropicError(529, 'overloaded_error', 'Overloaded'));
    const busy = await failure(
      as('pk-invoke').messages.create({
        model: 'claude-sonnet-4-6',
        max_tokens: 5,
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(busy).toMatchObject({ status: 529, type: 'overloaded_error' });
  });
});
