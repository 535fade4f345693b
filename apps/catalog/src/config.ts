import { declareVariables, Var, type Env } from '@platform/core';

const VARIABLES = declareVariables({
  CATALOG_OVERVIEW_TIMEOUT_MS: Var.int({
    default: 2000,
    min: 50,
    max: 60_000,
    unit: 'ms',
    description:
      "Longest wait for each other service's part of a catalog service's overview (spend, budgets, anomalies, repositories, audit, usage) and for each source of a scorecard evaluation; a part that takes longer is shown as unavailable and the rest answers",
  }),
  CATALOG_SCORECARD_INTERVAL_MS: Var.int({
    default: 86_400_000,
    min: 0,
    max: 7 * 86_400_000,
    unit: 'ms',
    description:
      'How often every scorecard is evaluated again for every service, besides at each change of a service or a scorecard (first run at the first start; the schedule is kept in the database across restarts and instances); `0` turns the periodic run off',
  }),
});

export const CATALOG_VARIABLES = VARIABLES.variables;

/** Reads CATALOG_VARIABLES; a bad value throws a ConfigError naming the variable. */
export function catalogConfig(env: Env) {
  const values = VARIABLES.read(env);
  return {
    overviewTimeoutMs: values.CATALOG_OVERVIEW_TIMEOUT_MS,
    scorecardIntervalMs: values.CATALOG_SCORECARD_INTERVAL_MS,
  };
}

export type CatalogConfig = ReturnType<typeof catalogConfig>;
