import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '@platform/testing';
import { ADMIN, ANN, BOB, gitWorld, type GitWorld } from './git-world';

// Catalog discovery: pushing catalog-info.yaml to the default branch creates, changes and removes
// catalog records through the catalog's import, annotated with where the file is; a file the
// import refuses changes nothing and its error is listed on the repository.

let world: GitWorld;
let id = '';
let location = '';

beforeAll(async () => {
  world = await gitWorld();
  await world.call(ADMIN, 'POST', '/api/v1/git/providers', { name: 'local', type: 'local' });
  const repo = await world.call(ANN, 'POST', '/api/v1/git/repos', {
    providerId: 'local',
    owner: 'acme',
    repoName: 'shop',
  });
  const data = repo.body.data as { id: string; htmlUrl: string };
  id = data.id;
  expect(data.htmlUrl).toBe(`${world.url}/git/acme/shop.git`);
  // GIT_PUBLIC_URL unset: the annotation names the default address, never a request's Host.
  location = 'url:http://localhost:3000/git/acme/shop.git/blob/main/catalog-info.yaml';
  const key = await world.key(ANN, ['git:write']);
  await world.ok(world.dir, 'clone', '-q', world.remote('acme/shop', key), cwd());
}, 60_000);
afterAll(() => world?.close());

const cwd = () => join(world.dir, 'shop');
const component = (name: string, description: string) =>
  `apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: ${name}\n  description: ${description}\nspec:\n  type: service\n  lifecycle: production\n  owner: group:shop-team\n`;
const GROUP =
  'apiVersion: backstage.io/v1alpha1\nkind: Group\nmetadata:\n  name: shop-team\nspec:\n  type: team\n  children: []\n';

async function push(file: string | null, message: string) {
  if (file === null) rmSync(join(cwd(), 'catalog-info.yaml'));
  else writeFileSync(join(cwd(), 'catalog-info.yaml'), file);
  await world.ok(cwd(), 'add', '-A');
  await world.ok(cwd(), 'commit', '-q', '-m', message);
  await world.ok(cwd(), 'push', '-q', 'origin', 'main');
}
const service = async (name: string) => {
  const res = await world.call(ADMIN, 'GET', `/api/v1/catalog/services/${name}`);
  return res.status === 200
    ? (res.body.data as { description: string | null; annotations: Record<string, string> })
    : undefined;
};
const state = async () =>
  (await world.call(ANN, 'GET', `/api/v1/git/repos/${id}/catalog`)).body.data as {
    error: string | null;
    checkedAt: string | null;
    entities: Array<{ target: string; name: string }>;
  };
const until = <T>(check: () => Promise<T>, what: string) =>
  eventually(check, { timeout: 15_000, interval: 100, what });

it('creates catalog records from a pushed catalog-info.yaml, annotated with the file', async () => {
  await push(
    [GROUP, component('cart', 'The cart'), component('checkout', 'Pays')].join('---\n'),
    'Catalog',
  );
  const cart = await until(async () => (await service('cart')) ?? false, 'cart in the catalog');
  expect(cart.description).toBe('The cart');
  expect(cart.annotations['backstage.io/managed-by-location']).toBe(location);
  expect(await service('checkout')).toBeDefined();
  expect((await state()).entities).toEqual(
    expect.arrayContaining([
      { target: 'service', name: 'cart' },
      { target: 'service', name: 'checkout' },
      { target: 'owner', name: 'shop-team' },
    ]),
  );
});

it('changes them and removes those the file no longer holds', async () => {
  await push([GROUP, component('cart', 'The new cart')].join('---\n'), 'Change');
  await until(async () => (await service('cart'))?.description === 'The new cart', 'the change');
  await until(async () => (await service('checkout')) === undefined, 'checkout removed');
  expect((await state()).error).toBeNull();
});

it('lists a broken file on the repository and applies none of it', async () => {
  const before = (await state()).checkedAt;
  await push('kind: Component\nmetadata: [unclosed\n', 'Broken YAML');
  const broken = await until(async () => {
    const now = await state();
    return now.checkedAt !== before && now.error !== null ? now : false;
  }, 'the error listed');
  expect(broken.error).toContain('catalog-info.yaml: document 1');

  // A file the import refuses (an owner that exists nowhere): nothing of it applied.
  const refused = [
    component('cart', 'Half applied?'),
    component('extra', 'x').replace('shop-team', 'ghosts'),
  ];
  await push(refused.join('---\n'), 'Refused');
  await until(async () => (await state()).error?.includes('ghosts') ?? false, 'the refusal listed');
  expect((await service('cart'))?.description).toBe('The new cart');
  expect(await service('extra')).toBeUndefined();
});

it('removes every record the file made when the file disappears', async () => {
  await push([GROUP, component('cart', 'Back')].join('---\n'), 'Fixed');
  await until(async () => (await service('cart'))?.description === 'Back', 'the fix');
  await push(null, 'No catalog');
  await until(async () => (await service('cart')) === undefined, 'cart removed');
  await until(async () => (await state()).entities.length === 0, 'nothing left');
  const owner = await world.call(ADMIN, 'GET', '/api/v1/catalog/owners/shop-team');
  expect(owner.status).toBe(404);
});

it('imports as the pusher: a record another person owns is refused, the error listed', async () => {
  const made = await world.call(BOB, 'POST', '/api/v1/catalog/services', {
    name: 'ledger-x',
    description: "Bob's",
  });
  expect(made.status).toBe(201);
  await push([GROUP, component('ledger-x', 'Taken over')].join('---\n'), 'Not mine');
  const refused = await until(
    async () => (await state()).error?.includes('ledger-x') ?? false,
    'the refusal listed',
  );
  expect(refused).toBe(true);
  expect((await state()).error).toContain('may not update catalog records it does not own');
  const bobs = await service('ledger-x');
  expect(bobs?.description).toBe("Bob's");
  expect(bobs?.annotations['backstage.io/managed-by-location']).toBeUndefined();
  const owner = await world.call(ADMIN, 'GET', '/api/v1/catalog/owners/shop-team');
  expect(owner.status).toBe(404); // nothing of the file written
});

it('removing the file deletes only the records the file created', async () => {
  const mine = await world.call(ANN, 'POST', '/api/v1/catalog/services', { name: 'wallet' });
  expect(mine.status).toBe(201);
  const file = [GROUP, component('wallet', 'From the file'), component('purse', 'Made')];
  await push(file.join('---\n'), 'Wallet');
  await until(async () => (await service('wallet'))?.description === 'From the file', 'import');
  await until(async () => (await state()).error === null, 'no error');
  await push(null, 'No catalog again');
  await until(async () => (await state()).entities.length === 0, 'nothing listed');
  expect(await service('purse')).toBeUndefined(); // the file made it: removed
  expect((await service('wallet'))?.description).toBe('From the file'); // it did not: kept
});
