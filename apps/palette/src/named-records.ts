import {
  findByIdOrName,
  IdOrNameParams,
  nameTaken,
  ok,
  orConflict,
  responses,
  Type,
  type ServiceRoutes,
  type Static,
  type TObject,
  type TSchema,
  UpdateOf,
  unique,
  type Access,
  type AuthorizationOptions,
  ownershipColumns,
  teamChange,
} from '@platform/core';
import type { Columns, PaletteDatabase, PaletteDb, RecordTable, Row } from './database.js';
import { sentFields } from './domain/records.js';
import {
  deleteRecord,
  findOwnership,
  hasLinks,
  insertRecord,
  LINKS,
  linkedIds,
  listNamed,
  resolveRefs,
  updateRecord,
} from './repositories/records.js';

type App = Parameters<ServiceRoutes<PaletteDatabase>>[0];

/** The fields every kind of record (but tokens) has in a body. */
interface NamedBody {
  name?: string;
  category?: string | null;
  description?: string | null;
  tags?: string[];
  tokens?: string[];
  components?: string[];
  team?: string | null;
}

/** A kind of named record: components, patterns, standards, accessibility rules. */
export interface NamedRecord<T extends RecordTable, I extends TSchema, R extends TSchema> {
  table: T;
  path: string;
  /** `Accessibility rule`: in messages and summaries. */
  resource: string;
  /** `Rule`: in operation ids (`listRules`, `getRule`); the resource when absent. */
  operation?: string;
  schemas: { Input: I; Record: R; ListQuery: TSchema };
  /** The row in the API shape, with the ids of the records it links to (none: empty). */
  toApi: (row: Row<T>, linked: string[]) => Static<R>;
  /** Its own columns (beyond name, category, description and tags) from a body. */
  columns?: (body: Partial<Static<I>>) => Partial<Columns<T>>;
  /** Its own columns' values when a create leaves them out. */
  defaults?: Partial<Columns<T>>;
  /** Checks of a body beyond its schema. */
  validate?: (body: Partial<Static<I>>) => void;
  /** What a get adds to the record (resolved links, usage), and says of it. */
  get?: {
    summary: string;
    description?: string;
    schema: TSchema;
    extra: (row: Row<T>) => Promise<object>;
  };
  /** Has an update (PUT), described so. */
  update?: { description: string };
  deleteDescription?: string;
}

/**
 * Registers the routes every kind of named record has: list by name, create (409 when the name
 * is taken), get, update when the kind has one, delete (answers with the deleted record). Links
 * to other records are loaded for a whole page in one query. Returns what the kind's own routes
 * need: `find` (404 when there is none), `shown` (a row in the API shape, with its links) and
 * `CHANGE`, the declaration of a change to the record (its sub-resources: props, steps).
 *
 * Shared knowledge: any signed-in caller reads; members create; the record's creator, its team
 * and admins change or delete it.
 */
