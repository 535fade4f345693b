import { findByIdOrName } from '@platform/core';
import type { Insertable } from '@platform/db';
import type { PaletteDb, StandardRow, StandardsTable } from '../database.js';
import { deleteRecord, insertRecord, listNamed, type Page } from './records.js';

export type StandardColumns = Omit<Insertable<StandardsTable>, 'id' | 'created' | 'updated'>;

export interface StandardFilter {
  category?: string;
  tag?: string;
}

export const findStandard = (db: PaletteDb, idOrName: string) =>
  findByIdOrName<StandardRow>(db, 'standards', idOrName, 'Standard');

export const listStandards = (db: PaletteDb, filter: StandardFilter, page: Page) =>
  listNamed(db, 'standards', { ...filter }, page);

export const insertStandard = (db: PaletteDb, values: StandardColumns) =>
  insertRecord(db, 'standards', values);

export const deleteStandard = (db: PaletteDb, id: string) => deleteRecord(db, 'standards', id);
