// Event triggers (issue 40): `{ event: "git.push", match? }` fires the workflow for each platform
// event of that action the ledger records. A periodic job (one instance at a time) reads the
// ledger after a cursor (`workflow_cursors`, the last `seq` read), as the service itself, and
// starts one run per event and matching workflow, with the idempotency key
// `event:<eventId>:<app>:<workflow>`: a poll repeated after a crash starts nothing twice.
import type { StageBaseContext } from '../state.js';
import { forgetCursor, moveCursor, readCursor } from '../../repositories/workflow-triggers.js';
import type { WorkflowEngine } from './durable.js';
import { truthy } from './expressions.js';
import { startTriggered, triggeredWorkflows } from './triggers-run.js';

/** The cursor's name in `workflow_cursors`. */
export const EVENTS_CURSOR = 'ledger-events';
/** Events read per action and poll, at most (the rest on the next poll). */
export const EVENTS_PAGE = 100;

type LedgerEvent = Awaited<
  ReturnType<StageBaseContext['platform']['ledger']['listEvents']>
>[number];

interface Listener {
  app: { sid: string };
  workflow: string;
  match?: string;
}

/** The published workflows listening to each action. */
async function listeners(ctx: StageBaseContext) {
  const byAction = new Map<string, Listener[]>();
  for await (const { app, name, triggers } of triggeredWorkflows(ctx))
    for (const trigger of triggers) {
      if (!('event' in trigger)) continue;
      const list = byAction.get(trigger.event) ?? [];
      list.push({ app, workflow: name, ...(trigger.match ? { match: trigger.match } : {}) });
      byAction.set(trigger.event, list);
    }
  return byAction;
}

/** Whether the trigger's `match` (a `{{ }}` expression over `event`) lets this event fire it. */
async function matches(ctx: StageBaseContext, listener: Listener, event: LedgerEvent) {
  if (listener.match === undefined) return true;
  try {
    return await truthy(listener.match, { event }, `Workflow ${listener.workflow}: match`);
  } catch (error) {
    ctx.log.error({ err: error, app: listener.app.sid, workflow: listener.workflow }, 'a workflow event match failed'); // prettier-ignore
    return false;
  }
}

/**
 * One poll: the events after the cursor of the actions some workflow listens to, in chain order;
 * a run per event and matching workflow; then the cursor moved past them. The head of the chain
 * (read first) moves the cursor when nothing listened to happened, so a workflow published later
 * does not fire for events recorded before it. Without a cursor yet, it starts at the head.
 */
export async function pollEvents(ctx: StageBaseContext, engine: WorkflowEngine) {
  const byAction = await listeners(ctx);
  // Nobody listens: no call to the ledger, and a workflow published later starts at the head.
  if (byAction.size === 0) {
    await forgetCursor(ctx.db, EVENTS_CURSOR);
    return { started: 0 };
  }
  const ledger = ctx.platform.ledger;
  const [newest] = await ledger.listEvents({ query: { limit: 1 } });
  const head = newest?.seq ?? 0;
  const stored = await readCursor(ctx.db, EVENTS_CURSOR);
  if (stored === undefined) {
    await moveCursor(ctx.db, EVENTS_CURSOR, String(head));
    return { started: 0 };
  }
  const cursor = Number(stored);
  const pages = await Promise.all(
    [...byAction.keys()].map((action) =>
      ledger.listEvents({ query: { action, afterSeq: cursor, limit: EVENTS_PAGE } }),
    ),
  );
  // A full page may have more after it: only the events up to the lowest full page's last are
  // certain to be all there are.
  let bound = Infinity;
  for (const page of pages) if (page.length === EVENTS_PAGE) bound = Math.min(bound, page.at(-1)!.seq); // prettier-ignore
  const events = pages
    .flat()
    .filter((event) => event.seq <= bound)
    .sort((a, b) => a.seq - b.seq);
  let started = 0;
  for (const event of events)
    for (const listener of byAction.get(event.action) ?? []) {
      if (!(await matches(ctx, listener, event))) continue;
      const key = `event:${event.id}:${listener.app.sid}:${listener.workflow}`;
      try {
        await startTriggered(ctx, engine, listener.app, listener.workflow, 'event', { event }, key); // prettier-ignore
        started++;
      } catch (error) {
        ctx.log.error({ err: error, app: listener.app.sid, workflow: listener.workflow, event: event.id }, 'a workflow event trigger did not start'); // prettier-ignore
      }
    }
  const last = events.at(-1)?.seq ?? cursor;
  const next = bound === Infinity ? Math.max(cursor, head, last) : bound;
  await moveCursor(ctx.db, EVENTS_CURSOR, String(next));
  return { started, events: events.length, cursor: next };
}