export function namedRecordRoutes<T extends RecordTable, I extends TSchema, R extends TSchema>(
  app: App,
  { db, access }: { db: PaletteDb; access: AuthorizationOptions },
  kind: NamedRecord<T, I, R>,
) {
  type Body = Partial<Static<I>> & NamedBody;
  const { table, path, resource } = kind;
  // As plain schemas: the handlers' own types come from the kind's functions.
  const schemas: Record<'Input' | 'Record' | 'ListQuery', TSchema> = kind.schemas;
  const noun = resource.toLowerCase();
  const a = /^[aeiou]/.test(noun) ? 'an' : 'a';
  const operation = kind.operation ?? resource;
  const item = `${path}/:idOrName`;
  /** The body field that names the records this kind links to (`tokens`, `components`). */
  const targetsField = hasLinks(table) ? LINKS[table].targets : undefined;

  const owner: Access['owner'] = (request) =>
    findOwnership(db, table, (request.params as { idOrName?: unknown }).idOrName);
  const declared = `palette.${table.slice(0, -1)}`;
  const READ: Access = { resource: declared, action: 'read' };
  const CREATE: Access = { resource: declared, action: 'create' };
  const CHANGE: Access = { resource: declared, action: 'update', rule: 'owner', owner };
  const DELETE: Access = { resource: declared, action: 'delete', rule: 'owner', owner };

  // A generic table: Kysely cannot resolve its row type, the kind's Row<T> names it.
  const find = async (idOrName: string) =>
    (await findByIdOrName(db, table, idOrName, resource)) as Row<T>;
  const withLinks = async (rows: Array<Row<T>>) => {
    const ids = rows.map((row) => row.id);
    const linked = hasLinks(table) ? await linkedIds(db, table, ids) : undefined;
    return rows.map((row) => kind.toApi(row, linked?.get(row.id) ?? []));
  };
  const shown = async (row: Row<T>) => (await withLinks([row]))[0];
  const columnsOf = (body: Body) =>
    sentFields({
      name: body.name,
      category: body.category,
      description: body.description,
      tags: body.tags && unique(body.tags),
      ...kind.columns?.(body),
    }) as Partial<Columns<T>>;

  app.get(
    path,
    {
      config: { access: READ },
      schema: {
        operationId: `list${operation}s`,
        summary: `List ${noun}s by name`,
        querystring: schemas.ListQuery,
        response: responses({ 200: Type.Array(schemas.Record) }),
      },
    },
    async (request) => {
      const query = request.query as { limit: number; offset: number };
      return ok(await withLinks(await listNamed(db, table, query)));
    },
  );

  app.post(
    path,
    {
      config: { access: CREATE },
      schema: {
        operationId: `create${operation}`,
        summary: `Create ${a} ${noun}`,
        body: schemas.Input,
        response: responses({ 201: schemas.Record }),
      },
    },
    async (request, reply) => {
      const body = request.body as Body & { name: string };
      kind.validate?.(body);
      const owned = await ownershipColumns(request.identity, body.team, access);
      const targets =
        targetsField && (await resolveRefs(db, targetsField, body[targetsField] ?? []));
      const values = { category: null, description: null, tags: [], ...kind.defaults, ...owned };
      const row = await orConflict(
        () => insertRecord(db, table, { ...values, ...columnsOf(body) } as Columns<T>, targets),
        nameTaken(resource, body.name),
      );
      return reply.code(201).send(ok(kind.toApi(row, targets ?? [])));
    },
  );

  app.get(
    item,
    {
      config: { access: READ },
      schema: {
        operationId: `get${operation}`,
        summary: `Get ${a} ${noun}${kind.get ? ` ${kind.get.summary}` : ''}`,
        description: kind.get?.description,
        params: IdOrNameParams,
        response: responses({ 200: kind.get?.schema ?? schemas.Record }),
      },
    },
    async (request) => {
      const row = await find(request.params.idOrName);
      return ok({ ...(await shown(row)), ...(await kind.get?.extra(row)) });
    },
  );

  if (kind.update)
    app.put(
      item,
      {
        config: { access: CHANGE },
        schema: {
          operationId: `update${operation}`,
          summary: `Update ${a} ${noun}`,
          description: kind.update.description,
          params: IdOrNameParams,
          body: UpdateOf(schemas.Input as TObject),
          response: responses({ 200: schemas.Record }),
        },
      },
      async (request) => {
        const current = await find(request.params.idOrName);
        const body = request.body as Body;
        kind.validate?.(body);
        const team = await teamChange(request.identity, body.team, access);
        const refs = targetsField && body[targetsField];
        const targets = targetsField && refs && (await resolveRefs(db, targetsField, refs));
        const row = await orConflict(
          () => updateRecord(db, table, current.id, { ...columnsOf(body), team }, targets),
          nameTaken(resource, body.name ?? current.name),
        );
        return ok(await shown(row));
      },
    );

  app.delete(
    item,
    {
      config: { access: DELETE },
      schema: {
        operationId: `delete${operation}`,
        summary: `Delete ${a} ${noun}`,
        description: kind.deleteDescription,
        params: IdOrNameParams,
        response: responses({ 200: schemas.Record }),
      },
    },
    async (request) => {
      const row = await find(request.params.idOrName);
      const record = await shown(row);
      await deleteRecord(db, table, row.id);
      return ok(record);
    },
  );

  return { find, shown, CHANGE };
}
