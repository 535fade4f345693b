import type { ServiceContext, ServiceRoutes } from '@platform/core';
import type { PulseDatabase } from '../database.js';

/** What each instance of pulse builds once, at start-up, for its routes. */
export interface PulseState {
  /**
   * Distinct ids this instance saw given a person, so that most events need no look-up: an id,
   * once it names a person, always does (a merge moves ids, nothing removes them). Forgotten
   * past 100,000 ids (see `ingest`).
   */
  knownIds: Set<string>;
}

export type PulseRoutes = ServiceRoutes<PulseDatabase, undefined, PulseState>;

/** The instance's state (defineService's `setup`). */
export const setupPulse = (_: ServiceContext<PulseDatabase>): PulseState => ({
  knownIds: new Set(),
});
