import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringifyEntityRef } from '@backstage/catalog-model';
import type { JsonApi } from '@platform/testing';
import { parseAllDocuments } from 'yaml';

// Reading Backstage catalogs as published (fixtures/*/NOTICE) and the catalog's graph back.
export const FIXTURES = join(__dirname, 'fixtures');

/** The documents of the files, each with the file it comes from as `source` (as an import sends). */
export function documents(dir: string, files: string[]) {
  return files.flatMap((file) =>
    parseAllDocuments(readFileSync(join(FIXTURES, dir, file), 'utf8'))
      .map((doc) => doc.toJS())
      .filter(Boolean)
      .map((entity) => ({ ...entity, source: file })),
  );
}

/**
 * The catalog's graph as Backstage writes relations (`kind:namespace/name type kind:namespace/name`,
 * lower case), both ways, read back through the API.
 */
export async function catalogGraph(svc: JsonApi): Promise<string[]> {
  const all = async (path: string) => (await svc.get(`${path}?limit=1000`)).body.data as any[];
  const [owners, services, systems, domains] = await Promise.all(
    ['/owners', '/services', '/systems', '/domains'].map(all),
  );
  const label = (e: any) => (e.namespace === 'default' ? e.name : `${e.namespace}/${e.name}`);
  const ref = (kind: string, e: any) =>
    stringifyEntityRef({ kind, namespace: e.namespace, name: e.name }).toLowerCase();
  const owner = (name: string) => owners.find((o) => label(o) === name);
  const relations = new Set<string>();
  const both = (a: string, out: string, b: string, inc: string) => {
    relations.add(`${a} ${out} ${b}`);
    relations.add(`${b} ${inc} ${a}`);
  };
  const ownedBy = (self: string, name: string | null) => {
    const o = name && owner(name);
    if (o) both(self, 'ownedBy', ref(o.kind, o), 'ownerOf');
  };
  for (const s of services) {
    const self = ref(s.kind, s);
    ownedBy(self, s.owner);
    const system = systems.find((x) => label(x) === s.system);
    if (system) both(self, 'partOf', ref('system', system), 'hasPart');
    for (const id of s.dependencies) {
      const dep = services.find((x) => x.id === id);
      both(self, 'dependsOn', ref(dep.kind, dep), 'dependencyOf');
    }
  }
  for (const s of systems) {
    ownedBy(ref('system', s), s.owner);
    const domain = domains.find((d) => label(d) === s.domain);
    if (domain) both(ref('system', s), 'partOf', ref('domain', domain), 'hasPart');
  }
  for (const d of domains) ownedBy(ref('domain', d), d.owner);
  for (const o of owners) {
    const parent = o.parent && owner(o.parent);
    if (parent) both(ref(o.kind, o), 'childOf', ref(parent.kind, parent), 'parentOf');
    const full = (await svc.get(`/owners/${o.id}`)).body.data;
    for (const g of full.memberOf)
      both(ref(o.kind, o), 'memberOf', ref('group', owner(g.name)), 'hasMember');
  }
  return [...relations].sort();
}
