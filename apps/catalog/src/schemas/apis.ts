import {
  Nullable,
  PagedQuery,
  StampsAt,
  stampsAt,
  TagsSchema,
  Type,
  UpdateOf,
  type Static,
} from '@platform/core';
import type { ApiType } from '../database.js';
import {
  Description,
  Token,
  NamespaceFilter,
  NamespaceInput,
  NamespaceShown,
  RecordName,
} from './metadata.js';
import { OwnershipShown, TeamInput } from './ownership.js';

/** Backstage's well-known API types, and `other` for the rest. */
export const API_TYPES = [
  'openapi',
  'asyncapi',
  'graphql',
  'grpc',
  'trpc',
  'other',
] as const satisfies readonly ApiType[];

/** The largest definition, in characters; the create and update routes take bodies up to 5 MiB. */
export const MAX_DEFINITION = 2 * 1024 * 1024;
export const API_BODY_LIMIT = 5 * 1024 * 1024;

export const ApiInputSchema = Type.Object({
  name: RecordName(
    'API name',
    'Unique among APIs of its namespace, case-insensitively (a service may share it)',
  ),
  namespace: NamespaceInput,
  type: Type.Enum(API_TYPES, { title: 'type', description: API_TYPES.join(', ') }),
  description: Type.Optional(Nullable(Description)),
  definition: Type.Optional(
    Nullable(
      Type.String({
        maxLength: MAX_DEFINITION,
        description:
          'The definition as text (an OpenAPI or AsyncAPI document, a GraphQL schema ...)',
      }),
    ),
  ),
  lifecycle: Type.Optional(Nullable(Token('Stage: experimental, production, deprecated ...'))),
  owner: Type.Optional(Nullable(Type.String({ description: 'Name (or id) of an existing owner' }))),
  system: Type.Optional(
    Nullable(Type.String({ description: 'Name (or id) of an existing system' })),
  ),
  tags: Type.Optional(TagsSchema),
  team: TeamInput,
});
export type ApiInput = Static<typeof ApiInputSchema>;

export const ApiUpdateSchema = UpdateOf(ApiInputSchema);

const ApiFields = {
  id: Type.String(),
  namespace: NamespaceShown,
  name: Type.String(),
  type: Type.Enum(API_TYPES),
  description: Nullable(Type.String()),
  lifecycle: Nullable(Type.String()),
  owner: Nullable(Type.String({ description: 'Name of its owner' })),
  system: Nullable(Type.String({ description: 'Name of its system' })),
  tags: Type.Array(Type.String()),
  providedBy: Type.Array(Type.String(), { description: 'Ids of the services providing it' }),
  consumedBy: Type.Array(Type.String(), { description: 'Ids of the services consuming it' }),
  ...OwnershipShown,
  ...StampsAt,
};

/** An API in a list: without its definition, which can be large. */
export const ApiSummarySchema = Type.Object(ApiFields);
export type ApiSummary = Static<typeof ApiSummarySchema>;

export const ApiSchema = Type.Object({ ...ApiFields, definition: Nullable(Type.String()) });
export type Api = Static<typeof ApiSchema>;

/** An API as shown (with its definition or not), the stamps as ISO text. */
export const toApi = <
  Row extends { created_at: Date; updated_at: Date; created_by: string | null },
>({
  created_at,
  updated_at,
  created_by,
  ...row
}: Row) => ({ ...row, createdBy: created_by, ...stampsAt(created_at, updated_at) });

export const ApiListQuery = PagedQuery({
  type: Type.Optional(Type.Enum(API_TYPES, { description: 'Only APIs of this type' })),
  lifecycle: Type.Optional(Type.String({ description: 'Only APIs at this lifecycle (any case)' })),
  owner: Type.Optional(Type.String({ description: 'Only APIs of this owner (name)' })),
  system: Type.Optional(Type.String({ description: 'Only APIs of this system (name)' })),
  tag: Type.Optional(Type.String({ description: 'Only APIs with this tag' })),
  namespace: NamespaceFilter,
});
