import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import {
  checkedAddresses,
  guardedLookup,
  JobFailure,
  PrivateTargetError,
  refusal,
} from '@platform/core';
import { targetPolicy } from './destination.js';

/**
 * POSTs one webhook delivery: the target's addresses checked first (GIT_ALLOW_PRIVATE_TARGETS),
 * and again at connection time; redirects never followed; the answer's body never read past its
 * status. Throws JobFailure for a refusal that will not change (a private target, a 3xx, a 4xx
 * other than 408 and 429), a plain Error for what deserves another attempt. Messages name the
 * host and the status only (a URL may carry a token).
 */
export async function postDelivery(
  target: string,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; signal: AbortSignal; allowPrivate: boolean },
): Promise<number> {
  const url = new URL(target);
  const policy = targetPolicy(options.allowPrivate);
  try {
    await checkedAddresses(url.hostname, policy, 'The webhook target');
  } catch (error) {
    if (error instanceof PrivateTargetError) throw new JobFailure(error.message);
    throw error;
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const signal = AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]);
  const status = await new Promise<number>((resolve, reject) => {
    const req = send(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: guardedLookup(policy),
        signal,
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', (error: Error & { code?: string }) => {
      if (error.code === 'EPRIVATEADDRESS')
        reject(new JobFailure(`The webhook target ${refusal(url.host, policy)}`));
      else if (signal.aborted) reject(new Error(`${url.host} did not answer in time`));
      else reject(new Error(`${url.host} could not be reached (${error.code ?? error.message})`));
    });
    req.end(body);
  });
  if (status >= 200 && status < 300) return status;
  const message = `${url.host} answered HTTP ${status}`;
  // A refusal stays a refusal; a busy or failing receiver is tried again later.
  if (status < 500 && status !== 408 && status !== 429) throw new JobFailure(message);
  throw new Error(message);
}
