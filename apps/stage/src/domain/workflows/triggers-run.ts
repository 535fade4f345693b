// Starting runs from triggers (issue 40): a signed webhook delivery, a schedule's tick. Both
// start the run asynchronously, as the app itself (its backend's identity).
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  ApiError,
  decryptSecret,
  deriveKey,
  encryptSecret,
  notConfigured,
  type Identity,
} from '@platform/core';
import type { AppRow } from '../../database/index.js';
import { appForBackend } from '../../repositories/backends.js';
import { readFile } from '../../repositories/files.js';
import {
  claimTick,
  ensureWebhook,
  findWebhook,
  lastTick,
  publishedApps,
  pruneTicks,
  recordTickRun,
} from '../../repositories/workflow-triggers.js';
import type { StageBaseContext } from '../state.js';
import { parseWorkflow, WORKFLOWS_FILE } from './definition.js';
import type { WorkflowEngine } from './durable.js';
import { runWorkflow } from './run.js';
import { cronOf } from './triggers.js';

/** A delivery signed longer ago (or later) than this is refused: a replay. */
export const WEBHOOK_TOLERANCE_S = 300;

/** The key webhook secrets are sealed with (and their tokens made with), from SESSION_SECRET. */
function webhookKey(ctx: StageBaseContext) {
  const secret = ctx.auth.sessionSecret;
  if (!secret)
    throw notConfigured(
      'Workflow webhook secrets are stored encrypted under a key derived from SESSION_SECRET, which is not set',
    );
  return deriveKey(secret, 'stage workflow webhooks');
}

/**
 * A workflow's webhook token (in its URL): an HMAC of the app and workflow under a key from
 * SESSION_SECRET, so it cannot be guessed and need not be stored: the database keeps its SHA-256
 * only (tokenHash), which a delivery is looked up by.
 */
function webhookToken(key: Buffer, appSid: string, workflow: string) {
  const mac = createHmac('sha256', key).update(`token\0${appSid}\0${workflow}`).digest();
  return `wh_${mac.subarray(0, 24).toString('base64url')}`;
}

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** The workflow's webhook: its token and secret (the secret made and sealed the first time). */
export async function webhookOf(ctx: StageBaseContext, app: AppRow, workflow: string) {
  const key = webhookKey(ctx);
  const token = webhookToken(key, app.sid, workflow);
  const made = {
    token: tokenHash(token),
    secret: encryptSecret(key, `whsec_${randomBytes(24).toString('base64url')}`),
  };
  const row = await ensureWebhook(ctx.db, app.sid, workflow, made);
  return { token, secret: decryptSecret(key, row.secret) };
}

/** What every refused delivery is told: nothing of whether the URL exists. */
const refused = () =>
  new ApiError(
    'UNAUTHORIZED',
    'The delivery is not signed for this webhook URL: X-Platform-Signature must be sha256=<hex HMAC-SHA256 of "<X-Platform-Timestamp>.<body>"> with the webhook\'s secret',
  );

/** 401 unless `signature` is sha256=HMAC(secret, "<timestamp>.<body>") with a recent timestamp. */
export function verifySignature(
  secret: string,
  raw: Buffer,
  timestamp: unknown,
  signature: unknown,
) {
  checkTimestamp(timestamp);
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${timestamp as string}.`).update(raw).digest('hex')}`); // prettier-ignore
  const given = Buffer.from(typeof signature === 'string' ? signature : '');
  // Compared on equal lengths only (timingSafeEqual throws otherwise): a wrong length is refused.
  const same = given.length === expected.length && timingSafeEqual(given, expected);
  if (!same) throw refused();
}

/** 401 unless the timestamp is Unix seconds within WEBHOOK_TOLERANCE_S of now, either way. */
function checkTimestamp(timestamp: unknown) {
  if (typeof timestamp !== 'string' || !/^\d{1,12}$/.test(timestamp))
    throw new ApiError('UNAUTHORIZED', 'X-Platform-Timestamp is required (Unix seconds)');
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > WEBHOOK_TOLERANCE_S)
    throw new ApiError('UNAUTHORIZED', `X-Platform-Timestamp is more than ${WEBHOOK_TOLERANCE_S} s away from now`); // prettier-ignore
}

