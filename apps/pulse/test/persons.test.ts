import { serviceUnderTest, useService } from '@platform/testing';
import { pulse } from '../src/index';

// Persons as PostHog keeps them: a person per distinct id, merged by $identify (an anonymous
// person only) and $create_alias, with $set, $set_once and $unset; answered by any of its ids.

const svc = useService(() => serviceUnderTest(pulse, { jobs: false }));

let seq = 0;
type Event = { event: string; distinct_id: string; properties?: object; uuid?: string };
const batch = async (...events: Event[]) => {
  const res = await svc.app.inject({
    method: 'POST',
    url: '/api/v1/pulse/posthog/batch/',
    payload: { batch: events.map((e) => ({ uuid: `e-${++seq}`, ...e })) },
  });
  expect(res.statusCode).toBe(200);
};
const person = async (id: string) => {
  const res = await svc.app.inject({ url: `/api/v1/pulse/persons/${id}` });
  return res.statusCode === 200 ? res.json().data : res.statusCode;
};

it('merges an anonymous person into the identified one, whose properties win', async () => {
  await batch(
    { event: '$pageview', distinct_id: 'anon', properties: { $set: { color: 'red', size: 1 } } },
    { event: 'x', distinct_id: 'user', properties: { $set: { color: 'blue' } } },
    { event: '$identify', distinct_id: 'user', properties: { $anon_distinct_id: 'anon' } },
  );
  const merged = await person('anon');
  expect(merged).toMatchObject({
    distinctIds: ['anon', 'user'],
    identified: true,
    properties: { color: 'blue', size: 1 },
  });
  expect((await person('user')).id).toBe(merged.id);
});

it('keeps every property of requests changing one person at once (none overwrites another)', async () => {
  await batch({ event: 'x', distinct_id: 'busy' });
  const keys = Array.from({ length: 16 }, (_, i) => `p${i}`);
  await Promise.all(
    keys.map((key) =>
      batch(
        // Events of names of their own: no two requests wait on one row of the rollups.
        { event: key, distinct_id: 'busy', properties: { $set: { [key]: 1 } } },
        {
          event: `${key}-y`,
          distinct_id: 'busy',
          properties: { $set_once: { [`${key}-once`]: 1 } },
        },
      ),
    ),
  );
  expect(Object.keys((await person('busy')).properties).sort()).toEqual(
    keys.flatMap((key) => [key, `${key}-once`]).sort(),
  );
});

it('never merges an identified person by $identify, only by $create_alias', async () => {
  await batch(
    { event: '$identify', distinct_id: 'ann', properties: { $set: { name: 'Ann' } } },
    { event: '$identify', distinct_id: 'bob', properties: { $anon_distinct_id: 'ann' } },
  );
  expect((await person('ann')).distinctIds).toEqual(['ann']);
  expect((await person('bob')).distinctIds).toEqual(['bob']);
  await batch({ event: '$create_alias', distinct_id: 'bob', properties: { alias: 'ann' } });
  expect(await person('ann')).toMatchObject({
    distinctIds: ['ann', 'bob'],
    properties: { name: 'Ann' },
    identified: true,
  });
});

it('gives an alias that named no one to the person, as PostHog does', async () => {
  await batch({ event: '$create_alias', distinct_id: 'main', properties: { alias: 'old-id' } });
  expect((await person('old-id')).distinctIds).toEqual(['main', 'old-id']);
});

it('applies $set_once, $set and $unset in order, and a retried event only once', async () => {
  await batch({
    event: 'a',
    distinct_id: 'p',
    uuid: 'first',
    properties: { $set_once: { source: 'ad', plan: 'x' }, $set: { plan: 'free', tmp: 1 } },
  });
  await batch({
    event: 'b',
    distinct_id: 'p',
    properties: { $set_once: { source: 'seo' }, $set: { plan: 'pro' }, $unset: ['tmp'] },
  });
  // The first event sent again (a retry): already stored, so its $set is not applied again.
  await batch({
    event: 'a',
    distinct_id: 'p',
    uuid: 'first',
    properties: { $set: { plan: 'free' } },
  });
  expect((await person('p')).properties).toEqual({ source: 'ad', plan: 'pro' });
});

it('makes no person for events that skip person processing, until identified', async () => {
  await batch({ event: 'v', distinct_id: 'ghost', properties: { $process_person_profile: false } });
  expect(await person('ghost')).toBe(404);
  await batch({
    event: '$identify',
    distinct_id: 'real',
    properties: { $anon_distinct_id: 'ghost' },
  });
  expect((await person('ghost')).distinctIds).toEqual(['ghost', 'real']);
});

it('answers 404 naming an id no event named', async () => {
  const res = await svc.app.inject({ url: '/api/v1/pulse/persons/nobody' });
  expect(res.statusCode).toBe(404);
  expect(res.json()).toEqual({
    success: false,
    error: { code: 'NOT_FOUND', message: expect.stringMatching(/Person.*nobody/) },
  });
});
