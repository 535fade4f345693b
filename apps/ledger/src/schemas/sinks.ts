import { IsoTimestamp, Name, Nullable, PagedQuery, Type, type Static } from '@platform/core';
import type { SinkRow } from '../database.js';

const Kind = Type.Union([Type.Literal('webhook'), Type.Literal('syslog')], {
  description:
    '`webhook`: signed HTTPS POSTs; `syslog`: RFC 5424 over TCP (octet counting), TLS optional',
});
const Format = Type.Union([Type.Literal('ndjson'), Type.Literal('ocsf')], {
  description: '`ndjson`: the events as the API answers them; `ocsf`: OCSF API Activity (6003)',
});
const Url = Type.String({
  format: 'uri',
  pattern: '^https?://',
  maxLength: 2000,
  description: 'webhook: where events are POSTed',
});
const Host = Type.String({ minLength: 1, maxLength: 253, pattern: '^[A-Za-z0-9.:\\[\\]-]+$' });
const Port = Type.Integer({ minimum: 1, maximum: 65535 });
const Secret = Type.String({
  minLength: 16,
  maxLength: 200,
  description: 'webhook: the HMAC key of X-Platform-Signature (write-only, stored encrypted)',
});

export const SinkInputSchema = Type.Object(
  {
    name: Name('sink name'),
    kind: Kind,
    url: Type.Optional(Url),
    host: Type.Optional(Host),
    port: Type.Optional(Port),
    tls: Type.Optional(
      Type.Boolean({ description: 'syslog: TLS (RFC 5425) instead of plain TCP' }),
    ),
    format: Type.Optional(Format),
    secret: Type.Optional(Secret),
    enabled: Type.Optional(Type.Boolean()),
    fromStart: Type.Optional(
      Type.Boolean({
        description: 'Deliver the whole trail (default: only events appended from now on)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type SinkInput = Static<typeof SinkInputSchema>;

export const SinkUpdateSchema = Type.Object(
  {
    name: Type.Optional(Name('sink name')),
    url: Type.Optional(Url),
    host: Type.Optional(Host),
    port: Type.Optional(Port),
    tls: Type.Optional(Type.Boolean()),
    format: Type.Optional(Format),
    secret: Type.Optional(Secret),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type SinkUpdate = Static<typeof SinkUpdateSchema>;

export const SinkSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  kind: Kind,
  url: Nullable(Type.String()),
  host: Nullable(Type.String()),
  port: Nullable(Type.Integer()),
  tls: Type.Boolean(),
  format: Format,
  hasSecret: Type.Boolean({ description: 'Whether a signing secret is set (never shown)' }),
  enabled: Type.Boolean(),
  cursor: Type.Integer({ description: 'The last event (chain seq) the receiver acknowledged' }),
  failures: Type.Integer({ description: 'Failed attempts since the last delivery' }),
  lastError: Nullable(Type.String()),
  deliveredAt: Nullable(IsoTimestamp),
  createdAt: IsoTimestamp,
  updatedAt: IsoTimestamp,
});

export const SinkListQuery = PagedQuery({
  kind: Type.Optional(Kind),
  enabled: Type.Optional(Type.Boolean({ description: 'Only enabled (or disabled) sinks' })),
});

export const toSink = (row: SinkRow): Static<typeof SinkSchema> => ({
  id: row.id,
  name: row.name,
  kind: row.kind,
  url: row.url,
  host: row.host,
  port: row.port,
  tls: row.tls,
  format: row.format,
  hasSecret: row.secret_encrypted !== null,
  enabled: row.enabled,
  cursor: Number(row.cursor),
  failures: row.failures,
  lastError: row.last_error,
  deliveredAt: row.delivered_at?.toISOString() ?? null,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

export const ExportQuery = Type.Object({
  from: Type.Optional(
    Type.String({ description: 'Events at or after: a date or an ISO 8601 timestamp' }),
  ),
  to: Type.Optional(Type.String({ description: 'Events at or before' })),
  format: Type.Optional(Format),
});
