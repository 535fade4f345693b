import type { Migrations } from '@platform/db';
import * as catalog from './2026-11-21-catalog.js';
import * as backstage from './2026-11-22-backstage.js';
import * as graphVersion from './2026-12-01-graph-version.js';
import * as searchTrigrams from './2026-12-02-search-trigrams.js';
import * as ownership from './2026-12-03-ownership.js';
import * as namespaces from './2026-12-20-namespaces.js';
import * as membershipSides from './2026-12-21-membership-sides.js';
import * as scorecards from './2026-12-25-scorecards.js';

export const migrations: Migrations = {
  '2026-11-21-catalog': catalog,
  '2026-11-22-backstage': backstage,
  '2026-12-01-graph-version': graphVersion,
  '2026-12-02-search-trigrams': searchTrigrams,
  '2026-12-03-ownership': ownership,
  '2026-12-20-namespaces': namespaces,
  '2026-12-21-membership-sides': membershipSides,
  '2026-12-25-scorecards': scorecards,
};
