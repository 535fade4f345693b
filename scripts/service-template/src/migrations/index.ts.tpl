import type { Migrations } from '@platform/db';
import * as items from './{{date}}-items.js';

export const migrations: Migrations = {
  '{{date}}-items': items,
};
