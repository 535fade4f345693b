import type { Env, Variable } from '@platform/core';

export const BACKEND_VARIABLES: readonly Variable[] = [];

export function backendConfig(_env: Env) {
  return {};
}
