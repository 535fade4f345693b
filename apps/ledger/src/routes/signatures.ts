import { ApiError, notConfigured, ok, responses, Type } from '@platform/core';
import { listSignedHeads } from '../repositories/signed-heads.js';
import {
  SignedHeadListQuery,
  SignedHeadSchema,
  SigningKeySchema,
  toSignedHead,
} from '../schemas/signatures.js';
import { headStatement, signHead } from '../domain/signing.js';
import type { LedgerRoutes } from '../domain/state.js';

const SIGNING_OFF = 'Signing is off: LEDGER_SIGNING_KEY is not set on the audit service';

/** Signed chain heads and the public key that checks them (README "Signed chain heads"). */
export const signatureRoutes: LedgerRoutes = async (app, { db, config }) => {
  const key = config.signingKey;

  app.post(
    '/events/heads',
    {
      config: { access: { resource: 'ledger.signature', action: 'manage', rule: 'admin' } },
      schema: {
        operationId: 'signHead',
        summary: 'Sign the chain head now',
        description:
          'Signs the current chain head with LEDGER_SIGNING_KEY: 201 with the new signed head, or 200 with the latest one when the head has not moved since. 409 NOT_CONFIGURED when no key is configured; 409 CONFLICT when the chain no longer passes through the last signed head.',
        response: responses({ 200: SignedHeadSchema, 201: SignedHeadSchema }),
      },
    },
    async (request, reply) => {
      if (!key) throw notConfigured(SIGNING_OFF);
      const { head, created } = await signHead(db, key);
      // The log keeps a copy of every signed head outside the database.
      if (created)
        request.log.info(
          { signedHead: { statement: headStatement(head), signature: head.signature } },
          'chain head signed',
        );
      return reply.code(created ? 201 : 200).send(ok(toSignedHead(head)));
    },
  );

  app.get(
    '/events/heads',
    {
      config: { access: { resource: 'ledger.signature', action: 'read', rule: 'admin' } },
      schema: {
        operationId: 'listSignedHeads',
        summary: 'List signed chain heads, newest first',
        querystring: SignedHeadListQuery,
        response: responses({ 200: Type.Array(SignedHeadSchema) }),
      },
    },
    async (request) => ok((await listSignedHeads(db, request.query)).map(toSignedHead)),
  );

  app.get(
    '/events/signing-key',
    {
      config: { access: { resource: 'ledger.signature', action: 'read' } },
      schema: {
        operationId: 'getSigningKey',
        summary: 'The public key that checks signed chain heads',
        description: 'Ed25519, PEM (SubjectPublicKeyInfo). 404 NOT_FOUND when signing is off.',
        response: responses({ 200: SigningKeySchema }),
      },
    },
    async () => {
      if (!key)
        throw new ApiError(
          'NOT_FOUND',
          'Signing key not found: LEDGER_SIGNING_KEY is not set, so chain heads are not signed',
        );
      return ok({ algorithm: key.algorithm, keyId: key.keyId, publicKey: key.publicKeyPem });
    },
  );
};
