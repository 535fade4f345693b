import { declareVariables, Var, type Env } from '@platform/core';
import { parseSigningKey } from './domain/signing-key.js';

const VARIABLES = declareVariables({
  LEDGER_RETENTION_INTERVAL_MS: Var.int({
    default: 3_600_000,
    min: 0,
    max: 7 * 24 * 3_600_000,
    unit: 'ms',
    description:
      'How often the audit service applies every retention policy (first run at the first start; the schedule is kept in the database across restarts and instances); `0` turns the job off',
  }),
  LEDGER_SIGNING_KEY: Var.string({
    accepts: 'PKCS#8 PEM, or base64 of the 32-byte seed',
    description:
      'Ed25519 private key that signs the audit chain head; unset turns signing off. Keep it outside the database',
  }),
  LEDGER_SIGNING_INTERVAL_MS: Var.int({
    default: 60_000,
    min: 0,
    max: 24 * 3_600_000,
    unit: 'ms',
    description:
      'How often the audit service signs its chain head when it has moved (first run at the first start; the schedule is kept in the database across restarts and instances); `0` signs only on request',
  }),
  LEDGER_SINK_INTERVAL_MS: Var.int({
    default: 5000,
    min: 0,
    max: 3_600_000,
    unit: 'ms',
    description:
      'How often new audit events are pushed to the sinks (webhooks, syslog); `0` turns delivery off',
  }),
  LEDGER_SINK_ALLOW_PRIVATE_TARGETS: Var.bool({
    default: false,
    description:
      'Let sinks reach loopback, private and link-local addresses (a SIEM on the internal network)',
  }),
});

export const LEDGER_VARIABLES = VARIABLES.variables;

/** Reads LEDGER_VARIABLES; a bad value throws a ConfigError naming the variable. */
export function ledgerConfig(env: Env) {
  const values = VARIABLES.read(env);
  const signingKey = values.LEDGER_SIGNING_KEY;
  return {
    retentionIntervalMs: values.LEDGER_RETENTION_INTERVAL_MS,
    /** Undefined when LEDGER_SIGNING_KEY is unset: chain heads are not signed. */
    signingKey:
      signingKey === undefined ? undefined : parseSigningKey('LEDGER_SIGNING_KEY', signingKey),
    signingIntervalMs: values.LEDGER_SIGNING_INTERVAL_MS,
    sinkIntervalMs: values.LEDGER_SINK_INTERVAL_MS,
    sinkPolicy: {
      allowPrivate: values.LEDGER_SINK_ALLOW_PRIVATE_TARGETS,
      setting: 'LEDGER_SINK_ALLOW_PRIVATE_TARGETS',
    },
  };
}

export type LedgerConfig = ReturnType<typeof ledgerConfig>;
