import { Nullable, PagedQuery, StampsAt, stampsAt, Type, type Static } from '@platform/core';
import type { TemplateRow } from '../repositories/templates.js';
import { NamespaceFilter, NamespaceShown } from './metadata.js';
import { OwnershipShown, shownOwnership } from './ownership.js';

/** A Backstage (scaffolder) Template, as imported: listed, with its descriptor kept whole. */
const TemplateFields = {
  id: Type.String(),
  namespace: NamespaceShown,
  name: Type.String(),
  title: Nullable(Type.String()),
  description: Nullable(Type.String()),
  type: Nullable(Type.String({ description: 'What it makes: service, website ...' })),
  owner: Nullable(Type.String({ description: 'Its owner (namespace/name outside default)' })),
  tags: Type.Array(Type.String()),
  ...OwnershipShown,
  ...StampsAt,
};

export const TemplateSummarySchema = Type.Object(TemplateFields);
export type TemplateSummary = Static<typeof TemplateSummarySchema>;

export const TemplateSchema = Type.Object({
  ...TemplateFields,
  descriptor: Type.Object(
    {},
    {
      additionalProperties: true,
      description: 'The descriptor as imported (apiVersion, kind, metadata, spec)',
    },
  ),
});

export const TemplateListQuery = PagedQuery({
  owner: Type.Optional(Type.String({ description: 'Only templates of this owner (name)' })),
  type: Type.Optional(Type.String({ description: 'Only templates of this type (any case)' })),
  namespace: NamespaceFilter,
});

/** The template as listed (without its descriptor). */
export const toTemplateSummary = (row: TemplateRow): TemplateSummary => ({
  id: row.id,
  namespace: row.namespace,
  name: row.name,
  title: row.title,
  description: row.description,
  type: row.type,
  owner: row.owner,
  tags: row.tags,
  ...shownOwnership(row),
  ...stampsAt(row.created_at, row.updated_at),
});
