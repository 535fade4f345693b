import { CheckboxField, SERVICES, useMe } from '@platform/ui';

/** The broad and narrow scopes a key may carry, in the README's words. */
const BROAD = [
  { scope: '*', label: 'Everything your role allows (*)', writes: true },
  { scope: '*:read', label: 'Read every service (*:read)', writes: false },
  { scope: 'pulse:ingest', label: 'Send analytics events only (pulse:ingest)', writes: true },
  { scope: 'inference:invoke', label: 'Call models (inference:invoke)', writes: true },
] as const;

/** What a new key may be given: a viewer's keys only read; only an admin's may be `admin`. */
export function useScopeChoice() {
  const who = useMe().data;
  const role = who && (who.kind === 'user' || who.kind === 'key') ? who.role : 'admin';
  return { readOnly: role === 'viewer', admin: role === 'admin' };
}

/**
 * The key's scopes as checkboxes: the broad ones, each service's read and write, and `admin` for
 * admins; a viewer is offered read scopes only.
 */
export function ScopesField({
  value,
  onChange,
}: {
  value: readonly string[];
  onChange(scopes: string[]): void;
}) {
  const { readOnly, admin } = useScopeChoice();
  const toggle = (scope: string) => (on: boolean) =>
    onChange(on ? [...value, scope] : value.filter((s) => s !== scope));
  const box = (scope: string, label = scope) => (
    <CheckboxField
      key={scope}
      label={label}
      name="scopes"
      checked={value.includes(scope)}
      onChange={toggle(scope)}
    />
  );
  return (
    <fieldset className="ui-field">
      <legend className="ui-label">Scopes</legend>
      <small className="ui-muted">
        What the key may do, never more than your role
        {readOnly ? ' (a viewer’s keys only read)' : ''}.
      </small>
      {BROAD.filter((b) => !readOnly || !b.writes).map((b) => box(b.scope, b.label))}
      {admin && box('admin', 'Platform configuration and keys (admin)')}
      <details>
        <summary>One service at a time</summary>
        {SERVICES.map((s) => (
          <div key={s.name} className="ui-actions">
            {box(`${s.name}:read`)}
            {!readOnly && box(`${s.name}:write`, `${s.name}:write (reads too)`)}
          </div>
        ))}
      </details>
    </fieldset>
  );
}
