// Inference (issue 16): what the inference service, and the gateway in front of it, add to a
// chat, streamed or not. A fake OpenAI-compatible provider in this process answers at once; each
// scenario is timed one request at a time (latency, not throughput: `latencies` in lib.mjs),
// directly, through a bare proxy, the standalone inference service and the gateway, in one run.
// TTFT: time from the request to the first streamed chunk of text.
import { createServer } from 'node:http';
import { databaseUrl, latencies, post, start } from './lib.mjs';

const chunk = (delta, finish = null) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const completion = JSON.stringify({
  id: 'c1',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-4o-mini',
  choices: [
    { index: 0, message: { role: 'assistant', content: 'Hello there' }, finish_reason: 'stop' },
  ],
  usage: { prompt_tokens: 8, completion_tokens: 2, total_tokens: 10 },
});

/** OpenAI chat completions, streamed (with a usage chunk) or not. */
async function fakeProvider() {
  const server = createServer((req, res) => {
    // Anything but a chat (a readiness probe through the bare proxy) is not found.
    if (req.method !== 'POST') return void res.writeHead(404).end();
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (!JSON.parse(body).stream) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(completion);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk({ role: 'assistant', content: 'Hello' }));
      res.write(chunk({ content: ' there' }));
      res.write(chunk({}, 'stop'));
      res.write(
        `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [], usage: { prompt_tokens: 8, completion_tokens: 2, total_tokens: 10 } })}\n\n`,
      );
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((r) => server.close(r)),
  };
}

export async function inference() {
  const fake = await fakeProvider();
  const hop = await start('bench/hop.mjs', { UPSTREAM: fake.url });
  const service = await start('apps/inference/dist/main.js', {
    DATABASE_URL: databaseUrl,
    INFERENCE_KEY_BENCH: 'bench-key',
    // The fake provider's address, the one base URL a provider may name besides the official ones.
    INFERENCE_BASE_URLS: fake.url,
    LOG_LEVEL: 'warn',
  });
  const base = `${service.url}/api/v1/inference`;
  // The platform on one port: the inference service mounted in-process by the gateway.
  const gateway = await start('apps/gateway/dist/main.js', {
    DATABASE_URL: databaseUrl,
    INFERENCE_KEY_BENCH: 'bench-key',
    INFERENCE_BASE_URLS: fake.url,
    LOG_LEVEL: 'warn',
  });
  const platform = `${gateway.url}/api/v1/inference`;
  try {
    const name = `bench-${Date.now().toString(36)}`;
    const created = await fetch(`${base}/providers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name,
        type: 'openai-compatible',
        defaultModel: 'gpt-4o-mini',
        envVar: 'INFERENCE_KEY_BENCH',
        baseUrl: fake.url,
      }),
    });
    if (created.status !== 201)
      throw new Error(`create provider: ${created.status} ${await created.text()}`);
    const messages = [{ role: 'user', content: 'Say hello' }];
    const direct = (stream) =>
      JSON.stringify({
        model: 'gpt-4o-mini',
        messages,
        stream,
        ...(stream ? { stream_options: { include_usage: true } } : {}),
      });
    const viaGateway = JSON.stringify({ model: 'gpt-4o-mini', providerId: name, messages });
    const provider = `${fake.url}/chat/completions`;
    const hopped = `${hop.url}/chat/completions`;
    const floor = '(one more hop, nothing else)';
    await latencies([
      { name: 'chat, provider called directly', url: provider, init: post(direct(false)) },
      // The floor: the same call through one more process that only forwards it.
      ...[
        [`chat through a bare Fastify proxy ${floor}`, hopped, direct(false)],
        ['POST /chat through the inference service', `${base}/chat`, viaGateway],
        ['POST /chat through the gateway', `${platform}/chat`, viaGateway],
      ].map(([name, url, body]) => ({
        name,
        url,
        init: post(body),
        baseline: 'chat, provider called directly',
      })),
    ]);
    await latencies([
      {
        name: 'stream TTFT, provider called directly',
        url: provider,
        init: post(direct(true)),
        field: 'ttft',
      },
      ...[
        [`stream TTFT through a bare Fastify proxy ${floor}`, hopped, direct(true)],
        ['POST /chat/stream TTFT through the inference service', `${base}/chat/stream`, viaGateway],
        ['POST /chat/stream TTFT through the gateway', `${platform}/chat/stream`, viaGateway],
      ].map(([name, url, body]) => ({
        name,
        url,
        init: post(body),
        field: 'ttft',
        baseline: 'stream TTFT, provider called directly',
      })),
    ]);
    await compatibleLayer(provider, platform, name);
  } finally {
    await fake.close();
  }
}

/**
 * The OpenAI- and Anthropic-compatible routes (issue 34): what each adds at p50 over calling the
 * fake provider directly, through the gateway, not streamed and streamed (TTFT); the native route
 * measured alongside, in the same block, for comparison.
 */
async function compatibleLayer(provider, platform, providerId) {
  const messages = [{ role: 'user', content: 'Say hello' }];
  const direct = (stream) =>
    JSON.stringify({
      model: 'gpt-4o-mini',
      messages,
      stream,
      ...(stream ? { stream_options: { include_usage: true } } : {}),
    });
  const native = JSON.stringify({ model: 'gpt-4o-mini', providerId, messages });
  const openai = (stream) =>
    JSON.stringify({
      model: 'gpt-4o-mini',
      providerId,
      messages,
      stream,
      ...(stream ? { stream_options: { include_usage: true } } : {}),
    });
  const anthropic = (stream) =>
    JSON.stringify({ model: 'gpt-4o-mini', providerId, max_tokens: 100, messages, stream });
  const DIRECT = 'compatible layer: chat, provider called directly';
  const DIRECT_TTFT = 'compatible layer: stream TTFT, provider called directly';
  await latencies([
    { name: DIRECT, url: provider, init: post(direct(false)) },
    ...[
      [
        'compatible layer: POST /chat through the gateway (native, for comparison)',
        `${platform}/chat`,
        native,
      ],
      [
        'POST /openai/v1/chat/completions through the gateway',
        `${platform}/openai/v1/chat/completions`,
        openai(false),
      ],
      [
        'POST /anthropic/v1/messages through the gateway',
        `${platform}/anthropic/v1/messages`,
        anthropic(false),
      ],
    ].map(([name, url, body]) => ({ name, url, init: post(body), baseline: DIRECT })),
  ]);
  await latencies([
    { name: DIRECT_TTFT, url: provider, init: post(direct(true)), field: 'ttft' },
    ...[
      [
        'compatible layer: POST /chat/stream TTFT through the gateway (native, for comparison)',
        `${platform}/chat/stream`,
        native,
      ],
      [
        'POST /openai/v1/chat/completions stream TTFT through the gateway',
        `${platform}/openai/v1/chat/completions`,
        openai(true),
      ],
      [
        'POST /anthropic/v1/messages stream TTFT through the gateway',
        `${platform}/anthropic/v1/messages`,
        anthropic(true),
      ],
    ].map(([name, url, body]) => ({
      name,
      url,
      init: post(body),
      field: 'ttft',
      baseline: DIRECT_TTFT,
    })),
  ]);
}
