import {
  badRequest,
  conflict,
  IdOrNameParams,
  nameTaken,
  newId,
  notFound,
  ok,
  orConflict,
  responses,
  stampsAt,
  Type,
  unique,
  type Access,
  type ServiceRoutes,
  ownershipColumns,
  teamChange,
} from '@platform/core';
import { isForeignKeyViolation, jsonb } from '@platform/db';
import type { CatalogDatabase, CatalogDb } from '../database.js';
import {
  ancestorsOf,
  childrenOf,
  deleteGroup,
  dependentsOf,
  getGroup,
  findGroup,
  insertGroup,
  linkedGroup,
  linkId,
  listGroups,
  servicesOf,
  updateGroup,
  type GroupColumns,
  type GroupFilter,
  type GroupRow,
  type GroupTable,
} from '../repositories/groups.js';
import { findOwnerOwnership, findOwnership } from '../repositories/ownership.js';
import { OwnerSchemas, SystemSchemas, type GroupSchemas } from '../schemas/groups.js';

/** A record as shown: its columns but the link ids, the stamps as ISO text. */
const toRecord = ({ created_at, updated_at, created_by, ...fields }: GroupRow) => ({
  ...fields,
  createdBy: created_by,
  ...stampsAt(created_at, updated_at),
});

type Fields = Record<string, unknown>;

/** How one kind of group turns fields as received into columns, and what it checks on the way. */
interface GroupKind {
  /** `current` is the record being updated, undefined on create. */
  columns(db: CatalogDb, fields: Fields, current?: GroupRow): Promise<GroupColumns>;
  /** What a get adds to the record and its services. */
  extra(db: CatalogDb, id: string): Promise<Fields>;
  /**
   * Whether its `team` is the team that owns it (a system), checked as such; an owner's `team` is
   * a display name, and the team that owns an owner is the owner itself.
   */
  teamOwns: boolean;
}

const systemKind: GroupKind = {
  async columns(db, { owner, tags, ...fields }) {
    const row = await linkedGroup(db, 'owners', 'owner', owner as string | null | undefined);
    return { ...fields, owner_id: linkId(row), tags: tags && jsonb(unique(tags as string[])) };
  },
  extra: async () => ({}),
  teamOwns: true,
};

const ownerKind: GroupKind = {
  async columns(db, { parent, members, ...fields }, current) {
    const row = await linkedGroup(db, 'owners', 'parent', parent as string | null | undefined);
    if (row && row.kind !== 'group')
      throw badRequest(`parent must be a group: ${row.name} is a ${row.kind}`);
    const kind = (fields.kind as string | undefined) ?? current?.kind ?? 'group';
    const parentId = row === undefined ? (current?.parent_id ?? null) : (row?.id ?? null);
    if (kind !== 'group' && parentId !== null)
      throw badRequest(`parent: only a group can have a parent, and this owner is a ${kind}`);
    if (current && kind !== 'group' && current.kind === 'group') {
      const children = (await childrenOf(db, current.id)).map((child) => child.name);
      if (children.length > 0)
        throw conflict(`Owner ${current.name} still has child groups: ${children.join(', ')}`);
    }
    const emails = members && unique((members as string[]).map((m) => m.toLowerCase()));
    return { ...fields, parent_id: linkId(row), members: emails && jsonb(emails) };
  },
  extra: async (db, id) => ({ children: await childrenOf(db, id) }),
  teamOwns: false,
};

/** A cycle the new parent would close: the chain from the record through its new ancestors. */
async function refuseCycle(db: CatalogDb, id: string, name: string, parentId: unknown) {
  if (typeof parentId !== 'string') return;
  const chain = await ancestorsOf(db, parentId);
  const at = chain.findIndex((group) => group.id === id);
  if (at >= 0)
    throw badRequest(
      `parent would make a cycle: ${[name, ...chain.slice(0, at + 1).map((g) => g.name)].join(' -> ')}`,
    );
}

/**
 * Systems and owners: named records that services point at. Both have the same five routes; a
 * get answers with the services that point at the record, and a delete is refused (409, naming
 * them) while anything does. `resource` (`System`) is in messages and operation ids.
 */
