import { IdOrNameParams, Nullable, RefSchema, Type } from '@platform/core';

export const DependenciesSchema = Type.Array(Type.String(), {
  description: 'Ids of the services it depends on, in the order they were added',
});

export const DependencyInputSchema = Type.Object({
  dependsOn: Type.String({
    minLength: 1,
    title: 'dependsOn',
    description: 'Id or name of another service',
  }),
});

export const DependencyParams = Type.Object({
  ...IdOrNameParams.properties,
  dependsOn: Type.String({ description: 'Id or name of the service it depends on' }),
});

/** down: what a service depends on; up: what depends on it. */
export const DIRECTIONS = ['down', 'up'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/** What else the walk follows besides direct dependencies. */
export const INCLUDES = ['apis'] as const;

export const GraphQuery = Type.Object({
  direction: Type.Enum(DIRECTIONS, { default: 'down' }),
  include: Type.Optional(
    Type.Enum(INCLUDES, {
      description:
        'apis: a service consuming an API also depends on every service providing it (edges say through which APIs)',
    }),
  ),
  depth: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 10000,
      description: 'Steps to follow; unlimited when absent',
    }),
  ),
});

export const GraphNodeSchema = Type.Object({
  ...RefSchema.properties,
  depth: Type.Integer({ description: 'Shortest number of steps from the root (0 for the root)' }),
});

export const GraphEdgeSchema = Type.Object(
  {
    from: Type.String(),
    to: Type.String(),
    direct: Type.Optional(
      Type.Boolean({ description: 'With include=apis: from depends on to directly too' }),
    ),
    apis: Type.Optional(
      Type.Array(Type.String(), {
        description: 'With include=apis: ids of the APIs from consumes and to provides',
      }),
    ),
  },
  { description: 'from depends on to (ids)' },
);

export const GraphSchema = Type.Object({
  root: RefSchema,
  direction: Type.Enum(DIRECTIONS),
  depth: Nullable(Type.Integer({ description: 'The depth limit asked for; null for none' })),
  nodes: Type.Array(GraphNodeSchema),
  edges: Type.Array(GraphEdgeSchema),
  include: Type.Optional(Type.Enum(INCLUDES)),
  apis: Type.Optional(
    Type.Array(RefSchema, { description: 'With include=apis: the APIs the edges go through' }),
  ),
});
