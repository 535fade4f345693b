import type { ReactNode } from 'react';
import { errorMessage } from './api';

/** An API error, said in the API's words; never a blank page. */
export function ErrorBanner({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  return (
    <div className="ui-banner ui-banner-danger" role="alert">
      {title && <strong>{title}: </strong>}
      {errorMessage(error)}
    </div>
  );
}

export function Notice({ children }: { children: ReactNode }) {
  return (
    <div className="ui-banner ui-banner-success" role="status">
      {children}
    </div>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="ui-muted" role="status" aria-live="polite">
      {label}
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="ui-empty">{children}</p>;
}

export type Tone = 'neutral' | 'success' | 'warning' | 'danger' | 'accent';

/** A short status word in a colour that means something (ok, failed, draft ...). */
export function Badge({ tone = 'neutral', children }: { tone?: Tone; children: ReactNode }) {
  return <span className={`ui-badge ui-badge-${tone}`}>{children}</span>;
}

const TONES: Record<string, Tone> = {
  ok: 'success',
  active: 'success',
  enabled: 'success',
  succeeded: 'success',
  completed: 'success',
  delivered: 'success',
  sent: 'success',
  stable: 'success',
  valid: 'success',
  open: 'accent',
  running: 'accent',
  queued: 'accent',
  accepted: 'accent',
  pending: 'accent',
  beta: 'accent',
  experimental: 'warning',
  degraded: 'warning',
  draft: 'warning',
  interrupted: 'warning',
  aborted: 'warning',
  retrying: 'warning',
  retry: 'warning',
  down: 'danger',
  failed: 'danger',
  error: 'danger',
  bounced: 'danger',
  invalid: 'danger',
  deprecated: 'danger',
  disabled: 'neutral',
  closed: 'neutral',
  merged: 'accent',
};

/** A status as a badge, its colour chosen from the word. */
export function Status({ value }: { value: string | null | undefined }) {
  if (!value) return <span className="ui-muted">—</span>;
  return <Badge tone={TONES[value.toLowerCase()] ?? 'neutral'}>{value}</Badge>;
}

export function Card({
  title,
  actions,
  children,
}: {
  title?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="ui-card">
      {(title || actions) && (
        <header className="ui-card-header">
          {title && <h2>{title}</h2>}
          {actions && <div className="ui-actions">{actions}</div>}
        </header>
      )}
      {children}
    </section>
  );
}

/** A detail page's fields: term and value, in order. */
export function Details({ items }: { items: [label: string, value: ReactNode][] }) {
  return (
    <dl className="ui-details">
      {items.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value ?? '—'}</dd>
        </div>
      ))}
    </dl>
  );
}

/** JSON as it came, readable. */
export function JsonBlock({ value, label }: { value: unknown; label?: string }) {
  return (
    <pre className="ui-json" tabIndex={0} aria-label={label ?? 'JSON'}>
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}