function groupRoutes(
  table: GroupTable,
  resource: 'System' | 'Owner',
  schemas: GroupSchemas,
  kind: GroupKind,
): ServiceRoutes<CatalogDatabase> {
  const path = `/${table}`;
  const noun = resource.toLowerCase();
  const taken = (name: string) => nameTaken(noun, name);

  return async (app, { db, access }) => {
    // Shared knowledge: any signed-in caller reads; members create; the record's creator, its team
    // and admins change or delete it (an owner's team is itself: its members manage it).
    const owner: Access['owner'] = (request) => {
      const { idOrName } = request.params as { idOrName?: unknown };
      return table === 'owners'
        ? findOwnerOwnership(db, idOrName)
        : findOwnership(db, table, idOrName);
    };
    const declared = `catalog.${noun}`;
    const READ: Access = { resource: declared, action: 'read' };
    const CREATE: Access = { resource: declared, action: 'create' };
    const UPDATE: Access = { resource: declared, action: 'update', rule: 'owner', owner };
    const DELETE: Access = { resource: declared, action: 'delete', rule: 'owner', owner };

    /** The record (with the name it points at); NOT_FOUND when there is none. */
    const find = async (idOrName: string) => {
      const found = await findGroup(db, table, idOrName);
      const row = found && (await getGroup(db, table, found.id));
      if (!row) throw notFound(resource, idOrName);
      return row;
    };
    const withServices = async (row: GroupRow) => ({
      ...toRecord(row),
      services: await servicesOf(db, table, row.id),
      ...(await kind.extra(db, row.id)),
    });

    app.get(
      path,
      {
        config: { access: READ },
        schema: {
          operationId: `list${resource}s`,
          summary: `List ${table} by name`,
          querystring: schemas.ListQuery,
          response: responses({ 200: Type.Array(schemas.Record) }),
        },
      },
      async (request) =>
        ok((await listGroups(db, table, request.query as unknown as GroupFilter)).map(toRecord)),
    );

    app.post(
      path,
      {
        config: { access: CREATE },
        schema: {
          operationId: `create${resource}`,
          summary: `Create a ${noun}`,
          body: schemas.Input,
          response: responses({ 201: schemas.Record }),
        },
      },
      async (request, reply) => {
        const fields = request.body as Fields & { name: string; team?: string | null };
        const id = newId();
        const team = kind.teamOwns ? fields.team : undefined;
        const owned = await ownershipColumns(request.identity, team, access);
        // Listing a new team's members is for admins and those the identity provider puts in it.
        const listed = (fields as { members?: string[] }).members ?? [];
        if (!kind.teamOwns && listed.length > 0)
          await ownershipColumns(request.identity, fields.name, access);
        const columns = {
          id,
          ...(await kind.columns(db, fields)),
          ...(kind.teamOwns ? owned : { created_by: owned.created_by }),
        };
        await orConflict(() => insertGroup(db, table, columns), taken(fields.name));
        return reply.code(201).send(ok(toRecord((await getGroup(db, table, id))!)));
      },
    );

    app.get(
      `${path}/:idOrName`,
      {
        config: { access: READ },
        schema: {
          operationId: `get${resource}`,
          summary: `Get a ${noun} with its services`,
          params: IdOrNameParams,
          response: responses({ 200: schemas.WithServices }),
        },
      },
      async (request) => ok(await withServices(await find(request.params.idOrName))),
    );

    app.put(
      `${path}/:idOrName`,
      {
        config: { access: UPDATE },
        schema: {
          operationId: `update${resource}`,
          summary: `Update a ${noun}`,
          description: 'Changes the fields sent; null clears an optional one.',
          params: IdOrNameParams,
          body: schemas.Update,
          response: responses({ 200: schemas.WithServices }),
        },
      },
      async (request) => {
        const current = await find(request.params.idOrName);
        const fields = request.body as Fields & { team?: string | null };
        const columns = await kind.columns(db, fields, current);
        if (kind.teamOwns) columns.team = await teamChange(request.identity, fields.team, access);
        const update = () =>
          db.transaction().execute(async (trx) => {
            if (table === 'owners')
              await refuseCycle(trx, current.id, current.name, columns.parent_id);
            await updateGroup(trx, table, current.id, columns);
          });
        await (fields.name === undefined
          ? update()
          : orConflict(update, taken(fields.name as string)));
        return ok(await withServices((await getGroup(db, table, current.id))!));
      },
    );

    app.delete(
      `${path}/:idOrName`,
      {
        config: { access: DELETE },
        schema: {
          operationId: `delete${resource}`,
          summary: `Delete a ${noun}`,
          description: `Answers with the deleted ${noun}; 409 while services, APIs${table === 'owners' ? ', systems or child groups' : ''} still point at it, naming them.`,
          params: IdOrNameParams,
          response: responses({ 200: schemas.Record }),
        },
      },
      async (request) => {
        const row = await find(request.params.idOrName);
        const dependents = await dependentsOf(db, table, row.id);
        if (dependents.length > 0)
          throw conflict(
            `${resource} ${row.name} still has ${dependents.map((d) => `${d.what}: ${d.names.join(', ')}`).join('; ')}`,
          );
        try {
          await deleteGroup(db, table, row.id);
        } catch (error) {
          // Something came to point at it between the check and the delete (the foreign key refuses).
          if (isForeignKeyViolation(error))
            throw conflict(`${resource} ${row.name} is still in use`);
          throw error;
        }
        return ok(toRecord(row));
      },
    );
  };
}

export const systemRoutes = groupRoutes('systems', 'System', SystemSchemas, systemKind);
export const ownerRoutes = groupRoutes('owners', 'Owner', OwnerSchemas, ownerKind);
