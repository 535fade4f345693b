import { envInt, type Env, type Variable } from '@platform/core';

export const LEDGER_VARIABLES: readonly Variable[] = [
  {
    name: 'LEDGER_RETENTION_INTERVAL_MS',
    default: '3600000',
    description:
      'How often the audit service applies every retention policy (first run at start-up); 0 turns the job off',
  },
];

/** Reads LEDGER_VARIABLES; a bad value throws a ConfigError naming the variable. */
export function ledgerConfig(env: Env) {
  return {
    retentionIntervalMs: envInt(env, 'LEDGER_RETENTION_INTERVAL_MS', 3_600_000, {
      min: 0,
      max: 7 * 24 * 3_600_000,
    }),
  };
}

export type LedgerConfig = ReturnType<typeof ledgerConfig>;
