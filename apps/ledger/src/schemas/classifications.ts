import { Nullable, PagedQuery, StampsAt, stampsAt, Type, type Static } from '@platform/core';
import type { ClassificationRow } from '../database.js';

/** From least to most sensitive. */
export const LEVELS = ['public', 'internal', 'confidential', 'pii', 'restricted'] as const;
export type Level = (typeof LEVELS)[number];

/** Dotted path of a field: segments of letters, digits, `_`, `-` or `$`, or `*` for any key. */
const FIELD_PATTERN = '^([A-Za-z0-9_$-]+|\\*)(\\.([A-Za-z0-9_$-]+|\\*))*$';

export const ServiceName = (description: string) =>
  Type.String({ minLength: 1, maxLength: 100, description });

export const ClassificationInputSchema = Type.Object({
  serviceId: Type.Optional(ServiceName('The service the field belongs to (or send service)')),
  service: Type.Optional(ServiceName('Same as serviceId')),
  field: Type.String({
    pattern: FIELD_PATTERN,
    maxLength: 300,
    title: 'field',
    description: 'Dotted path of the field, e.g. user.email or items.*.price',
  }),
  level: Type.Enum([...LEVELS], { title: 'level', description: LEVELS.join(' < ') }),
  justification: Type.String({
    minLength: 1,
    maxLength: 2000,
    title: 'justification',
    description: 'Why the field has this level',
  }),
  ppiCategory: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Kind of personal data, e.g. email, name, financial',
    }),
  ),
});

export const ClassificationSchema = Type.Object({
  id: Type.String(),
  serviceId: Type.String(),
  service: Type.String({ description: 'Same as serviceId' }),
  field: Type.String(),
  level: Type.Enum([...LEVELS]),
  justification: Type.String(),
  ppiCategory: Nullable(Type.String()),
  ...StampsAt,
});
export type Classification = Static<typeof ClassificationSchema>;

export const toClassification = (row: ClassificationRow): Classification => ({
  id: row.id,
  serviceId: row.service_id,
  service: row.service_id,
  field: row.field,
  level: row.level as Level,
  justification: row.justification,
  ppiCategory: row.ppi_category,
  ...stampsAt(row.created_at, row.updated_at),
});

export const ClassificationListQuery = PagedQuery({
  service: Type.Optional(Type.String({ description: 'Only fields of this service (its id)' })),
  serviceId: Type.Optional(Type.String({ description: 'Same as service' })),
  level: Type.Optional(Type.Enum([...LEVELS])),
});

export const ClassificationParams = Type.Object({
  id: Type.String({ description: 'Classification id' }),
});
