import { declareVariables, Var, type Env } from '@platform/core';

// The service's variables, each declared once: its config below, the start-up check (a bad value
// stops start-up naming the variable) and its rows in the root README (`npm run readme:config`)
// all come from these declarations.
const VARIABLES = declareVariables({
  {{NAME}}_MAX_ITEMS: Var.int({
    default: 10_000,
    min: 1,
    max: 1_000_000,
    description: 'Items the {{name}} service keeps at most; a create beyond it is 400',
  }),
});

export const {{NAME}}_VARIABLES = VARIABLES.variables;

/** Reads {{NAME}}_VARIABLES; a bad value throws a ConfigError naming the variable. */
export function {{name}}Config(env: Env) {
  const values = VARIABLES.read(env);
  return { maxItems: values.{{NAME}}_MAX_ITEMS };
}

export type {{Name}}Config = ReturnType<typeof {{name}}Config>;
