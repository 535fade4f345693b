import type { ServiceContext, ServiceRoutes } from '@platform/core';
import type { LedgerConfig } from '../config.js';
import type { LedgerDatabase } from '../database.js';
import { ChainAppender } from './appender.js';

/** What one mounted instance keeps for its routes and jobs: the chain's appender. */
export interface LedgerState {
  /** Group commit of appends (see ChainAppender). */
  appender: ChainAppender;
  /** Acknowledged appends are written before the database closes. */
  close(): Promise<void>;
}

export type LedgerContext = ServiceContext<LedgerDatabase, LedgerConfig, LedgerState>;
export type LedgerRoutes = ServiceRoutes<LedgerDatabase, LedgerConfig, LedgerState>;

/** The definition's `setup`: run once per mounted instance. */
export function ledgerState({ db }: ServiceContext<LedgerDatabase, LedgerConfig>): LedgerState {
  const appender = new ChainAppender(db);
  return { appender, close: () => appender.drain() };
}
