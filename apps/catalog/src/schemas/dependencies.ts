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

export const GraphQuery = Type.Object({
  direction: Type.Enum(DIRECTIONS, { default: 'down' }),
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
  { from: Type.String(), to: Type.String() },
  { description: 'from depends on to (ids)' },
);

export const GraphSchema = Type.Object({
  root: RefSchema,
  direction: Type.Enum(DIRECTIONS),
  depth: Nullable(Type.Integer({ description: 'The depth limit asked for; null for none' })),
  nodes: Type.Array(GraphNodeSchema),
  edges: Type.Array(GraphEdgeSchema),
});
