import {
  api,
  formatDate,
  PageHeader,
  QueryList,
  useListParams,
  useQueryClient,
} from '@platform/ui';
import { useEffect } from 'react';

/**
 * The in-app inbox: the signed-in person's messages (an inbox channel's), newest first, kept live
 * by the inbox stream; with authentication off (or for admins), anyone's by `recipient`.
 */
export function InboxPage() {
  const queryClient = useQueryClient();
  const recipient = useListParams().get('recipient');
  useEffect(() => {
    const qs = recipient ? `?recipient=${encodeURIComponent(recipient)}` : '';
    const source = new EventSource(`/api/v1/communication/inbox/stream${qs}`);
    const changed = () => void queryClient.invalidateQueries({ queryKey: ['inbox'] });
    source.addEventListener('message', changed);
    source.addEventListener('count', changed);
    return () => source.close();
  }, [queryClient, recipient]);
  const mark = async (id: string, body: { read?: boolean; archived?: boolean }) => {
    await api.communication.updateInboxMessage({ path: { id }, body });
    await queryClient.invalidateQueries({ queryKey: ['inbox'] });
  };
  return (
    <>
      <PageHeader title="Inbox">
        Messages sent to you through an inbox channel, newest first; they arrive here live.
      </PageHeader>
      <QueryList
        queryKey={['inbox']}
        list={(q) => api.communication.listInbox({ query: q })}
        filters={[
          { name: 'recipient', label: 'Recipient' },
          { name: 'status', label: 'Status', options: ['unread', 'read', 'archived'] },
        ]}
        rowKey={(m) => m.id}
        empty="No messages."
        columns={[
          {
            header: 'Message',
            cell: (m) => (m.read ? (m.subject ?? m.text) : <strong>{m.subject ?? m.text}</strong>),
          },
          { header: 'Text', cell: (m) => m.text.slice(0, 200) },
          { header: 'Category', cell: (m) => m.category ?? '—' },
          { header: 'Received', cell: (m) => formatDate(m.createdAt) },
          {
            header: 'Actions',
            cell: (m) => (
              <>
                <button
                  type="button"
                  className="ui-button"
                  onClick={() => void mark(m.id, { read: !m.read })}
                >
                  {m.read ? 'Mark unread' : 'Mark read'}
                </button>{' '}
                {!m.archived && (
                  <button
                    type="button"
                    className="ui-button"
                    onClick={() => void mark(m.id, { archived: true })}
                  >
                    Archive
                  </button>
                )}
              </>
            ),
          },
        ]}
      />
    </>
  );
}
