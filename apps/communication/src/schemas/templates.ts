import {
  IdOrNameParams,
  Name,
  PagedQuery,
  StampsAt,
  stampsAt,
  Type,
  UpdateOf,
  type Static,
} from '@platform/core';
import type { TemplateContent, TemplateRow } from '../database.js';
import { AppId } from './registrations.js';

/** The most characters of one form (the html): the renderer parses no longer source. */
export const SOURCE_LIMIT = 500_000;

const Source = (what: string, max: number) =>
  Type.String({
    minLength: 1,
    maxLength: max,
    description: `${what}: Liquid, {{ name }} placeholders`,
  });

export const LocaleFormSchema = Type.Object({
  subject: Type.Optional(Source('The subject (mails; bold first line on Slack)', 2000)),
  text: Source('The text body (every channel)', 100_000),
  html: Type.Optional(Source('The HTML body of mails; output is HTML-escaped', SOURCE_LIMIT)),
  slack: Type.Optional(
    Type.Object({
      text: Type.Optional(Source('The Slack text (mrkdwn)', 40_000)),
      blocks: Type.Optional(
        Type.Array(Type.Unknown(), {
          maxItems: 50,
          description: 'Block Kit blocks; every string in them is a template',
        }),
      ),
    }),
  ),
});

const Locales = Type.Record(
  Type.String({ pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$' }),
  LocaleFormSchema,
  {
    description: 'By locale (en, de, pt-BR): the forms of the message',
    minProperties: 1,
  },
);

export const Category = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[a-z0-9][a-z0-9._-]*$',
  description:
    'The kind of message people opt in or out of (lower case). COMMUNICATION_REQUIRED_CATEGORIES (security) cannot be turned off',
});

export const TemplateInputSchema = Type.Object({
  name: Name('Template name', 'Unique in the app, case-insensitively'),
  category: Category,
  schema: Type.Record(Type.String(), Type.Unknown(), {
    description: 'A JSON Schema of the data a send gives; a send whose data fails it is a 400',
  }),
  fallbackLocale: Type.String({
    minLength: 2,
    maxLength: 35,
    description: 'The locale used when the one asked for is missing',
  }),
  locales: Locales,
  sampleData: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), {
      description: 'The data the preview renders by default',
    }),
  ),
  digest: Type.Optional(
    Type.Object(
      {
        windowSeconds: Type.Integer({ minimum: 1, maximum: 7 * 86400 }),
        locales: Locales,
      },
      {
        description:
          "Collects this template's sends per recipient over the window, then sends one message through these forms with `{ items: [data...], count }`",
      },
    ),
  ),
});
export type TemplateInput = Static<typeof TemplateInputSchema>;
export const TemplateUpdateSchema = UpdateOf(TemplateInputSchema);

export const TemplateSchema = Type.Object({
  id: Type.String({ description: 'tpl_ and 8 random characters' }),
  appId: Type.String(),
  version: Type.Integer({ description: 'Starts at 1; each update makes the next' }),
  ...TemplateInputSchema.properties,
  ...StampsAt,
});

export const TemplateParams = Type.Object({ appId: AppId, ...IdOrNameParams.properties });
export const TemplateGetQuery = Type.Object({
  version: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'An earlier version' }),
  ),
});
export const TemplateListQuery = PagedQuery({
  category: Type.Optional(Category),
});

export const PreviewSchema = Type.Object({
  data: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), {
      description: "Default: the template's sampleData",
    }),
  ),
  locale: Type.Optional(Type.String({ minLength: 2, maxLength: 35 })),
  digest: Type.Optional(
    Type.Boolean({ description: 'Render the digest form (data: { items, count })' }),
  ),
});

export const RenderedSchema = Type.Object({
  locale: Type.String({
    description: 'The locale rendered (the fallback when the one asked is missing)',
  }),
  version: Type.Integer(),
  subject: Type.Union([Type.String(), Type.Null()]),
  text: Type.String(),
  html: Type.Union([Type.String(), Type.Null()]),
  slack: Type.Union([
    Type.Object({ text: Type.String(), blocks: Type.Optional(Type.Array(Type.Unknown())) }),
    Type.Null(),
  ]),
});

export const contentOf = (input: TemplateInput): TemplateContent => ({
  schema: input.schema,
  fallbackLocale: input.fallbackLocale,
  locales: input.locales,
  ...(input.sampleData ? { sampleData: input.sampleData } : {}),
  ...(input.digest ? { digest: input.digest } : {}),
});

export const toTemplate = (row: TemplateRow) => ({
  id: row.id,
  appId: row.app_id,
  version: row.version,
  name: row.name,
  category: row.category,
  ...row.content,
  ...stampsAt(row.created_at, row.updated_at),
});
