import type { ServiceManifest } from '@platform/core';
import { billing } from '@platform/billing';
import { catalog } from '@platform/catalog';
import { communication } from '@platform/communication';
import { git } from '@platform/git';
import { inference } from '@platform/inference';
import { ledger } from '@platform/ledger';
import { palette } from '@platform/palette';
import { passport } from '@platform/passport';
import { pulse } from '@platform/pulse';
import { stage } from '@platform/stage';

/** Every service the gateway can mount, in dashboard order. */
export const SERVICES: readonly ServiceManifest[] = [
  ledger,
  catalog,
  palette,
  billing,
  pulse,
  passport,
  communication,
  stage,
  inference,
  git,
];
