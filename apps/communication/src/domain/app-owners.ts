import { roleOf, type Access, type Ownership, type ServiceContext } from '@platform/core';
import { APP_ID_PATTERN } from '../schemas/registrations.js';

// An app's registrations, sends and deliveries belong to the app's owners (issue 31): the app is
// a published app of stage, `appId` its sid, and stage says who published it and its team.

/** Belongs to no one: admins (and platform services) only. */
const NO_ONE: Ownership = Object.freeze({ createdBy: null, team: null });
const APP_ID = new RegExp(APP_ID_PATTERN);
/** Beyond this, stage counts as unreachable: the app belongs to no one for this request. */
const STAGE_TIMEOUT_MS = 5000;

/**
 * The `owner` rule's loader for the routes under /apps/:appId: one call to stage
 * (`GET /stage/apps/:sid`) per request, only when the decision depends on it (not for admins, the
 * platform's services, nor anonymous callers). An appId that is not a stage app's exact sid (404,
 * or an app found by its name), or stage unreachable, belongs to no one: never open by failure.
 * An appId the schema refuses is undefined: the request's validation answers 400.
 */
export function appOwners(platform: ServiceContext['platform']): NonNullable<Access['owner']> {
  return async (request) => {
    const { appId } = (request.params ?? {}) as { appId?: unknown };
    if (typeof appId !== 'string' || appId.length > 100 || !APP_ID.test(appId)) return undefined;
    const role = roleOf(request.identity, true);
    if (role === undefined || role === 'admin') return NO_ONE;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(resolve, STAGE_TIMEOUT_MS, undefined);
    });
    try {
      const app = await Promise.race([platform.stage.getApp({ path: { sid: appId } }), timeout]);
      if (!app || app.sid !== appId) return NO_ONE;
      return { createdBy: app.createdBy, team: app.team };
    } catch (error) {
      request.log.warn({ err: error, appId }, 'communication: no owner of the app from stage');
      return NO_ONE;
    } finally {
      clearTimeout(timer);
    }
  };
}
