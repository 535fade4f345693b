import { findByIdOrName } from '@platform/core';
import type { Insertable } from '@platform/db';
import type { PaletteDb, RuleRow, RulesTable } from '../database.js';
import { componentsLinkedBy } from './components.js';
import { deleteRecord, insertRecord, linkedIds, listNamed, type Page } from './records.js';

export type RuleColumns = Omit<Insertable<RulesTable>, 'id' | 'created' | 'updated'>;

export interface RuleFilter {
  category?: string;
  severity?: string;
  tag?: string;
}

export const findRule = (db: PaletteDb, idOrName: string) =>
  findByIdOrName<RuleRow>(db, 'rules', idOrName, 'Accessibility rule');

export const listRules = (db: PaletteDb, filter: RuleFilter, page: Page) =>
  listNamed(db, 'rules', { ...filter }, page);

/** The component ids of each rule, in one query. */
export const componentIdsOfRules = (db: PaletteDb, ruleIds: readonly string[]) =>
  linkedIds(db, 'rule_components', ruleIds);

export const insertRule = (db: PaletteDb, values: RuleColumns, componentIds: string[]) =>
  insertRecord(db, 'rules', values, { link: 'rule_components', targets: componentIds });

export const deleteRule = (db: PaletteDb, id: string) => deleteRecord(db, 'rules', id);

/** The components a rule applies to, in the order given. */
export const ruleComponents = (db: PaletteDb, id: string) =>
  componentsLinkedBy(db, 'rule_components', id);
