import { Name, Nullable, RefSchema, StampsAt, Type, type TSchema, UpdateOf } from '@platform/core';

/** Free text describing a service or a system. */
export const Description = Type.String({ maxLength: 2000 });

type Properties = Record<string, TSchema>;

/**
 * The schemas of a group (systems, owners): a named record with optional fields of its own,
 * `fields` as received (null clears one) and `shown` as answered.
 */
function groupSchemas(noun: string, fields: Properties, shown: Properties) {
  const Record = Type.Object({ id: Type.String(), name: Type.String(), ...shown, ...StampsAt });
  const Input = Type.Object({ name: Name(`${noun} name`), ...fields });
  const services = Type.Array(RefSchema, { description: `Services of this ${noun}` });
  return {
    Record,
    WithServices: Type.Object({ ...Record.properties, services }),
    Input,
    Update: UpdateOf(Input),
  };
}
export type GroupSchemas = ReturnType<typeof groupSchemas>;

export const SystemSchemas = groupSchemas(
  'system',
  { description: Type.Optional(Nullable(Description)) },
  { description: Nullable(Type.String()) },
);

export const OwnerSchemas = groupSchemas(
  'owner',
  {
    email: Type.Optional(
      Nullable(Type.String({ format: 'email', maxLength: 254, description: 'Contact address' })),
    ),
    team: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
  },
  { email: Nullable(Type.String()), team: Nullable(Type.String()) },
);
