import { declareVariables, Var, type Env, type Variable } from '@platform/core';
import { BACKEND_VARIABLES, backendConfig } from './config/backends.js';
import { NPM_VARIABLES, npmConfig } from './config/npm.js';
import { ORIGIN_VARIABLES, originConfig } from './config/origins.js';
import { WORKFLOW_VARIABLES, workflowConfig } from './config/workflows.js';

const MIB = 1024 * 1024;

const SESSION = declareVariables({
  STAGE_MAX_FILE_BYTES: Var.int({
    default: MIB,
    min: 1,
    max: 'STAGE_MAX_SESSION_BYTES',
    unit: 'bytes',
    description:
      'Largest file a sandbox session keeps, in bytes of UTF-8 (413 `PAYLOAD_TOO_LARGE` beyond)',
  }),
  STAGE_MAX_FILES: Var.int({
    default: 1000,
    min: 1,
    max: 100_000,
    description: 'Files a sandbox session may hold at once (a push beyond it is 400)',
  }),
  STAGE_MAX_SESSION_BYTES: Var.int({
    default: 32 * MIB,
    min: 1024,
    max: 512 * MIB,
    unit: 'bytes',
    description:
      'Bytes all current files of a sandbox session may add up to (413 beyond); a push body may be twice this',
  }),
  STAGE_SESSION_RETENTION_DAYS: Var.int({
    default: 30,
    min: 0,
    max: 36_500,
    description:
      'Sandbox sessions unused for this many days and serving no published app are deleted (checked hourly); `0` keeps them forever',
  }),
});

export const STAGE_VARIABLES: readonly Variable[] = [
  ...SESSION.variables,
  ...ORIGIN_VARIABLES,
  ...WORKFLOW_VARIABLES,
  ...BACKEND_VARIABLES,
  ...NPM_VARIABLES,
];

export function stageConfig(env: Env) {
  const values = SESSION.read(env);
  return {
    maxFileBytes: values.STAGE_MAX_FILE_BYTES,
    maxFiles: values.STAGE_MAX_FILES,
    maxSessionBytes: values.STAGE_MAX_SESSION_BYTES,
    retentionDays: values.STAGE_SESSION_RETENTION_DAYS,
    origins: originConfig(env),
    workflows: workflowConfig(env),
    backends: backendConfig(env),
    npm: npmConfig(env),
  };
}

export type StageConfig = ReturnType<typeof stageConfig>;
