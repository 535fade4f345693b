import type { SwaggerTransform } from '@fastify/swagger';
import { Type, type TObject } from 'typebox';

export const openApiInfo = (title: string, version: string) => ({
  openapi: { openapi: '3.0.3', info: { title, version } },
  transform: namedWildcards,
});

/**
 * A route ending in a wildcard (`/files/*`: a path with its slashes) is documented with a named
 * parameter, `{path}`, rather than `{*}`, which clients cannot name: the same URL either way.
 */
export const namedWildcards: SwaggerTransform = ({ schema, url }) => {
  const params = schema?.params as TObject | undefined;
  const wildcard = params?.properties?.['*'];
  if (!url.endsWith('/*') || !params || !wildcard) return { schema, url };
  const { '*': _, ...others } = params.properties;
  return {
    url: `${url.slice(0, -1)}:path`,
    schema: {
      ...schema,
      params: Type.Object({
        ...others,
        path: Type.String({
          ...wildcard,
          description: 'The rest of the path, slashes included',
        }),
      }),
    },
  };
};
