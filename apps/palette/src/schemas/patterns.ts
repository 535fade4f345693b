import { Name, Nullable, Stamps, Type, UpdateOf, type Static } from '@platform/core';
import type { PatternWithComponents } from '../repositories/patterns.js';
import { CategoryInput, OwnershipShown, Refs, Tags, TeamInput, Text, toRecord } from './common.js';
import { ComponentRefSchema } from './components.js';

export const StepInputSchema = Type.Object({
  title: Type.String({ minLength: 1, maxLength: 200, title: 'step title' }),
  description: Type.Optional(Nullable(Text())),
  component: Type.Optional(
    Nullable(Type.String({ description: 'A component (id or name) the step uses' })),
  ),
});

export const PatternInputSchema = Type.Object({
  name: Name('pattern name'),
  category: Type.Optional(CategoryInput),
  description: Type.Optional(Nullable(Text())),
  components: Type.Optional(Refs(200, 'Component ids or names')),
  tags: Type.Optional(Tags),
  team: TeamInput,
});

export const PatternUpdateSchema = UpdateOf(PatternInputSchema);

const StepSchema = Type.Object({
  title: Type.String(),
  description: Nullable(Type.String()),
  component: Nullable(Type.String()),
});

export const PatternSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  category: Nullable(Type.String()),
  description: Nullable(Type.String()),
  components: Type.Array(Type.String(), { description: 'Ids of its components' }),
  steps: Type.Array(StepSchema, { description: 'In order' }),
  tags: Type.Array(Type.String()),
  ...OwnershipShown,
  ...Stamps,
});
export type Pattern = Static<typeof PatternSchema>;

/** The pattern as shown, with the ids of its components. */
export const toPattern = (row: PatternWithComponents): Pattern => toRecord(row);

export const PatternResolvedSchema = Type.Object({
  ...PatternSchema.properties,
  resolved: Type.Object({
    components: Type.Array(ComponentRefSchema, {
      description: 'Its components and those its steps use',
    }),
  }),
});
