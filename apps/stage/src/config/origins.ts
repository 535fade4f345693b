import { ConfigError, declareVariables, Var, type Env } from '@platform/core';

// Every preview and every published app is served from an origin of its own (issue 32): by
// default http://<label>.apps.localhost:<port> and http://<label>.preview.localhost:<port>
// (browsers resolve *.localhost to the loopback), where the label is the app's sid (or the
// session's id) in hex: ids are case-sensitive and host names are not, so the label must map
// back one to one. The gateway routes these hosts to /__apps/<label>/ and /__previews/<label>/.

const DOMAIN =
  /^(?=.{1,200}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
/** A domain as compared: lower case, no leading or trailing dot. */
const domainOf = (value: string) => value.toLowerCase().replace(/^\.+|\.+$/g, '');
const checkDomain = (value: string) =>
  DOMAIN.test(domainOf(value)) ? undefined : `must be a domain name, got "${value}"`;

const VARIABLES = declareVariables({
  STAGE_APPS_DOMAIN: Var.string({
    default: 'apps.localhost',
    accepts: 'a domain name',
    check: checkDomain,
    description:
      'Sandbox: a published app is served on its own origin `<label>.<this>` (the sid in hex); in production a wildcard DNS entry and certificate (apps.example.com)',
  }),
  STAGE_PREVIEW_DOMAIN: Var.string({
    default: 'preview.localhost',
    accepts: 'a domain name',
    check: checkDomain,
    description:
      "Sandbox: a session's preview is served on its own origin `<label>.<this>`; must not overlap the apps domain",
  }),
  PUBLIC_URL: Var.string({
    documentedDefault: 'http(s)://localhost:<the port a request came to>',
    accepts: 'an http(s) origin',
    check: (url) =>
      /^https?:\/\/[^/]+\/?$/.test(url)
        ? undefined
        : `must be an http(s) origin without a path, got "${url}"`,
    description:
      'Sandbox: where visitors of private apps sign in and the sandbox UI frames previews from (required when the apps domains are not under localhost)',
  }),
  STAGE_VISITOR_SESSION_MINUTES: Var.int({
    default: 60,
    min: 1,
    max: 7 * 24 * 60,
    description:
      "Sandbox: how long a sign-in handed to an app's or preview's origin lasts there, in minutes, before the visitor is sent through the platform again",
  }),
});

export const ORIGIN_VARIABLES = VARIABLES.variables;

export function originConfig(env: Env) {
  const values = VARIABLES.read(env);
  const appsDomain = domainOf(values.STAGE_APPS_DOMAIN);
  const previewDomain = domainOf(values.STAGE_PREVIEW_DOMAIN);
  for (const [name, value] of [['STAGE_APPS_DOMAIN', appsDomain], ['STAGE_PREVIEW_DOMAIN', previewDomain]]) // prettier-ignore
    if (!value.includes('.'))
      throw new ConfigError(name, `must be a subdomain (${value}.<name> would take every host under ${value}, the platform's own included), e.g. apps.${value}`); // prettier-ignore
  if (appsDomain === previewDomain || appsDomain.endsWith(`.${previewDomain}`) || previewDomain.endsWith(`.${appsDomain}`)) // prettier-ignore
    throw new ConfigError('STAGE_PREVIEW_DOMAIN', `must not overlap STAGE_APPS_DOMAIN (${appsDomain})`); // prettier-ignore
  const publicUrl = values.PUBLIC_URL;
  const local = (domain: string) => domain === 'localhost' || domain.endsWith('.localhost');
  if (!publicUrl && !(local(appsDomain) && local(previewDomain)))
    throw new ConfigError('PUBLIC_URL', `must be set when apps are served at ${appsDomain} and ${previewDomain}: their visitors sign in there`); // prettier-ignore
  if (
    publicUrl &&
    [appsDomain, previewDomain].some((d) => new URL(publicUrl).hostname.endsWith(`.${d}`))
  )
    // prettier-ignore
    throw new ConfigError('PUBLIC_URL', `must not be under ${appsDomain} or ${previewDomain}`);
  return {
    appsDomain,
    previewDomain,
    publicUrl: publicUrl?.replace(/\/$/, ''),
    visitorMinutes: values.STAGE_VISITOR_SESSION_MINUTES,
  };
}

export type OriginConfig = ReturnType<typeof originConfig>;
