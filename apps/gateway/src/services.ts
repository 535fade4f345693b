import type { ServiceManifest } from '@platform/core';
import { billing } from '@platform/billing';
import { catalog } from '@platform/catalog';
import { communication } from '@platform/communication';
import { ledger } from '@platform/ledger';
import { palette } from '@platform/palette';
import { passport } from '@platform/passport';
import { pulse } from '@platform/pulse';

/** Every service the gateway can mount, in dashboard order. */
export const SERVICES: readonly ServiceManifest[] = [
  ledger,
  catalog,
  palette,
  billing,
  pulse,
  passport,
  communication,
];
