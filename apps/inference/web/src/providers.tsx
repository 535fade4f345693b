import { api, formatDate, type ArgsOf, type DataOf, type ResourceSpec } from '@platform/ui';
import { ProviderModels } from './models';

type Provider = DataOf<'inference.getProvider'>;
type ProviderInput = ArgsOf<'inference.createProvider'>['body'];

export const PROVIDER_TYPES = [
  'mock',
  'openai',
  'anthropic',
  'google',
  'openrouter',
  'openai-compatible',
] as const;

/** Model providers: list, detail (with its synced models), create, edit, delete. */
export const providers: ResourceSpec<Provider> = {
  path: 'providers',
  singular: 'provider',
  plural: 'providers',
  key: (p) => p.id,
  title: (p) => p.name,
  list: (query) => api.inference.listProviders({ query }),
  get: (idOrName) => api.inference.getProvider({ path: { idOrName } }),
  create: (body) => api.inference.createProvider({ body: body as ProviderInput }),
  update: (idOrName, body) => api.inference.updateProvider({ path: { idOrName }, body }),
  remove: (idOrName) => api.inference.deleteProvider({ path: { idOrName } }),
  access: {
    service: 'inference',
    create: 'createProvider',
    update: 'updateProvider',
    remove: 'deleteProvider',
  },
  description: 'Where chat, embeddings, images and transcription calls go, oldest first.',
  columns: [
    { header: 'Name', cell: (p) => p.name },
    { header: 'Type', cell: (p) => p.type },
    { header: 'Default model', cell: (p) => <code>{p.defaultModel}</code> },
    { header: 'Key variable', cell: (p) => (p.envVar ? <code>{p.envVar}</code> : '—') },
    { header: 'Updated', cell: (p) => formatDate(p.updated) },
  ],
  fields: [
    { name: 'name', label: 'Name', required: true },
    { name: 'type', label: 'Type', kind: 'select', options: PROVIDER_TYPES, required: true },
    { name: 'defaultModel', label: 'Default model', required: true },
    {
      name: 'envVar',
      label: 'Key variable',
      hint: 'The environment variable holding the API key (OPENAI_API_KEY, INFERENCE_KEY_…); not needed for mock',
    },
    {
      name: 'baseUrl',
      label: 'Base URL',
      kind: 'url',
      hint: "Empty: the type's official API; otherwise one listed in INFERENCE_BASE_URLS",
    },
  ],
  details: (p) => [
    ['Id', <code key="id">{p.id}</code>],
    ['Type', p.type],
    ['Default model', <code key="model">{p.defaultModel}</code>],
    ['Key variable', p.envVar && <code key="env">{p.envVar}</code>],
    ['Base URL', p.baseUrl ?? 'The official API'],
    ['Created', formatDate(p.created)],
    ['Updated', formatDate(p.updated)],
  ],
  more: (p) => <ProviderModels provider={p.name} />,
};
