// Inference (issue 16): what the inference service, and the gateway in front of it, add to a
// chat, streamed or not. A fake OpenAI-compatible provider in this process answers at once; each
// scenario is timed one request at a time (latency, not throughput), directly, through the
// standalone inference service and through the gateway, in one run. TTFT: time from the request
// to the first streamed chunk of text.
import { createServer } from 'node:http';
import { databaseUrl, rows, start } from './lib.mjs';

const N = Number(process.env.BENCH_INFERENCE_CALLS ?? 400);
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

/** Milliseconds to the first body chunk (TTFT) and to the end of the answer. */
async function timed(url, body) {
  const t0 = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  let first;
  for await (const part of res.body) first ??= part.length ? performance.now() : undefined;
  return { ttft: (first ?? performance.now()) - t0, total: performance.now() - t0 };
}

const pct = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function series(name, url, body, field, baseline) {
  for (let i = 0; i < 50; i++) await timed(url, body); // warm-up
  const xs = [];
  for (let i = 0; i < N; i++) xs.push((await timed(url, body))[field]);
  const row = { name, p50: pct(xs, 50), p99: pct(xs, 99), baseline: baseline?.name };
  if (baseline) {
    row.addedP50 = row.p50 - baseline.p50;
    row.ratio = row.p50 / baseline.p50;
  }
  rows.push(row);
  console.error(
    `  ${name}: p50 ${row.p50.toFixed(2)} ms, p99 ${row.p99.toFixed(2)} ms${baseline ? `, added p50 ${row.addedP50.toFixed(2)} ms` : ''}`,
  );
  return row;
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
    const chat = await series(
      'chat, provider called directly',
      `${fake.url}/chat/completions`,
      direct(false),
      'total',
    );
    // The floor: the same call through one more process that only forwards it.
    await series(
      'chat through a bare Fastify proxy (one more hop, nothing else)',
      `${hop.url}/chat/completions`,
      direct(false),
      'total',
      chat,
    );
    await series(
      'POST /chat through the inference service',
      `${base}/chat`,
      viaGateway,
      'total',
      chat,
    );
    await series('POST /chat through the gateway', `${platform}/chat`, viaGateway, 'total', chat);
    const ttft = await series(
      'stream TTFT, provider called directly',
      `${fake.url}/chat/completions`,
      direct(true),
      'ttft',
    );
    await series(
      'stream TTFT through a bare Fastify proxy (one more hop, nothing else)',
      `${hop.url}/chat/completions`,
      direct(true),
      'ttft',
      ttft,
    );
    await series(
      'POST /chat/stream TTFT through the inference service',
      `${base}/chat/stream`,
      viaGateway,
      'ttft',
      ttft,
    );
    await series(
      'POST /chat/stream TTFT through the gateway',
      `${platform}/chat/stream`,
      viaGateway,
      'ttft',
      ttft,
    );
  } finally {
    await fake.close();
  }
}
