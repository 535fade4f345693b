import { Nullable, Type } from '@platform/core';
import type { Selectable } from '@platform/db';
import type { BackendLogsTable } from '../database/backends.js';
import { LOG_LEVELS } from '../domain/backends/protocol.js';
import { AppParams } from './apps.js';
import { EpochMs } from './sessions.js';

export const LogParams = AppParams;

const LEVEL = `(${LOG_LEVELS.join('|')})`;

const Filters = {
  level: Type.Optional(
    Type.String({
      pattern: `^${LEVEL}(,${LEVEL})*$`,
      description: `Only lines of these levels, comma-separated (${LOG_LEVELS.join(', ')})`,
    }),
  ),
  since: Type.Optional(EpochMs('Only lines logged at or after this time')),
  requestId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'Only lines of this request (its x-request-id) or scheduled run (its id)',
    }),
  ),
};

export const LogListQuery = Type.Object({
  ...Filters,
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'Page size (1-1000)' }), // prettier-ignore
  cursor: Type.Optional(
    Type.Integer({
      minimum: 1,
      description: 'The id of the last line of the previous page: the lines older than it',
    }),
  ),
});

export const LogStreamQuery = Type.Object({
  ...Filters,
  after: Type.Optional(
    Type.Integer({
      minimum: 0,
      description:
        'Send the lines after this id first (default: only new ones); the Last-Event-ID header says the same',
    }),
  ),
});

export const LogLineSchema = Type.Object({
  id: Type.Integer({ description: 'Increasing: the cursor of the next page, an SSE event id' }),
  time: EpochMs('When it was logged'),
  level: Type.Union([
    Type.Literal('debug'),
    Type.Literal('info'),
    Type.Literal('log'),
    Type.Literal('warn'),
    Type.Literal('error'),
  ]),
  message: Type.String({ description: "The line (secret values of the app's are [secret NAME])" }),
  requestId: Nullable(Type.String(), {
    description:
      'The request (x-request-id) or scheduled run (its id) it belongs to; null when it was logged while several requests of the app ran at once',
  }),
  source: Type.Union([Type.Literal('request'), Type.Literal('schedule')]),
  schedule: Nullable(Type.String(), { description: 'The schedule, for a line of a scheduled run' }), // prettier-ignore
});

export const toLine = (row: Selectable<BackendLogsTable>) => ({
  id: Number(row.id),
  time: row.logged_at.getTime(),
  level: row.level,
  message: row.message,
  requestId: row.request_id,
  source: row.source,
  schedule: row.schedule,
});
