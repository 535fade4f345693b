import { createHash } from 'node:crypto';
import {
  ApiError,
  badGateway,
  badRequest,
  delegatedToken,
  describeIdentity,
  isPlatformError,
  type Identity,
} from '@platform/core';
import type { AppRow } from '../../database/index.js';
import { useSession } from '../../repositories/sessions.js';
import type { StageBaseContext } from '../state.js';
import type { WorkflowEngine } from './durable.js';
import { embeddedSheets } from './sheets-embedded.js';
import { googleSheets, SPREADSHEET_SCOPES } from './sheets-google.js';
import type { SheetsProvider } from './sheets.js';

type Fields = Record<string, unknown>;

/** What a block runs with: the context, the app, the caller, and the step's place in the run. */
export interface BlockEnv {
  ctx: StageBaseContext;
  /** The instance's workflow engine: the app backends' fetch and runner (blocks-more.ts). */
  engine: WorkflowEngine;
  app: AppRow;
  identity: Identity;
  runId: string;
  index: number;
  /** `<runId>:<stepPath>:<attempt>`: what a step with side effects sends as its idempotency key. */
  key?: string;
  /** A top-level step's first attempt: the platform blocks keep their `<runId>-<index>` key. */
  legacyKey?: boolean;
  /** Where failures that are not the caller's to read go (the request's logger). */
  log: RunLog;
}

/** The part of a pino / Fastify logger a run uses. */
export interface RunLog {
  error(details: object, message: string): void;
}

/** A peer's failure as this run's: its refusals as 400/403/429, its outages as 502. */
export function peerError(service: string, error: unknown): Error {
  if (error instanceof ApiError) return error;
  if (!isPlatformError(error))
    return badGateway(`The ${service} service cannot be reached: ${(error as Error).message}`);
  const what = `The ${service} service refused it (${error.status} ${error.code}): ${error.message}`;
  if (error.status === 401 || error.status === 403) return new ApiError('FORBIDDEN', what);
  if (error.status === 429) return new ApiError('RATE_LIMITED', what);
  if (error.status >= 400 && error.status < 500) return badRequest(what);
  return badGateway(
    `The ${service} service failed (${error.status} ${error.code}): ${error.message}`,
  );
}

async function calling<T>(service: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw peerError(service, error);
  }
}

const client = (env: BlockEnv, headers: Record<string, string> = {}) =>
  env.ctx.platformFor(env.identity, { 'x-stage-app': env.app.sid, ...headers });

/** The caller's email: a signed-in person, or the person a service acts for. */
export const emailOf = (identity: Identity) =>
  identity.kind === 'user'
    ? identity.email
    : identity.kind === 'service'
      ? identity.user
      : undefined;

/** A dedupe key of this step of this run (pulse ids, communication's Idempotency-Key). */
export const stepKey = (env: BlockEnv) =>
  env.key !== undefined && !env.legacyKey ? env.key : `${env.runId}-${env.index}`;

/** The step's key as an id of letters, digits, _ and - (pulse event ids). */
const stepId = (env: BlockEnv) => {
  const key = stepKey(env);
  return /^[A-Za-z0-9_-]{1,64}$/.test(key)
    ? key
    : `${env.runId}-${createHash('sha256').update(key).digest('hex').slice(0, 24)}`;
};

const appLabel = (app: AppRow) => `${app.name} (${app.sid})`;

