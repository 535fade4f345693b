import type { Generated, Kysely, Selectable } from '@platform/db';

/** The tables of the `{{name}}` schema, as the migrations make them. */
export interface {{Name}}Database {
  items: ItemsTable;
}

export interface ItemsTable {
  id: string;
  name: string;
  description: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export type {{Name}}Db = Kysely<{{Name}}Database>;
export type ItemRow = Selectable<ItemsTable>;
