import { badRequest, Type } from '@platform/core';

/** Free text describing a service, a system or an API. */
export const Description = Type.String({ maxLength: 2000 });

/** A short word-like value (a service's type or lifecycle): 1-100 characters, no space at either end. */
export const Token = (description: string) =>
  Type.String({ minLength: 1, maxLength: 100, pattern: '^\\S(.*\\S)?$', description });

/**
 * A link to external information, as Backstage's `metadata.links`: an absolute http(s) or mailto
 * URL (no `javascript:` or `data:` URL that a page would run), with an optional title, icon and type.
 */
export const LinkSchema = Type.Object({
  url: Type.String({
    format: 'uri',
    maxLength: 2048,
    description: 'An absolute http, https or mailto URL',
  }),
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  icon: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  type: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
});

export const LinksSchema = Type.Array(LinkSchema, {
  maxItems: 50,
  description: 'Up to 50 links, in their order',
});

export const ANNOTATION_KEY_FORMAT =
  'an optional DNS prefix and a slash, then a name of 1-63 letters, digits and -_. (example.com/some-name)';

export const AnnotationsSchema = Type.Record(Type.String(), Type.String({ maxLength: 5000 }), {
  maxProperties: 100,
  description: `Up to 100 string values by key; a key is ${ANNOTATION_KEY_FORMAT}`,
});

// Backstage (after Kubernetes): prefix a DNS subdomain of labels [a-z0-9] joined by -, at most
// 253 characters; name [A-Za-z0-9] runs joined by one of -_., at most 63 characters.
const DNS_LABEL = /^[a-z0-9]+(-+[a-z0-9]+)*$/;
const NAME = /^[A-Za-z0-9]+([-_.][A-Za-z0-9]+)*$/;

export function isAnnotationKey(key: string): boolean {
  const parts = key.split('/');
  if (parts.length > 2) return false;
  const name = parts[parts.length - 1];
  if (name.length < 1 || name.length > 63 || !NAME.test(name)) return false;
  if (parts.length === 1) return true;
  const prefix = parts[0];
  return (
    prefix.length >= 1 &&
    prefix.length <= 253 &&
    prefix.split('.').every((label) => label.length <= 63 && DNS_LABEL.test(label))
  );
}

const LINK_SCHEMES = /^(https?:\/\/|mailto:)/i;

/** The links as given; BAD_REQUEST naming the first whose URL is not http, https or mailto. */
export function checkLinks<T extends Array<{ url: string }> | null | undefined>(links: T): T {
  links?.forEach(({ url }, i) => {
    if (!LINK_SCHEMES.test(url))
      throw badRequest(`links[${i}].url must be an http, https or mailto URL`);
  });
  return links;
}

/** The annotations as given; BAD_REQUEST naming the first key of the wrong format. */
export function checkAnnotations<T extends Record<string, string> | null | undefined>(map: T): T {
  for (const key of Object.keys(map ?? {}))
    if (!isAnnotationKey(key))
      throw badRequest(
        `annotations key ${JSON.stringify(key)} is invalid: expected ${ANNOTATION_KEY_FORMAT}`,
      );
  return map;
}

/**
 * A record's name (Name of libs/core, without a slash): `/` separates a namespace from a name in
 * references and in team names (`namespace/name`), so a name holding one could pass for a record of
 * another namespace. Records named with one before keep working by id.
 */
export const RecordName = (title: string, description?: string) =>
  Type.String({
    minLength: 1,
    maxLength: 100,
    pattern: '^[^\\s/]([^/]*[^\\s/])?$',
    title,
    description:
      description ??
      'Unique in its namespace, case-insensitively; no space at either end; no slash (`/` separates a namespace)',
  });

/** Backstage's namespace format (a DNS label, here in any case): `default` when not given. */
export const NamespaceInput = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 63,
    pattern: '^[A-Za-z0-9]+(-+[A-Za-z0-9]+)*$',
    description: 'Backstage namespace: letters, digits and dashes (default `default`)',
  }),
);

/** The namespace a record is in, as shown. */
export const NamespaceShown = Type.String({
  description: 'Backstage namespace (`default` unless given)',
});

/** The list filter by namespace. */
export const NamespaceFilter = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 63,
    description: 'Only records in this namespace (any case)',
  }),
);
