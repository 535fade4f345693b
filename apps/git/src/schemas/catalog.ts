import { Nullable, Type, type Static } from '@platform/core';
import type { RepositoryRow } from '../database.js';

export const CatalogInputSchema = Type.Object({
  path: Nullable(
    Type.String({
      minLength: 1,
      maxLength: 500,
      pattern: '^(?!/)(?!.*(^|/)\\.\\.?(/|$))[^\\\\:*?"<>|\\x00-\\x1f]+\\.ya?ml$',
      description: 'A .yaml or .yml file of the repository (no leading /, no . or .. segments)',
    }),
    { description: 'The catalog file on the default branch; null: catalog-info.yaml' },
  ),
});

export const CatalogStateSchema = Type.Object({
  path: Type.String({ description: 'The file read on the default branch' }),
  branch: Type.String(),
  error: Nullable(Type.String(), {
    description: 'Why the file was last refused (nothing of it was applied); null when it was fine',
  }),
  checkedAt: Nullable(Type.String({ description: 'When it was last read' })),
  entities: Type.Array(Type.Object({ target: Type.String(), name: Type.String() }), {
    description: 'The catalog records the file made (services, APIs, systems, owners)',
  }),
});

export const toCatalogState = (
  row: RepositoryRow,
  defaultPath: string,
): Static<typeof CatalogStateSchema> => ({
  path: row.catalog_path ?? defaultPath,
  branch: row.default_branch,
  error: row.catalog_error,
  checkedAt: row.catalog_checked_at?.toISOString() ?? null,
  entities: (
    (Array.isArray(row.catalog_entities) ? row.catalog_entities : []) as Array<{
      target: string;
      name: string;
    }>
  ).map(({ target, name }) => ({ target, name })),
});
