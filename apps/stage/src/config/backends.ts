import { declareVariables, Var, type Env } from '@platform/core';
import { OPS_VARIABLES, opsConfig } from './ops.js';

const MIB = 1024 * 1024;

const VARIABLES = declareVariables({
  STAGE_BACKEND_TIMEOUT_MS: Var.int({
    default: 100,
    min: 5,
    max: 60_000,
    unit: 'ms',
    description:
      'CPU time one app backend request may use in all (its synchronous part and everything after each await, platform helpers such as sha256 included); beyond it the request is a 504 and the isolate is recycled',
  }),
  STAGE_BACKEND_WALL_MS: Var.int({
    default: 60_000,
    min: 100,
    max: 600_000,
    unit: 'ms',
    description:
      'Wall-clock time of one app backend request, awaited platform calls included; 504 beyond (a promise that never settles)',
  }),
  STAGE_BACKEND_MEMORY_MB: Var.int({
    default: 64,
    min: 8,
    max: 2048,
    description:
      "Heap of one app backend's isolate, in MiB; a request that exceeds it is a 502 and the isolate is recycled",
  }),
  STAGE_BACKEND_MAX_BODY_BYTES: Var.int({
    default: MIB,
    min: 1,
    max: 64 * MIB,
    unit: 'bytes',
    description: 'Largest request body forwarded to an app backend; 413 beyond',
  }),
  STAGE_BACKEND_MAX_RESPONSE_BYTES: Var.int({
    default: 4 * MIB,
    min: 1024,
    max: 64 * MIB,
    unit: 'bytes',
    description: 'Largest response body an app backend may answer; 502 beyond',
  }),
  STAGE_BACKEND_MAX_ISOLATES: Var.int({
    default: 32,
    min: 1,
    max: 1000,
    description:
      'App backends kept warm (compiled, in an isolate) at once; the least recently used beyond it are dropped',
  }),
  STAGE_BACKEND_KV_MAX_VALUE_BYTES: Var.int({
    default: 65_536,
    min: 16,
    max: 16 * MIB,
    unit: 'bytes',
    description:
      'Largest value an app backend may store with `@stage/compute` `kv.set`, in bytes of JSON',
  }),
  STAGE_BACKEND_KV_MAX_KEYS: Var.int({
    default: 10_000,
    min: 1,
    max: 10_000_000,
    description: 'Keys one app backend may keep in its `@stage/compute` kv store',
  }),
  STAGE_BACKEND_KV_MAX_BYTES: Var.int({
    default: 10 * MIB,
    min: 16,
    max: 1024 * MIB,
    unit: 'bytes',
    description:
      'Bytes (of JSON values) one app backend may keep in its `@stage/compute` kv store, all keys together',
  }),
});

export const BACKEND_VARIABLES = [...VARIABLES.variables, ...OPS_VARIABLES];

export function backendConfig(env: Env) {
  const values = VARIABLES.read(env);
  return {
    timeoutMs: values.STAGE_BACKEND_TIMEOUT_MS,
    wallMs: values.STAGE_BACKEND_WALL_MS,
    memoryMb: values.STAGE_BACKEND_MEMORY_MB,
    maxBodyBytes: values.STAGE_BACKEND_MAX_BODY_BYTES,
    maxResponseBytes: values.STAGE_BACKEND_MAX_RESPONSE_BYTES,
    maxIsolates: values.STAGE_BACKEND_MAX_ISOLATES,
    kvMaxValueBytes: values.STAGE_BACKEND_KV_MAX_VALUE_BYTES,
    kvMaxKeys: values.STAGE_BACKEND_KV_MAX_KEYS,
    kvMaxBytes: values.STAGE_BACKEND_KV_MAX_BYTES,
    /** Arguments of one virtual-module call: a kv value and its key, or an inference input. */
    maxCallBytes: Math.max(MIB, values.STAGE_BACKEND_KV_MAX_VALUE_BYTES + 4096),
    ...opsConfig(env),
  };
}

export type BackendConfig = ReturnType<typeof backendConfig>;
