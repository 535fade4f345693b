import { useService } from '@platform/testing';
import { catalogUnderTest } from './helpers';

const svc = useService(catalogUnderTest);

const names = async (query: string) =>
  (await svc.get(`/services${query}`)).body.data.map((s: { name: string }) => s.name);

/** A component as a Backstage catalog-info.yaml describes it, in the catalog's fields. */
const artistWeb = {
  name: 'artist-web',
  description: 'The place to be, for great artists',
  tags: ['java'],
  type: 'website',
  lifecycle: 'production',
  links: [
    {
      url: 'https://admin.example-org.com',
      title: 'Admin Dashboard',
      icon: 'dashboard',
      type: 'admin-dashboard',
    },
    { url: 'mailto:artists@example-org.com' },
  ],
  annotations: {
    'example.com/service-discovery': 'artistweb',
    'circleci.com/project-slug': 'github/example-org/artist-website',
    'backstage.io/techdocs-ref': 'dir:.',
    plain: '',
  },
};

describe('type, lifecycle, links and annotations', () => {
  it('keeps them (they used to be answered 201 and dropped) and returns them on get and list', async () => {
    const created = await svc.post('/services', artistWeb);
    expect(created.status).toBe(201);
    const { name: _name, ...kept } = artistWeb;
    expect(created.body.data).toMatchObject(kept);
    expect((await svc.get('/services/artist-web')).body.data).toEqual(created.body.data);
    expect((await svc.get('/services')).body.data).toEqual([created.body.data]);
  });

  it('filters by type and lifecycle, in any case', async () => {
    await svc.service('artist-web', { type: 'website', lifecycle: 'production' });
    await svc.service('artist-api', { type: 'service', lifecycle: 'experimental' });
    await svc.service('artist-lib', { type: 'library', lifecycle: 'production' });
    await svc.service('bare');
    expect(await names('?type=Website')).toEqual(['artist-web']);
    expect(await names('?lifecycle=production')).toEqual(['artist-lib', 'artist-web']);
    expect(await names('?lifecycle=production&type=library')).toEqual(['artist-lib']);
    expect(await names('?type=none')).toEqual([]);
  });

  it('changes them through PUT, replacing links and annotations; null clears', async () => {
    await svc.post('/services', artistWeb);
    const changed = await svc.put('/services/artist-web', {
      lifecycle: 'deprecated',
      annotations: { 'github.com/project-slug': 'example/artist-web' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({
      type: 'website',
      lifecycle: 'deprecated',
      links: artistWeb.links,
      annotations: { 'github.com/project-slug': 'example/artist-web' },
    });
    const cleared = await svc.put('/services/artist-web', {
      type: null,
      lifecycle: null,
      links: null,
      annotations: null,
    });
    expect(cleared.body.data).toMatchObject({
      type: null,
      lifecycle: null,
      links: [],
      annotations: {},
      tags: ['java'],
    });
    expect((await svc.get('/services/artist-web')).body.data).toEqual(cleared.body.data);
  });

  it.each([
    [{ links: [{ title: 'no url' }] }, 'links[0].url is required'],
    [{ links: [{ url: 'not a url' }] }, 'links[0].url has an invalid format (expected uri)'],
    [
      { links: [{ url: 'https://x.org' }, { url: 'javascript:alert(1)' }] },
      'links[1].url must be an http, https or mailto URL',
    ],
    [{ links: [{ url: 'data:text/html,hello' }] }, 'links[0].url must be an http, https or mailto'],
    [{ links: [{ url: 'https://x.org', title: '' }] }, 'links[0].title must not be empty'],
    [{ links: [{ url: 'https://x.org', colour: 'red' }] }, 'links[0] has an unknown field: colour'],
    [{ links: 'https://x.org' }, 'links must be an array'],
    [{ annotations: ['a'] }, 'annotations must be an object'],
    [{ annotations: { 'example.com/n': 5 } }, 'annotations.example.com/n must be a string'],
    [
      { annotations: { 'Example.com/n': 'v' } },
      'annotations key "Example.com/n" is invalid: expected an optional DNS prefix',
    ],
    [{ annotations: { 'a/b/c': 'v' } }, 'annotations key "a/b/c" is invalid'],
    [{ annotations: { 'has space': 'v' } }, 'annotations key "has space" is invalid'],
    [{ annotations: { [`x/${'n'.repeat(64)}`]: 'v' } }, 'is invalid'],
    [{ type: '' }, 'type must not be empty'],
    [{ lifecycle: ' production' }, 'lifecycle has an invalid format'],
  ])('refuses %j and stores nothing', async (fields, message) => {
    const res = await svc.post('/services', { name: 'x', ...fields });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
    expect(res.body.error.message).toContain(message);
    expect(await names('')).toEqual([]);
  });

  it('refuses a bad annotation key on PUT and keeps the service as it was', async () => {
    const before = await svc.service('x', { annotations: { a: '1' } });
    const res = await svc.put('/services/x', { annotations: { '-bad': '1' } });
    expect(res.status).toBe(400);
    expect((await svc.get('/services/x')).body.data).toEqual(before);
  });
});
