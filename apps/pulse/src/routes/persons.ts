import { notFound, ok, responses } from '@platform/core';
import { distinctIdsOf, personOf } from '../repositories/persons.js';
import { PersonParams, PersonSchema, toPerson } from '../schemas/persons.js';
import type { PulseRoutes } from '../domain/state.js';

export const personRoutes: PulseRoutes = async (app, { db }) => {
  app.get(
    '/persons/:distinctId',
    {
      // A read: never a pulse:ingest key's (write-only keys read nothing).
      config: { access: { resource: 'pulse.person', action: 'read' } },
      schema: {
        operationId: 'getPerson',
        summary: 'Get a person by any of its distinct ids',
        description:
          'The person an id names (merged ids answer the same person): its properties, whether it is identified, and every distinct id. 404 when no event named the id (or its events skipped person processing).',
        params: PersonParams,
        response: responses({ 200: PersonSchema }),
      },
    },
    async (request) => {
      const person = await personOf(db, request.params.distinctId);
      if (!person) throw notFound('Person', request.params.distinctId);
      return ok(toPerson(person, await distinctIdsOf(db, person.id)));
    },
  );
};
