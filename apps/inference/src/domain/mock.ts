import { createHash } from 'node:crypto';
import type { LanguageModelV4, LanguageModelV4CallOptions } from '@ai-sdk/provider';

/** The text a prompt's last user message gets from the mock: deterministic, offline. */
function answerTo(options: LanguageModelV4CallOptions) {
  const last = [...options.prompt].reverse().find((m) => m.role === 'user');
  const text =
    last && Array.isArray(last.content)
      ? last.content.map((p) => (p.type === 'text' ? p.text : '')).join('')
      : '';
  return `Mock answer to: ${text}`;
}

const inputTokens = (options: LanguageModelV4CallOptions) =>
  estimateTokens(JSON.stringify(options.prompt));

/** Roughly four characters a token: what a call is charged when its provider counts nothing. */
export const estimateTokens = (text: string) => Math.ceil(text.length / 4);

const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});

/** A language model answering "Mock answer to: <last user message>", word by word when streamed. */
export function mockLanguageModel(modelId: string): LanguageModelV4 {
  return {
    specificationVersion: 'v4',
    provider: 'mock',
    modelId,
    supportedUrls: {},
    async doGenerate(options) {
      const text = answerTo(options);
      return {
        content: [{ type: 'text', text }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: usage(inputTokens(options), text.split(' ').length),
        warnings: [],
      };
    },
    async doStream(options) {
      const words = answerTo(options).split(' ');
      const input = inputTokens(options);
      const stream = new ReadableStream({
        start(controller) {
          controller.enqueue({ type: 'stream-start', warnings: [] });
          controller.enqueue({ type: 'text-start', id: '0' });
          words.forEach((word, i) =>
            controller.enqueue({ type: 'text-delta', id: '0', delta: i ? ` ${word}` : word }),
          );
          controller.enqueue({ type: 'text-end', id: '0' });
          controller.enqueue({
            type: 'finish',
            finishReason: { unified: 'stop', raw: 'stop' },
            usage: usage(input, words.length),
          });
          controller.close();
        },
      });
      return { stream };
    },
  };
}

/** Eight numbers from the text's hash, the same for the same text. */
export function mockEmbedding(text: string): number[] {
  const hash = createHash('sha256').update(text).digest();
  return Array.from({ length: 8 }, (_, i) =>
    Number((hash.readUInt32BE(i * 4) / 0xffffffff).toFixed(6)),
  );
}

/** A 1x1 transparent PNG. */
export const MOCK_IMAGE =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

export const mockTranscription = (bytes: number) => `Mock transcription of ${bytes} bytes of audio`;

export const MOCK_MODELS = ['mock-1', 'mock-embed-1', 'mock-image-1', 'mock-whisper-1'];
