import type { Command } from 'commander';
import { connectionLost } from '../api.js';
import { loadConfig } from '../config.js';
import { CliError, usageError } from '../errors.js';
import { crudVerbs, outputOf, serviceCommand, type ServiceSpec } from '../generic.js';
import { streamEvents } from '../sse.js';

export const inferenceSpec: ServiceSpec = {
  service: 'inference',
  describe: 'Model providers, models, chat (streamed), embeddings, images, usage',
  resources: {
    providers: {
      verbs: crudVerbs('Provider', 'Providers', ['id', 'name', 'type', 'defaultModel', 'envVar']),
    },
    models: { verbs: { list: 'listModels', sync: 'syncModels' } },
    requests: { verbs: { get: 'getRequest' } },
  },
  verbs: { usage: 'getUsage', embed: 'embed', images: 'generateImages', transcribe: 'transcribe' },
};

interface StreamEvent {
  type: string;
  delta?: { text?: string };
  usage?: { inputTokens: number; outputTokens: number };
  error?: { code: string; message: string };
}

export function inferenceCommands(program: Command): void {
  serviceCommand(program, inferenceSpec)
    .command('chat')
    .description(
      'Ask a model; the answer streams as it is written (--json: the whole answer at the end)',
    )
    .argument('<message...>')
    .option('--model <model>', 'Model (mock-1 answers offline)')
    .option('--provider <idOrName>', 'Provider id or name')
    .option('--system <text>', 'A system message first')
    .option('--max-tokens <n>', 'Most tokens to generate')
    .action(async (words: string[], opts: Record<string, string>, cmd: Command) => {
      const out = outputOf(cmd);
      const messages = [
        ...(opts.system ? [{ role: 'system', content: opts.system }] : []),
        { role: 'user', content: words.join(' ') },
      ];
      const maxTokens = opts.maxTokens === undefined ? undefined : Number(opts.maxTokens);
      if (maxTokens !== undefined && (!Number.isInteger(maxTokens) || maxTokens < 1))
        throw usageError(`--max-tokens must be a whole number above 0: ${opts.maxTokens}`);
      const body = {
        messages,
        ...(opts.model ? { model: opts.model } : {}),
        ...(opts.provider ? { providerId: opts.provider } : {}),
        ...(maxTokens === undefined ? {} : { maxTokens }),
      };
      let content = '';
      let stop: StreamEvent | undefined;
      await streamEvents('/api/v1/inference/chat/stream', body, (event) => {
        const e = event as StreamEvent;
        if (e.type === 'content_block_delta' && e.delta?.text) {
          content += e.delta.text;
          if (out.human) process.stdout.write(e.delta.text);
        } else if (e.type === 'message_stop') stop = e;
        else if (e.type === 'error')
          throw new CliError(`The stream failed: ${e.error?.message} (${e.error?.code})`);
      });
      if (out.human) process.stdout.write('\n');
      // Ended without its last event: the connection went away before the answer was complete.
      if (!stop) throw connectionLost(loadConfig().url, new Error('the stream ended early'));
      const { requestId } = stop as { requestId?: string };
      if (out.options.json) out.data({ content, usage: stop.usage, requestId });
    });
}
