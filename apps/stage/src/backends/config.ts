import { envInt, type Env, type Variable } from '@platform/core';
import { OPS_VARIABLES, opsConfig } from './ops-config.js';

const MIB = 1024 * 1024;

export const BACKEND_VARIABLES: readonly Variable[] = [
  {
    name: 'STAGE_BACKEND_TIMEOUT_MS',
    default: '100',
    description:
      'CPU time one app backend request may use in all (its synchronous part and everything after each await, platform helpers such as sha256 included), in ms; beyond it the request is 504 and the isolate is recycled',
  },
  {
    name: 'STAGE_BACKEND_WALL_MS',
    default: '60000',
    description:
      'Wall-clock time one app backend request may take, awaited platform calls included, in ms; beyond it 504 (a promise that never settles)',
  },
  {
    name: 'STAGE_BACKEND_MEMORY_MB',
    default: '64',
    description:
      "Heap of one app backend's isolate, in MB; beyond it the request is 502 and the isolate is recycled",
  },
  {
    name: 'STAGE_BACKEND_MAX_BODY_BYTES',
    default: '1048576',
    description: 'Largest request body forwarded to an app backend, in bytes (a larger one is 413)',
  },
  {
    name: 'STAGE_BACKEND_MAX_RESPONSE_BYTES',
    default: '4194304',
    description: 'Largest response body an app backend may answer, in bytes (a larger one is 502)',
  },
  {
    name: 'STAGE_BACKEND_MAX_ISOLATES',
    default: '32',
    description:
      'App backends kept warm (compiled, in an isolate) at once; the least recently used beyond it are dropped',
  },
  {
    name: 'STAGE_BACKEND_KV_MAX_VALUE_BYTES',
    default: '65536',
    description:
      'Largest value an app backend may store with @stage/compute kv.set, in bytes of JSON',
  },
  {
    name: 'STAGE_BACKEND_KV_MAX_KEYS',
    default: '10000',
    description: 'Keys one app backend may keep in its @stage/compute kv store',
  },
  {
    name: 'STAGE_BACKEND_KV_MAX_BYTES',
    default: '10485760',
    description:
      'Bytes (of JSON values) one app backend may keep in its @stage/compute kv store, all keys together',
  },
  ...OPS_VARIABLES,
];

export function backendConfig(env: Env) {
  const kvMaxValueBytes = envInt(env, 'STAGE_BACKEND_KV_MAX_VALUE_BYTES', 65_536, {
    min: 16,
    max: 16 * MIB,
  });
  return {
    timeoutMs: envInt(env, 'STAGE_BACKEND_TIMEOUT_MS', 100, { min: 5, max: 60_000 }),
    wallMs: envInt(env, 'STAGE_BACKEND_WALL_MS', 60_000, { min: 100, max: 600_000 }),
    memoryMb: envInt(env, 'STAGE_BACKEND_MEMORY_MB', 64, { min: 8, max: 2048 }),
    maxBodyBytes: envInt(env, 'STAGE_BACKEND_MAX_BODY_BYTES', MIB, { min: 1, max: 64 * MIB }),
    maxResponseBytes: envInt(env, 'STAGE_BACKEND_MAX_RESPONSE_BYTES', 4 * MIB, {
      min: 1024,
      max: 64 * MIB,
    }),
    maxIsolates: envInt(env, 'STAGE_BACKEND_MAX_ISOLATES', 32, { min: 1, max: 1000 }),
    kvMaxValueBytes,
    kvMaxKeys: envInt(env, 'STAGE_BACKEND_KV_MAX_KEYS', 10_000, { min: 1, max: 10_000_000 }),
    kvMaxBytes: envInt(env, 'STAGE_BACKEND_KV_MAX_BYTES', 10 * MIB, { min: 16, max: 1024 * MIB }),
    /** Arguments of one virtual-module call: a kv value and its key, or an inference input. */
    maxCallBytes: Math.max(MIB, kvMaxValueBytes + 4096),
    ...opsConfig(env),
  };
}

export type BackendConfig = ReturnType<typeof backendConfig>;
