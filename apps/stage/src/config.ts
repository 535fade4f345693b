import { envInt, type Env, type Variable } from '@platform/core';
import { BACKEND_VARIABLES, backendConfig } from './backends/config.js';
import { NPM_VARIABLES, npmConfig } from './npm/config.js';
import { ORIGIN_VARIABLES, originConfig } from './origins.js';
import { WORKFLOW_VARIABLES, workflowConfig } from './workflows/config.js';

const MIB = 1024 * 1024;

const SESSION_VARIABLES: readonly Variable[] = [
  {
    name: 'STAGE_MAX_FILE_BYTES',
    default: '1048576',
    description: 'Largest file a session keeps, in bytes of UTF-8 (a larger one is 413)',
  },
  {
    name: 'STAGE_MAX_FILES',
    default: '1000',
    description: 'Files a session may hold at once (a push beyond it is 400)',
  },
  {
    name: 'STAGE_MAX_SESSION_BYTES',
    default: '33554432',
    description:
      'Bytes all current files of a session may add up to (a push beyond it is 413); a push body may be twice this',
  },
  {
    name: 'STAGE_SESSION_RETENTION_DAYS',
    default: '30',
    description:
      'Sessions not used for this many days and serving no published app are deleted, checked hourly; 0 keeps them forever',
  },
];

export const STAGE_VARIABLES: readonly Variable[] = [
  ...SESSION_VARIABLES,
  ...ORIGIN_VARIABLES,
  ...WORKFLOW_VARIABLES,
  ...BACKEND_VARIABLES,
  ...NPM_VARIABLES,
];

export function stageConfig(env: Env) {
  const maxSessionBytes = envInt(env, 'STAGE_MAX_SESSION_BYTES', 32 * MIB, {
    min: 1024,
    max: 512 * MIB,
  });
  return {
    maxFileBytes: envInt(env, 'STAGE_MAX_FILE_BYTES', MIB, { min: 1, max: maxSessionBytes }),
    maxFiles: envInt(env, 'STAGE_MAX_FILES', 1000, { min: 1, max: 100_000 }),
    maxSessionBytes,
    retentionDays: envInt(env, 'STAGE_SESSION_RETENTION_DAYS', 30, { min: 0, max: 36_500 }),
    origins: originConfig(env),
    workflows: workflowConfig(env),
    backends: backendConfig(env),
    npm: npmConfig(env),
  };
}

export type StageConfig = ReturnType<typeof stageConfig>;
