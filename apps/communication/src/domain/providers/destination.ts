import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import {
  checkedAddresses as checked,
  guardedLookup as guarded,
  PrivateTargetError,
  UnresolvedTargetError,
  type TargetPolicy,
} from '@platform/core';
import { permanent, transient } from './errors.js';

const policy = (allowPrivate: boolean): TargetPolicy => ({
  allowPrivate,
  setting: 'COMMUNICATION_ALLOW_PRIVATE_TARGETS',
});

/**
 * The addresses `host` resolves to (libs/core's private-address guard): a refused address fails
 * the delivery permanently; a name that does not resolve, transiently.
 */
export async function checkedAddresses(
  host: string,
  allowPrivate: boolean,
  what: string,
): Promise<LookupAddress[]> {
  try {
    return await checked(host, policy(allowPrivate), what);
  } catch (error) {
    if (error instanceof PrivateTargetError) throw permanent(error.message);
    if (error instanceof UnresolvedTargetError) throw transient(error.message);
    throw error;
  }
}

/** The same check at connection time (DNS rebinding). */
export const guardedLookup = (allowPrivate: boolean): LookupFunction =>
  guarded(policy(allowPrivate));
