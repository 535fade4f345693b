import {
  api,
  Card,
  ErrorBanner,
  formatCents,
  formatDate,
  Link,
  Loading,
  useQuery,
  type BodyOf,
  type DataOf,
  type ResourceSpec,
} from '@platform/ui';

type Category = DataOf<'billing.getCategory'>;

/** A category's spending: its total (the summary report) and a link to its items. */
function CategorySpend({ category }: { category: Category }) {
  const summary = useQuery({
    queryKey: ['categories', 'summary', category.name],
    queryFn: () => api.billing.reportSummary({ query: { category: category.name } }),
  });
  return (
    <Card title="Spending">
      <ErrorBanner error={summary.error} />
      {summary.isPending ? (
        <Loading />
      ) : summary.data ? (
        <p>
          {formatCents(summary.data.totalAmount, summary.data.currency)} over{' '}
          {summary.data.itemCount.toLocaleString()} items.{' '}
          <Link to={`/items?category=${encodeURIComponent(category.name)}`}>See its items</Link>
        </p>
      ) : null}
    </Card>
  );
}

export const categories: ResourceSpec<Category> = {
  path: 'categories',
  singular: 'category',
  plural: 'categories',
  description: 'Named groups of items; renaming one carries its items along.',
  key: (c) => c.id,
  title: (c) => c.name,
  list: (query) => api.billing.listCategories({ query }),
  get: (idOrName) => api.billing.getCategory({ path: { idOrName } }),
  create: (body) => api.billing.createCategory({ body: body as BodyOf<'billing.createCategory'> }),
  update: (idOrName, body) =>
    api.billing.updateCategory({
      path: { idOrName },
      body: body as BodyOf<'billing.updateCategory'>,
    }),
  remove: (idOrName) => api.billing.deleteCategory({ path: { idOrName } }),
  access: {
    service: 'billing',
    create: 'createCategory',
    update: 'updateCategory',
    remove: 'deleteCategory',
  },
  columns: [
    { header: 'Name', cell: (c) => c.name },
    { header: 'Description', cell: (c) => c.description ?? '—' },
    {
      header: 'Colour',
      cell: (c) =>
        c.color ? (
          <>
            <span className="billing-swatch" style={{ background: c.color }} aria-hidden="true" />
            {c.color}
          </>
        ) : (
          '—'
        ),
    },
  ],
  fields: [
    { name: 'name', label: 'Name', required: true },
    { name: 'description', label: 'Description', kind: 'textarea' },
    { name: 'color', label: 'Colour', hint: '#rrggbb' },
    { name: 'team', label: 'Team', kind: 'team' },
  ],
  details: (c) => [
    ['Id', <code key="id">{c.id}</code>],
    ['Description', c.description],
    ['Colour', c.color],
    ['Created', formatDate(c.createdAt)],
    ['Updated', formatDate(c.updatedAt)],
  ],
  more: (c) => <CategorySpend category={c} />,
};
