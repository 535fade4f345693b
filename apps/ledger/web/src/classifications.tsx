import { api, formatDate, Status, type BodyOf, type DataOf, type ResourceSpec } from '@platform/ui';

type Classification = DataOf<'ledger.getClassification'>;

const LEVELS = ['public', 'internal', 'confidential', 'pii', 'restricted'];

export const classifications: ResourceSpec<Classification> = {
  path: 'classifications',
  singular: 'classification',
  plural: 'classifications',
  description: 'How sensitive each field of each service is.',
  key: (c) => c.id,
  title: (c) => `${c.service} · ${c.field}`,
  list: (query) => api.ledger.listClassifications({ query }),
  get: (id) => api.ledger.getClassification({ path: { id } }),
  create: (body) =>
    api.ledger.createClassification({
      body: body as BodyOf<'ledger.createClassification'>,
    }),
  remove: (id) => api.ledger.deleteClassification({ path: { id } }),
  access: {
    service: 'ledger',
    create: 'createClassification',
    remove: 'deleteClassification',
  },
  filters: [
    { name: 'service', label: 'Service' },
    { name: 'level', label: 'Level', options: LEVELS },
  ],
  columns: [
    { header: 'Field', cell: (c) => c.field },
    { header: 'Service', cell: (c) => c.service },
    { header: 'Level', cell: (c) => <Status value={c.level} /> },
    { header: 'Category', cell: (c) => c.ppiCategory ?? '—' },
  ],
  fields: [
    { name: 'service', label: 'Service', required: true },
    { name: 'field', label: 'Field', required: true, hint: 'A dotted path: customer.email' },
    { name: 'level', label: 'Level', kind: 'select', options: LEVELS },
    { name: 'justification', label: 'Justification', kind: 'textarea', required: true },
    { name: 'ppiCategory', label: 'PPI category' },
  ],
  details: (c) => [
    ['Id', <code key="id">{c.id}</code>],
    ['Service', c.service],
    ['Field', c.field],
    ['Level', <Status key="level" value={c.level} />],
    ['Justification', c.justification],
    ['PPI category', c.ppiCategory],
    ['Created', formatDate(c.createdAt)],
  ],
};
