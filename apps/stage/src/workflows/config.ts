import type { Env, Variable } from '@platform/core';

export const WORKFLOW_VARIABLES: readonly Variable[] = [];

export function workflowConfig(_env: Env) {
  return {};
}
