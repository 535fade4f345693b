import { Nullable, PagedQuery, Type, type Static } from '@platform/core';
import type { ModeRow } from '../database.js';

/** Where a mode's values go in the CSS export: its selector and a media query that also applies. */
export interface ModeSetting {
  selector: string;
  media: string | null;
}

export const ImportQuery = Type.Object({
  dryRun: Type.Optional(Type.Boolean({ description: 'Report what would change, write nothing' })),
  missing: Type.Optional(
    Type.Enum(['keep', 'delete'], {
      description: 'What happens to tokens not in the file: kept (default) or deleted',
    }),
  ),
});

/**
 * The body: a DTCG 2025.10 token tree, a resolver (sets, modifiers, resolutionOrder) whose
 * sources are inline, or `{ resolver | document, documents, modes, dryRun, missing }` where
 * `documents` holds the files the resolver refers to by `$ref` (never fetched).
 */
export const ImportBodySchema = Type.Object(
  {},
  {
    additionalProperties: true,
    description:
      'A DTCG token tree, a resolver, or { resolver | document, documents: { "<$ref>": tree }, modes: { "<modifier>:<context>": { selector, media } }, dryRun, missing }',
  },
);

export interface ImportOptions {
  dryRun: boolean;
  missing: 'keep' | 'delete';
  modes: Map<string, ModeSetting>;
}

export const ImportResultSchema = Type.Object({
  dryRun: Type.Boolean(),
  created: Type.Integer(),
  updated: Type.Integer(),
  unchanged: Type.Integer(),
  deleted: Type.Integer(),
  tokens: Type.Array(
    Type.Object({
      path: Type.String({ description: 'DTCG path' }),
      action: Type.Enum(['created', 'updated', 'unchanged', 'deleted']),
      id: Nullable(Type.String({ description: 'null when a dry run would create it' })),
      category: Nullable(Type.String()),
    }),
  ),
  modes: Type.Array(Type.String(), { description: 'Modes of the file: <modifier>:<context>' }),
  ignored: Type.Array(Type.Object({ path: Type.String(), reason: Type.String() }), {
    description: 'What the file has that the palette does not keep, with its JSON path',
  }),
});
export type ImportResult = Static<typeof ImportResultSchema>;

export const ModeSchema = Type.Object({
  name: Type.String({ description: '<modifier>:<context>, e.g. theme:dark or brand:b' }),
  selector: Type.String(),
  media: Nullable(Type.String()),
});
export const ModeListQuery = PagedQuery({});
export const toMode = (row: ModeRow) => ({
  name: row.name,
  selector: row.selector,
  media: row.media,
});
