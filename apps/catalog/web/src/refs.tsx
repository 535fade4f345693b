import { api, Empty, Link, useQuery } from '@platform/ui';

/** A link to a record's detail page, by id; its name is what the link says. */
export function RecordLink({ to, id, name }: { to: string; id: string; name: string }) {
  return <Link to={`/${to}/${encodeURIComponent(id)}`}>{name}</Link>;
}

/** A list of links to records (`[{ id, name }]`), or a word saying there are none. */
export function RecordLinks({
  to,
  records,
  empty,
}: {
  to: string;
  records: readonly { id: string; name: string }[];
  empty: string;
}) {
  if (records.length === 0) return <Empty>{empty}</Empty>;
  return (
    <ul className="catalog-links">
      {records.map((r) => (
        <li key={r.id}>
          <RecordLink to={to} id={r.id} name={r.name} />
        </li>
      ))}
    </ul>
  );
}

/** A link to a named record (a service's system or owner), or a dash when there is none. */
export function NameLink({ to, name }: { to: string; name: string | null }) {
  if (!name) return <span className="ui-muted">—</span>;
  return <Link to={`/${to}/${encodeURIComponent(name)}`}>{name}</Link>;
}

/** Tags as a comma-separated text, or a dash. */
export const tagsOf = (tags: readonly string[]) => (tags.length > 0 ? tags.join(', ') : '—');

/**
 * Names of services known by id (an API's providers and consumers): one list call of up to
 * 1,000, shared with the graph page's; an id it does not find shows as itself.
 */
export function useServiceNames(ids: readonly string[]) {
  const list = useQuery({
    queryKey: ['services', 'names'],
    queryFn: () => api.catalog.listServices({ query: { limit: 1000 } }),
    enabled: ids.length > 0,
  });
  const byId = new Map((list.data ?? []).map((r) => [r.id, r.name]));
  return ids.map((id) => ({ id, name: byId.get(id) ?? id }));
}

/** How a record is named: its name, `namespace/name` outside the `default` namespace. */
export const nameOf = (r: { namespace: string; name: string }) =>
  r.namespace === 'default' ? r.name : `${r.namespace}/${r.name}`;

/** The namespace filter every list has. */
export const namespaceFilter = { name: 'namespace', label: 'Namespace', type: 'text' } as const;

/** The namespace field of a create form. */
export const namespaceField = {
  name: 'namespace',
  label: 'Namespace',
  hint: 'Backstage namespace: letters, digits and dashes (default when empty)',
} as const;
