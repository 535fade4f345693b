import { OPERATIONS, type operations } from './generated/index.js';
import { call, type ApiRequest, type Transport } from './transport.js';

type Operations = typeof OPERATIONS;
/** A service the client knows (`pulse`, `catalog`, ..., `gateway`). */
export type ServiceName = keyof Operations;
/** An operation as its operationId spells it: `pulse.listEvents`. */
export type OperationId = keyof operations;

type Op<Id> = Id extends OperationId ? operations[Id] : never;
type Parameters<Id> = Op<Id> extends { parameters: infer P } ? P : never;
type JsonOf<T> = T extends { content: { 'application/json': infer B } } ? B : never;

/** A part of the arguments: required when the document says so, absent when there is none. */
type Part<K extends string, T, Required extends boolean> = [T] extends [never]
  ? object
  : [T] extends [undefined]
    ? object
    : Required extends true
      ? { [P in K]: T }
      : { [P in K]?: T };
type HasRequired<T> = [T] extends [never] ? false : object extends T ? false : true;

type PathOf<Id> = Parameters<Id> extends { path: infer X } ? X : never;
type QueryOf<Id> = Parameters<Id> extends { query?: infer X } ? X : never;
type BodyOf<Id> = Op<Id> extends { requestBody: infer B } ? JsonOf<B> : never;
type OptionalBodyOf<Id> = Op<Id> extends { requestBody?: infer B } ? JsonOf<B> : never;

/** What an operation takes: `{ path, query, body }`, each only when the operation has it. */
export type ArgsOf<Id> = Part<'path', PathOf<Id>, true> &
  Part<'query', QueryOf<Id>, HasRequired<QueryOf<Id>>> &
  Part<'body', OptionalBodyOf<Id>, [BodyOf<Id>] extends [never] ? false : true>;

type Responses<Id> = Op<Id> extends { responses: infer R } ? R : never;
/** The bodies of its 2xx answers (200, 201, 202, ...). */
type Success<R> = {
  [S in keyof R]: `${S & (string | number)}` extends `2${string}` ? JsonOf<R[S]> : never;
}[keyof R];
/** What an operation answers: the `data` of its success envelope (`undefined` for no body). */
export type DataOf<Id> = [Success<Responses<Id>>] extends [never]
  ? undefined
  : Success<Responses<Id>> extends { data: infer D }
    ? D
    : never;

/** What any call also takes: `signal` aborts the request (its answer is no longer awaited). */
export interface CallOptions {
  signal?: AbortSignal;
}

type NeedsArgs<Id> = object extends ArgsOf<Id> ? false : true;
type Method<Id> =
  NeedsArgs<Id> extends true
    ? (args: ArgsOf<Id> & CallOptions) => Promise<DataOf<Id>>
    : (args?: ArgsOf<Id> & CallOptions) => Promise<DataOf<Id>>;

/** One method per operation, named after its operationId, grouped by service. */
export type PlatformClient = {
  [S in ServiceName]: { [N in keyof Operations[S]]: Method<`${S & string}.${N & string}`> };
};

interface Args {
  path?: Record<string, string | number>;
  query?: Record<string, unknown>;
  body?: unknown;
  signal?: AbortSignal;
}

/** `/api/v1/catalog/services/{idOrName}` with `{ idOrName: 'a b' }` -> `.../services/a%20b` */
function fillPath(template: string, params: Args['path'] = {}): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new TypeError(`Missing path parameter ${name} for ${template}`);
    return encodeURIComponent(String(value));
  });
}

/**
 * The typed client of every service, over one transport (HTTP or in-process):
 * `client.catalog.getService({ path: { idOrName: 'cart' } })` answers the service's data, or throws
 * PlatformError with the envelope's code and message.
 */
export function createClient(transport: Transport): PlatformClient {
  const client: Record<string, Record<string, (args?: Args) => Promise<unknown>>> = {};
  for (const [service, ops] of Object.entries(OPERATIONS)) {
    client[service] = {};
    for (const [name, [method, path]] of Object.entries(ops))
      client[service][name] = (args: Args = {}) =>
        call(transport, {
          method: method as ApiRequest['method'],
          path: fillPath(path, args.path),
          query: args.query as ApiRequest['query'],
          body: args.body,
          ...(args.signal ? { signal: args.signal } : {}),
        });
  }
  return client as unknown as PlatformClient;
}
