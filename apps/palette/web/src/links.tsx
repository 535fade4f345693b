import { Link } from '@platform/ui';
import type { ReactNode } from 'react';

/** Related records as links to their pages, under a label; "none" when there are none. */
export function Links({
  label,
  path,
  items,
  extra,
}: {
  label: string;
  path: string;
  items: readonly { id: string; name: string }[];
  extra?(item: { id: string; name: string }): ReactNode;
}) {
  return (
    <div className="pl-links">
      <h3>{label}</h3>
      {items.length === 0 ? (
        <p className="ui-muted">None</p>
      ) : (
        <ul>
          {items.map((item) => (
            <li key={item.id}>
              <Link to={`/${path}/${item.id}`}>{item.name}</Link>
              {extra?.(item)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
