import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useMe } from './access';
import { api, errorMessage } from './api';

// The notification bell of the platform's bar (issue 41): the signed-in person's unread count
// and latest in-app messages (communication's inbox channel), kept live by the inbox's stream
// through the browser's own EventSource.

const LATEST = 5;
const KEY = ['communication.inbox', 'bell'] as const;

interface Message {
  id: string;
  subject: string | null;
  text: string;
  read: boolean;
  createdAt: string;
}

/** Reads the inbox again whenever its stream says something changed; the live unread count. */
function useLiveInbox() {
  const queryClient = useQueryClient();
  const [unread, setUnread] = useState<number | undefined>(undefined);
  useEffect(() => {
    const source = new EventSource('/api/v1/communication/inbox/stream');
    // The server's `open` and `count` events carry the count; EventSource's own `open` has no data.
    const count = (event: Event) => {
      const { data } = event as MessageEvent;
      if (typeof data === 'string') setUnread(JSON.parse(data).unread);
    };
    const changed = () => void queryClient.invalidateQueries({ queryKey: KEY });
    source.addEventListener('open', count);
    source.addEventListener('count', count);
    source.addEventListener('message', changed);
    return () => source.close();
  }, [queryClient]);
  return unread;
}

/** The bell: shown to a signed-in person only (anonymous callers have no inbox). */
export function InboxBell() {
  const me = useMe();
  const who = me.data as { kind: string } | undefined;
  if (who?.kind !== 'user') return null;
  return <Bell />;
}

function Bell() {
  const [open, setOpen] = useState(false);
  const panel = useId();
  const queryClient = useQueryClient();
  const live = useLiveInbox();
  const latest = useQuery({
    queryKey: [...KEY, 'latest'],
    queryFn: () => api.communication.listInbox({ query: { limit: LATEST } }),
  });
  const counted = useQuery({
    queryKey: [...KEY, 'count'],
    queryFn: () => api.communication.countInbox(),
  });
  const unread = live ?? counted.data?.unread ?? 0;
  const markRead = async (id: string) => {
    await api.communication.updateInboxMessage({ path: { id }, body: { read: true } });
    await queryClient.invalidateQueries({ queryKey: KEY });
  };
  const messages = (latest.data ?? []) as Message[];
  return (
    <div style={{ position: 'relative' }}>
      <button
        type="button"
        className="ui-button"
        aria-expanded={open}
        aria-controls={panel}
        aria-label={`Notifications, ${unread} unread`}
        onClick={() => setOpen(!open)}
      >
        <span aria-hidden="true">🔔</span>
        {unread > 0 && <span className="ui-badge ui-badge-accent">{unread}</span>}
      </button>
      {open && (
        <section
          id={panel}
          aria-label="Notifications"
          className="ui-card"
          style={{
            position: 'absolute',
            right: 0,
            top: '100%',
            zIndex: 20,
            width: '22rem',
            maxHeight: '28rem',
            overflow: 'auto',
            padding: 'var(--space-3)',
          }}
        >
          {latest.error ? (
            <p role="alert">{errorMessage(latest.error)}</p>
          ) : messages.length === 0 ? (
            <p className="ui-muted">No notifications.</p>
          ) : (
            <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
              {messages.map((m) => (
                <li key={m.id} style={{ padding: 'var(--space-2) 0' }}>
                  <strong style={{ fontWeight: m.read ? 'normal' : 'bold' }}>
                    {m.subject ?? m.text.slice(0, 80)}
                  </strong>
                  {m.subject && <div className="ui-muted">{m.text.slice(0, 200)}</div>}
                  {!m.read && (
                    <button
                      type="button"
                      className="ui-button"
                      aria-label={`Mark ${m.subject ?? 'message'} read`}
                      onClick={() => void markRead(m.id)}
                    >
                      Mark read
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
          <a href="/communication/inbox">All notifications</a>
        </section>
      )}
    </div>
  );
}