export async function communicationSend(env: BlockEnv, fields: Fields) {
  const channelId = fields.channelId as string;
  const comm = client(env).communication;
  const channel = await comm.getChannel({ path: { id: channelId } }).catch((error: unknown) => {
    if (isPlatformError(error) && error.status === 404)
      throw badRequest(`Channel not found: ${channelId} (communication)`);
    throw peerError('communication', error);
  });
  const named = `channel ${channel.name} (${channel.id})`;
  if (channel.status !== 'active') throw badRequest(`The ${named} is ${channel.status}`);
  const registrations = await calling('communication', () =>
    comm.listRegistrations({ path: { appId: env.app.sid }, query: { channelId: channel.id } }),
  );
  const registration = registrations.find((r) => r.channelId === channel.id);
  if (!registration)
    throw badRequest(
      `App ${appLabel(env.app)} has no registration on ${named}: register it with POST /api/v1/communication/apps/${env.app.sid}/channels`,
    );
  if (!registration.enabled)
    throw badRequest(
      `The registration ${registration.id} of app ${appLabel(env.app)} on ${named} is disabled`,
    );
  const sent = await calling('communication', () =>
    client(env, { 'idempotency-key': `stage-${stepKey(env)}` }).communication.send({
      path: { appId: env.app.sid },
      body: {
        channelId: channel.id,
        text: fields.text as string,
        ...pick(fields, ['subject', 'html', 'to', 'metadata']),
      },
    }),
  );
  const { delivery } = sent;
  // No delivery: the send joined a digest, sent once at its flushAt.
  return {
    deliveryId: delivery?.id ?? null,
    status: delivery?.status ?? 'digested',
    channelId: delivery?.channelId ?? channel.id,
    registrationId: registration.id,
    provider: sent.provider,
    target: delivery?.target ?? null,
    live: sent.live,
    ...(sent.digest ? { digest: sent.digest } : {}),
  };
}

const pick = (fields: Fields, keys: string[]) =>
  Object.fromEntries(keys.filter((k) => fields[k] != null).map((k) => [k, fields[k]]));

export function billingCreateItem(env: BlockEnv, fields: Fields) {
  const author = emailOf(env.identity);
  const body = {
    ...fields,
    stageApp: fields.stageApp ?? env.app.sid,
    ...(fields.author == null && author ? { author } : {}),
  };
  return calling('billing', () =>
    client(env).billing.createItem({ body: body as unknown as { name: string; amount: number } }),
  );
}

export function pulseTrack(env: BlockEnv, fields: Fields) {
  const body = { ...fields, id: fields.id ?? stepId(env) };
  return calling('pulse', () =>
    client(env).pulse.trackEvent({ body: body as unknown as { name: string } }),
  );
}

export function ledgerLog(env: BlockEnv, fields: Fields) {
  const body = {
    ...fields,
    actor: fields.actor ?? describeIdentity(env.identity),
    service: fields.service ?? 'stage',
  };
  return calling('ledger', () =>
    client(env).ledger.createEvent({ body: body as unknown as { action: string } }),
  );
}

/** The caller's delegated Google token, from the identity service (as git gets GitHub's). */
function googleToken(env: BlockEnv, user: string): Promise<string> {
  const provider = env.ctx.config.workflows.googleProvider;
  return delegatedToken({
    provider,
    user,
    what: 'Google token',
    unauthorized: 'FORBIDDEN',
    getToken: () =>
      env.ctx.platformFor(env.identity).passport.getToken({ body: { provider, user } }),
    unknownProvider: (message) =>
      `STAGE_GOOGLE_PROVIDER ${provider} is not a provider of the identity service (${message})`,
  });
}

/** The spreadsheet provider of this run: embedded, or Google as the caller (checked first). */
export async function sheetsFor(env: BlockEnv): Promise<SheetsProvider> {
  const { ctx, app, identity } = env;
  if (ctx.config.workflows.sheetsProvider === 'embedded') return embeddedSheets(ctx.db, app.sid);
  const user = emailOf(identity);
  if (!user)
    throw new ApiError(
      'FORBIDDEN',
      `Google Sheets acts as the signed-in user, and the caller (${describeIdentity(identity)}) is not one`,
    );
  if (!ctx.auth.enabled)
    throw new ApiError(
      'FORBIDDEN',
      'Authentication is off, so there are no delegated Google tokens: turn it on, or set STAGE_SHEETS_PROVIDER=embedded',
    );
  const session = await useSession(ctx.db, app.session_id);
  if (!session.google_scopes.some((scope) => SPREADSHEET_SCOPES.includes(scope)))
    throw new ApiError(
      'FORBIDDEN',
      `The Google scopes of session ${session.id} (app ${appLabel(app)}) include no spreadsheets scope: PUT /api/v1/stage/sessions/${session.id}/google-scopes with ${SPREADSHEET_SCOPES[0]}`,
    );
  let token: Promise<string> | undefined;
  return googleSheets(ctx.config.workflows, user, () => (token ??= googleToken(env, user)));
}
