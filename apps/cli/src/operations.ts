import { OPERATIONS, type ApiRequest } from '@platform/client';

/** A JSON schema as the OpenAPI document has it (what the CLI reads of it). */
export interface Schema {
  type?: string | string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  description?: string;
  title?: string;
  nullable?: boolean;
}

export interface Param {
  name: string;
  in: 'query' | 'path' | 'header' | 'body';
  required: boolean;
  schema: Schema;
  description?: string;
}

export interface Operation {
  id: string;
  method: ApiRequest['method'];
  path: string;
  summary?: string;
  pathParams: string[];
  params: Param[];
  hasBody: boolean;
}

type Document = {
  paths: Record<
    string,
    Record<
      string,
      {
        operationId?: string;
        summary?: string;
        parameters?: Array<Param & { schema: Schema }>;
        requestBody?: { content?: Record<string, { schema?: Schema }> };
      }
    >
  >;
};

let index: Map<string, Operation> | undefined;

/** Every operation of the OpenAPI document the client was generated from, by operationId. */
function operations(): Map<string, Operation> {
  if (index) return index;
  // A require, not a file read: the published bundle (npm pack) carries the document inside it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const document = require('@platform/client/openapi.json') as Document;
  index = new Map();
  for (const [path, methods] of Object.entries(document.paths))
    for (const [method, op] of Object.entries(methods)) {
      if (!op.operationId) continue;
      const body = op.requestBody?.content?.['application/json']?.schema;
      const required = new Set(body?.required ?? []);
      const params: Param[] = [
        ...(op.parameters ?? []).map((p) => ({ ...p, required: !!p.required })),
        ...Object.entries(body?.properties ?? {}).map(([name, schema]) => ({
          name,
          in: 'body' as const,
          required: required.has(name),
          schema,
          description: schema.description,
        })),
      ];
      index.set(op.operationId, {
        id: op.operationId,
        method: method.toUpperCase() as ApiRequest['method'],
        path,
        summary: op.summary,
        pathParams: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]),
        params,
        hasBody: body !== undefined,
      });
    }
  return index;
}

/** The operation `service.name`; the client's table is the fallback (an operation without docs). */
export function operation(id: string): Operation {
  const found = operations().get(id);
  if (found) return found;
  const [service, name] = id.split('.');
  const known = (OPERATIONS as Record<string, Record<string, readonly [string, string]>>)[
    service
  ]?.[name];
  if (!known) throw new Error(`Unknown operation ${id}`);
  const [method, path] = known;
  return {
    id,
    method: method as ApiRequest['method'],
    path,
    pathParams: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]),
    params: [],
    hasBody: method !== 'GET' && method !== 'DELETE',
  };
}
