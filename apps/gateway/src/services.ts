import type { ServiceManifest } from '@platform/core';
import { billing } from '@platform/billing';
import { catalog } from '@platform/catalog';
import { ledger } from '@platform/ledger';
import { palette } from '@platform/palette';
import { pulse } from '@platform/pulse';

/** Every service the gateway can mount, in dashboard order. */
export const SERVICES: readonly ServiceManifest[] = [ledger, catalog, palette, billing, pulse];

/** Services that are off unless switched on (experimental ones). */
export const OFF_BY_DEFAULT: ReadonlySet<string> = new Set(['git']);
