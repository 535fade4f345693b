import { IsoTimestamp, Type } from '@platform/core';

/** A name: 1-100 characters, no space at either end; unique case-insensitively. */
export const Name = (title: string) =>
  Type.String({
    minLength: 1,
    maxLength: 100,
    pattern: '^\\S(.*\\S)?$',
    title,
    description: 'Unique, case-insensitively; no space at either end',
  });

export const Description = Type.String({ maxLength: 2000 });

export const IdOrName = Type.Object({ idOrName: Type.String() });

export const ServiceRef = Type.Object({ id: Type.String(), name: Type.String() });

export const Stamps = { createdAt: IsoTimestamp, updatedAt: IsoTimestamp };

export const stamps = (row: { created_at: Date; updated_at: Date }) => ({
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});
