import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Empty } from './feedback';

export interface Column<T> {
  header: string;
  cell(row: T): ReactNode;
  /** Right-aligned (numbers, money). */
  numeric?: boolean;
}

/**
 * Rows in a table; `href` makes the first column a link to the row's detail page (keyboard
 * reachable, as a real link).
 */
export function DataTable<T>({
  rows,
  columns,
  href,
  rowKey,
  caption,
  empty = 'Nothing here yet.',
  busy,
}: {
  rows: readonly T[];
  columns: readonly Column<T>[];
  href?(row: T): string;
  rowKey(row: T): string;
  caption?: string;
  empty?: ReactNode;
  /** A new page or filter is loading: the rows shown are the previous answer's. */
  busy?: boolean;
}) {
  if (rows.length === 0 && !busy) return <Empty>{empty}</Empty>;
  return (
    <div className="ui-table-wrap" aria-busy={busy || undefined}>
      <table className="ui-table">
        {caption && <caption>{caption}</caption>}
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col" className={c.numeric ? 'ui-numeric' : undefined}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c, i) => (
                <td key={c.header} className={c.numeric ? 'ui-numeric' : undefined}>
                  {i === 0 && href ? <Link to={href(row)}>{c.cell(row)}</Link> : c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A list page's filters, search and paging, kept in the URL (shareable, back button works):
 * `query` is what to send to the list API (empty values left out), `limit` and `offset` included.
 */
export function useListParams(defaults: { limit?: number } = {}) {
  const [params, setParams] = useSearchParams();
  const limit = Number(params.get('limit')) || defaults.limit || 25;
  const offset = Math.max(0, Number(params.get('offset')) || 0);
  const get = (name: string) => params.get(name) ?? '';
  const set = (name: string, value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        if (name !== 'offset') next.delete('offset');
        return next;
      },
      { replace: true },
    );
  const filters: Record<string, string> = {};
  for (const [key, value] of params)
    if (key !== 'limit' && key !== 'offset' && value) filters[key] = value;
  return { get, set, limit, offset, filters, query: { ...filters, limit, offset } };
}

/** Previous and next pages; the API does not count, so "next" is there while a page is full. */
export function Pager({
  limit,
  offset,
  count,
  onOffset,
}: {
  limit: number;
  offset: number;
  count: number;
  onOffset(offset: number): void;
}) {
  if (offset === 0 && count < limit) return null;
  return (
    <nav className="ui-pager" aria-label="Pages">
      <button
        type="button"
        className="ui-button"
        disabled={offset === 0}
        onClick={() => onOffset(Math.max(0, offset - limit))}
      >
        Previous
      </button>
      <span className="ui-muted">
        {count === 0 ? 'No more' : `${offset + 1}–${offset + count}`}
      </span>
      <button
        type="button"
        className="ui-button"
        disabled={count < limit}
        onClick={() => onOffset(offset + limit)}
      >
        Next
      </button>
    </nav>
  );
}

/** A row of filters above a list: search boxes and selects, each labelled. */
export function FilterBar({ children }: { children: ReactNode }) {
  return (
    <div className="ui-filters" role="search">
      {children}
    </div>
  );
}

/** A text filter: the list follows what is typed once typing pauses (not at every key). */
export function FilterInput({
  label,
  value,
  onChange,
  type = 'search',
  placeholder,
}: {
  label: string;
  value: string;
  onChange(value: string): void;
  type?: 'search' | 'text' | 'date' | 'datetime-local' | 'number';
  placeholder?: string;
}) {
  const id = useId();
  const [text, setText] = useState(value);
  const latest = useRef(onChange);
  useEffect(() => {
    latest.current = onChange;
  });
  // The URL changed under it (back button, a link): show that value, as React advises, in render.
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    setText(value);
  }
  useEffect(() => {
    if (text === value) return;
    const timer = setTimeout(() => latest.current(text), 250);
    return () => clearTimeout(timer);
  }, [text, value]);
  return (
    <div className="ui-filter">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        value={text}
        placeholder={placeholder}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => e.key === 'Enter' && onChange(text)}
      />
    </div>
  );
}

export function FilterSelect({
  label,
  value,
  onChange,
  options,
  any = 'Any',
  disabled = false,
}: {
  label: string;
  value: string;
  onChange(value: string): void;
  options: readonly (string | { value: string; label: string })[];
  /** The choice that filters nothing (value ''); null for a choice that must have a value. */
  any?: string | null;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="ui-filter">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)}>
        {any !== null && <option value="">{any}</option>}
        {options.map((o) => {
          const option = typeof o === 'string' ? { value: o, label: o } : o;
          return (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          );
        })}
      </select>
    </div>
  );
}
