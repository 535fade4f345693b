import { IsoTimestamp, Type } from '@platform/core';
import { Category } from './templates.js';

const Recipient = Type.String({
  minLength: 1,
  maxLength: 320,
  description: 'The person: an email (a signed-in person is their email) or another identity',
});
const Channel = Type.String({
  minLength: 1,
  maxLength: 100,
  description:
    'A channel name, or a provider (smtp, slack, webhook, inbox, log) for all of its channels',
});

export const PreferenceSchema = Type.Object({
  category: Category,
  channel: Channel,
  enabled: Type.Boolean(),
});

export const PreferenceRowSchema = Type.Object({
  ...PreferenceSchema.properties,
  updatedAt: IsoTimestamp,
});

export const PreferencesSchema = Type.Object({
  recipient: Type.String(),
  preferences: Type.Array(PreferenceRowSchema),
  required: Type.Array(Type.String(), {
    description: 'Categories nobody can opt out of (COMMUNICATION_REQUIRED_CATEGORIES)',
  }),
});

export const PreferencesQuery = Type.Object({
  recipient: Type.Optional(Recipient),
});

export const PreferencesInput = Type.Object({
  recipient: Type.Optional(Recipient),
  preferences: Type.Array(PreferenceSchema, { minItems: 1, maxItems: 200 }),
});

export const UnsubscribeQuery = Type.Object({
  token: Type.String({
    minLength: 1,
    maxLength: 4000,
    description: 'The signed token of the link',
  }),
});

export const UnsubscribeBody = Type.Object(
  { 'List-Unsubscribe': Type.Optional(Type.String()) },
  { description: 'RFC 8058: `List-Unsubscribe=One-Click`, form-encoded' },
);

export const UnsubscribedSchema = Type.Object({
  recipient: Type.String(),
  category: Type.String(),
  channel: Type.String(),
  enabled: Type.Boolean(),
});
