import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { onceFor } from './memo.js';

type Serialize = (data: unknown) => string;

// Fastify's own response serializer compiler (fast-json-stringify, no shared schemas).
const compile = SerializerSelector()({}, undefined) as (route: { schema: object }) => Serialize;
const serializers = new WeakMap<object, Serialize>();

/**
 * Fastify's response serializer, compiled once per schema object whichever app and route use it
 * (every route answers its errors with the same envelope, and every gateway, fallback and test app
 * would compile the same schemas again), and only when a response first needs it: compiling them
 * all made most of a whole gateway's start-up. A schema that cannot be compiled fails the responses
 * that need it (a 500) instead of the start.
 */
export const serializerCompiler = (route: { schema: object }): Serialize =>
  onceFor(serializers, route.schema, () => {
    let compiled: Serialize | undefined;
    return (data) => (compiled ??= compile(route))(data);
  });
