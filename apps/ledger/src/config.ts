import { envInt, envString, type Env, type Variable } from '@platform/core';
import { parseSigningKey } from './signing-key.js';

export const LEDGER_VARIABLES: readonly Variable[] = [
  {
    name: 'LEDGER_RETENTION_INTERVAL_MS',
    default: '3600000',
    description:
      'How often the audit service applies every retention policy (first run at the first start; the schedule is kept in the database across restarts and instances); 0 turns the job off',
  },
  {
    name: 'LEDGER_SIGNING_KEY',
    default: 'unset',
    description:
      'Ed25519 private key that signs the audit chain head (PKCS#8 PEM, or base64 of the 32-byte seed); unset turns signing off. Keep it outside the database',
  },
  {
    name: 'LEDGER_SIGNING_INTERVAL_MS',
    default: '60000',
    description:
      'How often the audit service signs its chain head when it has moved (first run at the first start; the schedule is kept in the database across restarts and instances); 0 signs only on request',
  },
];

/** Reads LEDGER_VARIABLES; a bad value throws a ConfigError naming the variable. */
export function ledgerConfig(env: Env) {
  const signingKey = envString(env, 'LEDGER_SIGNING_KEY');
  return {
    retentionIntervalMs: envInt(env, 'LEDGER_RETENTION_INTERVAL_MS', 3_600_000, {
      min: 0,
      max: 7 * 24 * 3_600_000,
    }),
    /** Undefined when LEDGER_SIGNING_KEY is unset: chain heads are not signed. */
    signingKey:
      signingKey === undefined ? undefined : parseSigningKey('LEDGER_SIGNING_KEY', signingKey),
    signingIntervalMs: envInt(env, 'LEDGER_SIGNING_INTERVAL_MS', 60_000, {
      min: 0,
      max: 24 * 3_600_000,
    }),
  };
}

export type LedgerConfig = ReturnType<typeof ledgerConfig>;
