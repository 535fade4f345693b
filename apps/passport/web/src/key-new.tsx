import {
  api,
  Card,
  Form,
  Link,
  Notice,
  PageHeader,
  TeamField,
  TextField,
  useMutation,
  useQueryClient,
} from '@platform/ui';
import { useState } from 'react';
import { ScopesField, useScopeChoice } from './scopes';

/** The new key, shown this once, with a button that copies it. */
function ShownOnce({ id, name, secret }: { id: string; name: string; secret: string }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <Card title={`Key ${name}`}>
      <Notice>Copy the key now: it is shown this once and never again.</Notice>
      <div className="ui-field">
        <label htmlFor="new-key">Your new key</label>
        <input id="new-key" readOnly value={secret} onFocus={(e) => e.target.select()} />
      </div>
      <div className="ui-actions">
        <button type="button" className="ui-button ui-button-primary" onClick={copy}>
          {copied ? 'Copied' : 'Copy key'}
        </button>
        <Link className="ui-button" to={`/keys/${id}`}>
          Done
        </Link>
      </div>
      {copied === false && (
        <p className="ui-muted" role="status">
          The browser refused the clipboard: select the key and copy it.
        </p>
      )}
    </Card>
  );
}

/**
 * Makes a key: a name (unique among live keys), its scopes (everything the role allows unless
 * chosen; a viewer's, every read), an optional team (a team key) and expiry.
 */
export function NewKeyPage() {
  const queryClient = useQueryClient();
  const { readOnly } = useScopeChoice();
  const [name, setName] = useState('');
  const [expiresAt, setExpiresAt] = useState('');
  const [chosen, setScopes] = useState<string[] | null>(null);
  const scopes = chosen ?? [readOnly ? '*:read' : '*'];
  const [team, setTeam] = useState('');
  const create = useMutation({
    mutationFn: () =>
      api.passport.createKey({
        body: {
          name,
          scopes,
          ...(team ? { team } : {}),
          ...(expiresAt ? { expiresAt: new Date(expiresAt).toISOString() } : {}),
        },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['keys'] }),
  });
  return (
    <>
      <PageHeader title="New key">
        <Link to="/keys">All API keys</Link>
      </PageHeader>
      {create.data ? (
        <ShownOnce id={create.data.id} name={create.data.name} secret={create.data.key} />
      ) : (
        <Form
          onSubmit={() => create.mutate()}
          error={create.error}
          pending={create.isPending}
          submitLabel="Create"
          onCancel={() => history.back()}
        >
          <TextField label="Name" name="name" required value={name} onChange={setName} />
          <ScopesField value={scopes} onChange={setScopes} />
          <TeamField
            value={team}
            onChange={setTeam}
            hint="Optional: a team key (a service account) acts for the team and outlives you"
          />
          <TextField
            label="Expires"
            name="expiresAt"
            type="datetime-local"
            hint="Optional; in the future"
            value={expiresAt}
            onChange={setExpiresAt}
          />
        </Form>
      )}
    </>
  );
}
