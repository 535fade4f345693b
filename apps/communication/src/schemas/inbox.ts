import { IsoTimestamp, Nullable, PagedQuery, Type } from '@platform/core';
import type { InboxRow } from '../database.js';

const Recipient = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 320,
    description: "Whose inbox: admins and authentication off only (default: the caller's)",
  }),
);

export const InboxMessageSchema = Type.Object({
  id: Type.String({ description: 'msg_ and 10 random characters' }),
  seq: Type.Integer({ description: 'Increases with each message (the stream ids)' }),
  recipient: Type.String(),
  appId: Type.String(),
  deliveryId: Type.String(),
  category: Nullable(Type.String()),
  subject: Nullable(Type.String()),
  text: Type.String(),
  html: Nullable(Type.String()),
  read: Type.Boolean(),
  archived: Type.Boolean(),
  readAt: Nullable(IsoTimestamp),
  archivedAt: Nullable(IsoTimestamp),
  createdAt: IsoTimestamp,
});

export const InboxListQuery = PagedQuery({
  recipient: Recipient,
  status: Type.Optional(
    Type.Enum(['all', 'unread', 'read', 'archived'], {
      description: 'all (default: every message not archived), unread, read, archived',
    }),
  ),
});

export const InboxRecipientQuery = Type.Object({ recipient: Recipient });

export const InboxCountSchema = Type.Object({ unread: Type.Integer() });

export const InboxParams = Type.Object({ id: Type.String({ minLength: 1 }) });

export const InboxPatchSchema = Type.Object({
  read: Type.Optional(Type.Boolean()),
  archived: Type.Optional(Type.Boolean()),
});

export const toInboxMessage = (row: InboxRow) => ({
  id: row.id,
  seq: Number(row.seq),
  recipient: row.recipient,
  appId: row.app_id,
  deliveryId: row.delivery_id,
  category: row.category,
  subject: row.subject,
  text: row.text,
  html: row.html,
  read: row.read_at !== null,
  archived: row.archived_at !== null,
  readAt: row.read_at?.toISOString() ?? null,
  archivedAt: row.archived_at?.toISOString() ?? null,
  createdAt: row.created_at.toISOString(),
});
