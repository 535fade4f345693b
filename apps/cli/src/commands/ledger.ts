import { serviceCommand, type ServiceSpec } from '../generic.js';
import type { Command } from 'commander';

export const ledgerSpec: ServiceSpec = {
  service: 'ledger',
  describe: 'Audit events, retention policies, field classifications',
  resources: {
    events: {
      verbs: {
        list: { op: 'listEvents', columns: ['id', 'action', 'actor', 'resource', 'timestamp'] },
        get: 'getEvent',
        create: { op: 'createEvent', args: ['action'] },
        heads: { op: 'listSignedHeads', columns: ['id', 'chain', 'seq', 'signedAt'] },
        sign: { op: 'signHead', describe: 'Sign the chain heads now' },
      },
    },
    policies: {
      singular: 'policy',
      verbs: {
        list: { op: 'listPolicies', columns: ['id', 'name', 'retentionDays', 'scope', 'action'] },
        get: 'getPolicy',
        create: { op: 'createPolicy', args: ['name'] },
        delete: 'deletePolicy',
        apply: 'applyPolicy',
      },
    },
    classifications: {
      verbs: {
        list: { op: 'listClassifications', columns: ['id', 'serviceId', 'field', 'level'] },
        get: 'getClassification',
        create: 'createClassification',
        delete: 'deleteClassification',
      },
    },
  },
  verbs: {
    verify: { op: 'verifyEvents', describe: 'Verify the audit log (hash chains and signed heads)' },
    'signing-key': {
      op: 'getSigningKey',
      describe: 'The public key (Ed25519) that checks the signed chain heads',
    },
  },
};

export const ledgerCommands = (program: Command) => serviceCommand(program, ledgerSpec);
