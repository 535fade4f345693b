import { Agent, request } from 'undici';
import { checkedAddresses, guardedLookup } from './destination.js';
import { permanent, transient } from './errors.js';

const MAX_ANSWER = 64 * 1024;

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Only to find a message id in: never put it into a delivery's error or message id as is. */
  text: string;
}

/** One connection pool per setting: private addresses refused at connection time, or not. */
const agents = new Map<boolean, Agent>();
const agentFor = (allowPrivate: boolean) => {
  let agent = agents.get(allowPrivate);
  if (!agent) {
    agent = new Agent({ connect: { lookup: guardedLookup(allowPrivate) } });
    agents.set(allowPrivate, agent);
  }
  return agent;
};

/**
 * POSTs a JSON body with a time limit for the whole exchange. The host must not resolve to a
 * loopback, private, link-local or unspecified address (unless `allowPrivate`), checked before
 * and again when connecting. Redirects are never followed (a 3xx fails the attempt permanently: a
 * channel's URL is set on purpose); an answer is read up to 64 KiB. Errors name the host and the
 * status only: a URL may carry a token (Slack's does), and the answer's text is never repeated
 * (a destination's answer must not become readable through the API).
 */
export async function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; signal: AbortSignal; allowPrivate: boolean },
): Promise<HttpAnswer> {
  const { host, hostname } = new URL(url);
  await checkedAddresses(hostname, options.allowPrivate, 'The destination');
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = AbortSignal.any([options.signal, timeout]);
  try {
    const res = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      signal,
      dispatcher: agentFor(options.allowPrivate),
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
    let text = '';
    for await (const chunk of res.body) {
      text += (chunk as Buffer).toString('utf8');
      if (text.length >= MAX_ANSWER) {
        res.body.destroy();
        break;
      }
    }
    const status = res.statusCode;
    if (status >= 300 && status < 400)
      throw permanent(`${host} answered ${status}, a redirect, which is not followed`);
    if (status >= 400) {
      const message = `${host} answered ${status}`;
      const again = status >= 500 || status === 408 || status === 429;
      throw again ? transient(message) : permanent(message);
    }
    return { status, headers: res.headers, text: text.slice(0, MAX_ANSWER) };
  } catch (error) {
    if (error instanceof Error && error.name === 'DeliveryError') throw error;
    if (options.signal.aborted) throw error;
    if (timeout.aborted) throw transient(`${host} did not answer within ${options.timeoutMs} ms`);
    const code = (error as { code?: string; cause?: { code?: string } }).code;
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    if (code === 'EPRIVATEADDRESS' || cause === 'EPRIVATEADDRESS')
      throw permanent(
        `The destination ${host} is a loopback, private, link-local or unspecified address, refused (COMMUNICATION_ALLOW_PRIVATE_TARGETS is not true)`,
      );
    throw transient(`${host} could not be reached (${cause ?? code ?? 'connection failed'})`);
  }
}
