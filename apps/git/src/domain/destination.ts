import type { TargetPolicy } from '@platform/core';

/** Webhooks of local repositories reach private addresses only with GIT_ALLOW_PRIVATE_TARGETS. */
export const targetPolicy = (allowPrivate: boolean): TargetPolicy => ({
  allowPrivate,
  setting: 'GIT_ALLOW_PRIVATE_TARGETS',
});