/**
 * The webhook a signed delivery is for. An unknown token is refused as a bad signature is (the
 * same 401, after an HMAC of the same cost), so the answer tells nothing of which tokens exist.
 */
export async function verifyDelivery(
  ctx: StageBaseContext,
  token: string,
  raw: Buffer,
  headers: Record<string, unknown>,
) {
  const timestamp = headers['x-platform-timestamp'];
  const signature = headers['x-platform-signature'];
  checkTimestamp(timestamp);
  const hook = ctx.auth.sessionSecret ? await findWebhook(ctx.db, tokenHash(token)) : undefined;
  if (!hook) {
    try {
      verifySignature(randomBytes(24).toString('base64url'), raw, timestamp, signature);
    } catch {
      // Refused below, as a bad signature is.
    }
    throw refused();
  }
  verifySignature(decryptSecret(webhookKey(ctx), hook.secret), raw, timestamp, signature);
  return hook;
}

/** Who a triggered run acts as: the app, as its backend does. */
async function appIdentity(
  ctx: StageBaseContext,
  engine: WorkflowEngine,
  sid: string,
): Promise<Identity> {
  const found = await appForBackend(ctx.db, sid);
  if (!found) throw new ApiError('NOT_FOUND', `App not found: ${sid}`);
  return engine.backends.identityOf(found);
}

/** Starts a triggered run (not waiting for it); its id. */
export async function startTriggered(
  ctx: StageBaseContext,
  engine: WorkflowEngine,
  app: { sid: string },
  workflow: string,
  trigger: 'webhook' | 'schedule' | 'event',
  input: Record<string, unknown>,
  idempotencyKey?: string,
) {
  const run = await runWorkflow(ctx, engine, {
    app: app.sid,
    workflow,
    input,
    identity: await appIdentity(ctx, engine, app.sid),
    trigger,
    waitMs: 0,
    ...(idempotencyKey ? { idempotencyKey } : {}),
  });
  return run;
}

/** The workflows with triggers of every published app (a file or workflow that does not parse: skipped). */
export async function* triggeredWorkflows(ctx: StageBaseContext) {
  for (const app of await publishedApps(ctx.db)) {
    let content: string;
    try {
      content = (await readFile(ctx.db, app.session_id, WORKFLOWS_FILE)).content;
    } catch {
      continue;
    }
    let names: string[];
    try {
      names = Object.keys((JSON.parse(content) as { workflows?: object }).workflows ?? {});
    } catch {
      continue;
    }
    for (const name of names) {
      let triggers;
      try {
        triggers = parseWorkflow(app.name, content, name).triggers ?? [];
      } catch {
        continue;
      }
      if (triggers.length > 0) yield { app, name, triggers };
    }
  }
}

/**
 * The schedule sweep (a periodic job: one instance at a time): for each schedule trigger of every
 * published app's workflows, the ticks due since the last one fired (at most one: a tick missed
 * while no instance ran fires once), each claimed in the database before its run starts, so a
 * tick fires once however many instances look.
 */
export async function fireSchedules(ctx: StageBaseContext, engine: WorkflowEngine, tickMs: number) {
  const now = new Date();
  let fired = 0;
  for await (const { app, name, triggers } of triggeredWorkflows(ctx)) {
    for (const [index, trigger] of triggers.entries()) {
      if (!('schedule' in trigger)) continue;
      const since = (await lastTick(ctx.db, app.sid, name, index)) ?? new Date(now.getTime() - tickMs); // prettier-ignore
      const cron = cronOf(trigger.schedule);
      const due = cron.nextRun(since);
      cron.stop();
      if (!due || due > now) continue;
      if (!(await claimTick(ctx.db, app.sid, name, index, due))) continue;
      const tick = { appSid: app.sid, workflow: name, trigger: index, tickAt: due };
      try {
        const run = await startTriggered(ctx, engine, app, name, 'schedule', { scheduledAt: due.toISOString() }, `schedule:${name}:${index}:${due.toISOString()}`); // prettier-ignore
        await recordTickRun(ctx.db, tick, run.id);
        fired++;
      } catch (error) {
        ctx.log.error({ err: error, app: app.sid, workflow: name }, 'a workflow schedule did not start'); // prettier-ignore
      }
    }
  }
  await pruneTicks(ctx.db);
  return { fired };
}
