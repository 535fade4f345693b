import {
  api,
  Card,
  formatCents,
  formatDate,
  JsonBlock,
  Status,
  type BodyOf,
  type DataOf,
  type ResourceSpec,
} from '@platform/ui';

type Item = DataOf<'billing.getItem'>;

const PERIODS = ['', 'daily', 'weekly', 'monthly', 'quarterly', 'yearly'];

/** Money as the item has it: its cents in its own currency. */
const money = (i: Item) => formatCents(i.amount, i.currency);

export const items: ResourceSpec<Item> = {
  path: 'items',
  singular: 'item',
  plural: 'spending items',
  description: 'What was spent, newest first; amounts are whole cents.',
  key: (i) => i.id,
  title: (i) => i.name,
  list: (query) => api.billing.listItems({ query }),
  get: (id) => api.billing.getItem({ path: { id } }),
  create: (body) => api.billing.createItem({ body: body as BodyOf<'billing.createItem'> }),
  update: (id, body) =>
    api.billing.updateItem({ path: { id }, body: body as BodyOf<'billing.updateItem'> }),
  remove: (id) => api.billing.deleteItem({ path: { id } }),
  access: { service: 'billing', create: 'createItem', update: 'updateItem', remove: 'deleteItem' },
  filters: [
    { name: 'category', label: 'Category' },
    { name: 'provider', label: 'Provider' },
    { name: 'service', label: 'Service' },
    { name: 'author', label: 'Author' },
    { name: 'tags', label: 'Tags' },
    { name: 'recurring', label: 'Recurring', options: ['true', 'false'] },
    { name: 'from', label: 'From', type: 'date' },
    { name: 'to', label: 'To', type: 'date' },
  ],
  columns: [
    { header: 'Name', cell: (i) => i.name },
    { header: 'Date', cell: (i) => formatDate(i.date) },
    { header: 'Category', cell: (i) => i.category ?? '—' },
    { header: 'Provider', cell: (i) => i.provider ?? '—' },
    { header: 'Recurring', cell: (i) => i.period ?? (i.recurring ? 'yes' : '—') },
    { header: 'Amount', cell: money, numeric: true },
  ],
  fields: [
    { name: 'name', label: 'Name', required: true },
    {
      name: 'amount',
      label: 'Amount in cents',
      kind: 'number',
      required: true,
      hint: 'Whole cents: 1250 is 12.50; negative for a credit',
    },
    { name: 'currency', label: 'Currency', hint: 'Three letters (ISO 4217); USD by default' },
    { name: 'date', label: 'Date', hint: 'YYYY-MM-DD or an ISO timestamp; now by default' },
    { name: 'category', label: 'Category' },
    { name: 'provider', label: 'Provider', hint: 'Who bills it, e.g. openai' },
    { name: 'providerRef', label: 'Provider reference' },
    { name: 'service', label: 'Service' },
    { name: 'stageApp', label: 'Stage app' },
    { name: 'author', label: 'Author' },
    { name: 'tags', label: 'Tags', kind: 'list' },
    { name: 'recurring', label: 'Recurring', kind: 'checkbox' },
    {
      name: 'period',
      label: 'Period',
      kind: 'select',
      options: PERIODS,
      hint: 'Required when recurring',
    },
    { name: 'description', label: 'Description', kind: 'textarea' },
    { name: 'team', label: 'Team', kind: 'team' },
  ],
  details: (i) => [
    ['Id', <code key="id">{i.id}</code>],
    ['Amount', money(i)],
    ['Exact amount', i.exactAmount === null ? null : `${i.exactAmount} cents`],
    ['Date', formatDate(i.date)],
    ['Category', i.category],
    ['Provider', i.provider],
    ['Provider reference', i.providerRef],
    ['Service', i.service],
    ['Stage app', i.stageApp],
    ['Author', i.author],
    ['Tags', i.tags.length ? i.tags.join(', ') : null],
    ['Recurring', i.recurring ? <Status key="r" value={i.period ?? 'recurring'} /> : 'no'],
    ['Description', i.description],
    ['Created', formatDate(i.createdAt)],
    ['Updated', formatDate(i.updatedAt)],
  ],
  more: (i) =>
    Object.keys(i.dimensions).length > 0 && (
      <Card title="FOCUS dimensions">
        <JsonBlock value={i.dimensions} label="FOCUS dimensions" />
      </Card>
    ),
};
