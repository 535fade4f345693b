import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import { describeIdentity } from '../auth/identity.js';
import { newId } from '../ids.js';
import { completeRow, insertPending, type OutboxDb } from './outbox.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Whether each call is audited. Default: a POST, PUT, PATCH or DELETE whose access action is a
     * change (`create`, `update`, `delete`, `manage`) is; one that reads, ingests (pulse events) or
     * invokes (inference calls, functions) is not. false opts a change out (the ledger's own
     * appends), true opts an ingestion in (a billing upload).
     */
    audit?: boolean;
  }
}

const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const CHANGE_ACTIONS = new Set(['create', 'update', 'delete', 'manage']);

/** Whether calls of this route are audited (see FastifyContextConfig.audit). */
export function auditedRoute(methods: readonly string[], config: unknown): boolean {
  if (!methods.some((m) => CHANGES.has(m.toUpperCase()))) return false;
  const { audit, access } = (config ?? {}) as { audit?: boolean; access?: { action?: string } };
  return audit ?? CHANGE_ACTIONS.has(access?.action ?? '');
}

/** The resource a change names: its `:id` (or last) path parameter, else the answer's `data.id`. */
function resourceOf(request: FastifyRequest, payload: unknown): string | null {
  const params = (request.params ?? {}) as Record<string, unknown>;
  const keys = Object.keys(params).filter((k) => k !== '*');
  const named = params.id ?? (keys.length ? params[keys[keys.length - 1]] : undefined);
  if (typeof named === 'string' && named) return named.slice(0, 200);
  if (typeof payload !== 'string' || payload.length > 1_000_000) return null;
  try {
    const id = (JSON.parse(payload) as { data?: { id?: unknown } }).data?.id;
    return typeof id === 'string' || typeof id === 'number' ? String(id) : null;
  } catch {
    return null;
  }
}

export interface AuditHookOptions {
  service: string;
  db: OutboxDb;
  /** Called once a row is deliverable (the relay batches what comes close together). */
  delivered: () => void;
}

/**
 * Audits every state-changing route of `scope` (unless its config says `audit: false`): before
 * the handler runs, a `pending` row is committed in the service's outbox; before the answer leaves,
 * a 2xx makes it `succeeded` (deliverable) and any other answer removes it (a denial is audited
 * apart, as `access.denied`; a refused request changed nothing). Should the process die between
 * the two, the relay delivers the pending row with outcome `unknown` after its grace period: an
 * acknowledged change never lacks its event. Should the row's update fail, the answer is an error.
 */
export function auditChanges(scope: FastifyInstance, options: AuditHookOptions) {
  const { db, service, delivered } = options;
  const rows = new WeakMap<FastifyRequest, string>();

  const begin = async (request: FastifyRequest) => {
    if (!CHANGES.has(request.method)) return;
    const id = newId();
    const identity = request.identity;
    const operationId = (request.routeOptions.schema as { operationId?: string } | undefined)
      ?.operationId;
    await insertPending(db, {
      id,
      action: operationId?.startsWith(`${service}.`)
        ? operationId
        : `${service}.${operationId ?? `${request.method} ${request.routeOptions.url}`}`,
      actor: identity.kind === 'anonymous' ? null : describeIdentity(identity),
      actor_kind: identity.kind,
      method: request.method,
      route: request.routeOptions.url ?? '',
      request_id: request.id,
    });
    rows.set(request, id);
  };

  const finish = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const id = rows.get(request);
    if (id === undefined) return payload;
    rows.delete(request);
    const status = reply.statusCode;
    const succeeded = status >= 200 && status < 300;
    await completeRow(db, id, {
      succeeded,
      statusCode: status,
      resource: succeeded ? resourceOf(request, payload) : null,
    });
    if (succeeded) delivered();
    return payload;
  };

  scope.addHook('onRoute', (route) => {
    if (!auditedRoute([route.method].flat().map(String), route.config)) return;
    const pre = route.preHandler ? [route.preHandler].flat() : [];
    route.preHandler = [begin, ...pre] as typeof route.preHandler;
    const send = route.onSend ? [route.onSend].flat() : [];
    route.onSend = [finish as unknown as onSendHookHandler, ...send] as typeof route.onSend;
  });
}
