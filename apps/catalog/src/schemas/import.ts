import { Nullable, Type, type Static } from '@platform/core';

/**
 * A Backstage descriptor (one YAML document of a catalog-info.yaml, as JSON). `metadata` and
 * `spec` are Backstage's own and open: the fields the catalog maps are checked by the import
 * itself, the others are listed in the answer's `ignored`, never dropped without a word.
 */
export const EntitySchema = Type.Object({
  apiVersion: Type.String({ minLength: 1, description: 'backstage.io/v1alpha1, as Backstage' }),
  kind: Type.String({
    minLength: 1,
    description:
      'Component, Resource, System, Domain, Group, User, API, Template; Locations are reported; others are skipped',
  }),
  metadata: Type.Object(
    { name: Type.String({ minLength: 1 }) },
    { additionalProperties: true, description: "Backstage's metadata (name required)" },
  ),
  spec: Type.Optional(
    Type.Object({}, { additionalProperties: true, description: "Backstage's spec of the kind" }),
  ),
  relations: Type.Optional(
    Type.Array(Type.Unknown(), {
      description: 'Relations written in a descriptor: computed by the catalog, reported ignored',
    }),
  ),
  source: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 2000,
      description:
        'The file (path relative to the import, or URL) the document comes from: Locations are followed to it',
    }),
  ),
});
export type Entity = Static<typeof EntitySchema>;

export const ImportInputSchema = Type.Object({
  entities: Type.Array(EntitySchema, { maxItems: 10000, description: 'The descriptors to import' }),
  dryRun: Type.Optional(
    Type.Boolean({ default: false, description: 'Report what would change, write nothing' }),
  ),
});

export const IMPORT_ACTIONS = ['created', 'updated', 'unchanged'] as const;
export const IMPORT_TARGETS = ['service', 'api', 'system', 'owner', 'domain', 'template'] as const;

export const ImportResultSchema = Type.Object({
  dryRun: Type.Boolean(),
  created: Type.Integer(),
  updated: Type.Integer(),
  unchanged: Type.Integer(),
  entities: Type.Array(
    Type.Object({
      kind: Type.String({ description: 'The Backstage kind' }),
      namespace: Type.String(),
      name: Type.String(),
      target: Type.Enum(IMPORT_TARGETS, { description: 'What it became in the catalog' }),
      id: Nullable(
        Type.String({
          description: 'Id of the catalog record; null when a dry run would create it',
        }),
      ),
      action: Type.Enum(IMPORT_ACTIONS),
      changes: Type.Array(Type.String(), { description: 'Fields an update changes' }),
    }),
  ),
  skipped: Type.Array(
    Type.Object({ kind: Type.String(), name: Type.String(), reason: Type.String() }),
    { description: 'Entities of kinds the catalog does not hold (Location, Domain ...)' },
  ),
  ignored: Type.Array(Type.String(), {
    description: 'Descriptor fields the catalog has no place for: `Component cart: spec.x`',
  }),
  locations: Type.Array(
    Type.Object({
      namespace: Type.String(),
      name: Type.String(),
      source: Nullable(Type.String()),
      targets: Type.Array(
        Type.Object({
          target: Type.String(),
          type: Type.String(),
          followed: Type.Boolean({ description: 'A document of this import' }),
          reason: Nullable(Type.String({ description: 'Why it was not followed' })),
        }),
      ),
    }),
    { description: 'Locations, not stored: each target followed or not (never fetched)' },
  ),
});
export type ImportResult = Static<typeof ImportResultSchema>;
