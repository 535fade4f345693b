import {
  Allowed,
  api,
  Card,
  Form,
  formatNumber,
  Link,
  PageHeader,
  SelectField,
  TextField,
  useQuery,
} from '@platform/ui';
import { useEffect, useRef, useState } from 'react';
import { useProviders } from './models';
import { streamChat, type ChatBody, type StreamEnd } from './stream';

interface Turn {
  role: 'user' | 'assistant';
  content: string;
  end?: StreamEnd;
  stopped?: boolean;
}

const OTHER = '';

/** Synced models to choose from, or any model name typed (routed by its name, or a provider). */
function useModelChoice() {
  const models = useQuery({
    queryKey: ['models', { limit: 1000 }],
    queryFn: () => api.inference.listModels({ query: { limit: 1000 } }),
  });
  const providers = useProviders();
  const [choice, setChoice] = useState<string | null>(null);
  const [model, setModel] = useState('');
  const [provider, setProvider] = useState('');
  const options = (models.data ?? []).map((m) => ({
    value: `${m.provider}/${m.name}`,
    label: `${m.name} (${m.provider})`,
    body: { model: m.name, providerId: m.providerId },
  }));
  const current = choice ?? options[0]?.value ?? OTHER;
  const picked = options.find((o) => o.value === current);
  const body: Pick<ChatBody, 'model' | 'providerId'> = picked
    ? picked.body
    : { model, ...(provider && { providerId: provider }) };
  const fields = (
    <>
      <SelectField
        label="Model"
        name="modelChoice"
        value={current}
        onChange={setChoice}
        options={[...options, { value: OTHER, label: 'Another model (type its name)' }]}
      />
      {!picked && (
        <>
          <TextField
            label="Model name"
            name="model"
            value={model}
            onChange={setModel}
            placeholder="mock-1"
            hint="Routed by its name (claude* → Anthropic, gpt-* → OpenAI, mock* → mock); empty: the provider's default model"
          />
          <SelectField
            label="Provider"
            name="providerId"
            value={provider}
            onChange={setProvider}
            options={[
              { value: '', label: 'Chosen from the model name' },
              ...(providers.data ?? []).map((p) => p.name),
            ]}
          />
        </>
      )}
    </>
  );
  return { body, fields };
}

/** A chat with any model: the answer streamed as it is written, stoppable, with its usage. */
export function PlaygroundPage() {
  return (
    <Allowed requires={['inference', 'chatStream']} title="Playground" what="call models">
      <Playground />
    </Allowed>
  );
}

function Playground() {
  const { body, fields } = useModelChoice();
  const [system, setSystem] = useState('');
  const [message, setMessage] = useState('');
  const [maxTokens, setMaxTokens] = useState('');
  const [history, setHistory] = useState<Turn[]>([]);
  const [asked, setAsked] = useState<string | null>(null);
  const [live, setLive] = useState('');
  const [error, setError] = useState<unknown>(null);
  const controller = useRef<AbortController | null>(null);
  // Leaving the page stops the answer being written (no stream left running unseen).
  useEffect(() => () => controller.current?.abort(), []);

  const send = async () => {
    if (controller.current) return;
    const messages: ChatBody['messages'] = [
      ...(system.trim() ? [{ role: 'system' as const, content: system }] : []),
      ...history.map(({ role, content }) => ({ role, content })),
      { role: 'user', content: message },
    ];
    const abort = new AbortController();
    controller.current = abort;
    let text = '';
    setAsked(message);
    setLive('');
    setError(null);
    const onText = (chunk: string) => {
      text += chunk;
      setLive(text);
    };
    const limit = maxTokens ? { maxTokens: Number(maxTokens) } : {};
    try {
      const end = await streamChat({ ...body, ...limit, messages }, onText, abort.signal);
      setHistory((h) => [
        ...h,
        { role: 'user', content: message },
        { role: 'assistant', content: text, end },
      ]);
      setMessage('');
    } catch (failure) {
      if (abort.signal.aborted) {
        const partial: Turn = { role: 'assistant', content: text, stopped: true };
        setHistory((h) => [...h, { role: 'user', content: message }, partial]);
        setMessage('');
      } else setError(failure);
    } finally {
      controller.current = null;
      setAsked(null);
    }
  };

  return (
    <>
      <PageHeader title="Playground">
        Chat with a model; the answer streams from POST /chat/stream as it is written.
      </PageHeader>
      <div className="inference-playground">
        <Form
          label="Chat"
          onSubmit={() => void send()}
          error={error}
          pending={asked !== null}
          submitLabel="Send"
        >
          {fields}
          <TextField
            label="System prompt"
            name="system"
            multiline
            rows={3}
            value={system}
            onChange={setSystem}
          />
          <TextField
            label="Max tokens"
            name="maxTokens"
            type="number"
            value={maxTokens}
            onChange={setMaxTokens}
          />
          <TextField
            label="Message"
            name="messages"
            multiline
            required
            value={message}
            onChange={setMessage}
          />
        </Form>
        <Card
          title="Conversation"
          actions={
            asked !== null ? (
              <button
                type="button"
                className="ui-button"
                onClick={() => controller.current?.abort()}
              >
                Stop
              </button>
            ) : (
              history.length > 0 && (
                <button type="button" className="ui-button" onClick={() => setHistory([])}>
                  Clear
                </button>
              )
            )
          }
        >
          <div className="inference-turns" role="log" aria-label="Conversation">
            {history.length === 0 && asked === null && (
              <p className="ui-muted">Nothing said yet: write a message and send it.</p>
            )}
            {history.map((turn, i) => (
              <TurnView key={i} turn={turn} />
            ))}
            {asked !== null && (
              <>
                <TurnView turn={{ role: 'user', content: asked }} />
                <TurnView turn={{ role: 'assistant', content: live || '…' }} streaming />
              </>
            )}
          </div>
        </Card>
      </div>
    </>
  );
}

function TurnView({ turn, streaming }: { turn: Turn; streaming?: boolean }) {
  return (
    <div
      className={`inference-turn inference-turn-${turn.role}`}
      aria-busy={streaming || undefined}
    >
      <strong>{turn.role === 'user' ? 'You' : 'Assistant'}</strong>
      <p data-testid={streaming ? 'streaming' : undefined}>{turn.content}</p>
      {turn.stopped && <small className="ui-muted">Stopped</small>}
      {turn.end && (
        <small className="ui-muted">
          {formatNumber(turn.end.usage.inputTokens)} input tokens ·{' '}
          {formatNumber(turn.end.usage.outputTokens)} output tokens ·{' '}
          <Link to={`/requests/${turn.end.requestId}`}>Request details</Link>
        </small>
      )}
    </div>
  );
}
