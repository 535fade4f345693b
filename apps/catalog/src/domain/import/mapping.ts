import { API_TYPES } from '../../schemas/apis.js';
import type { Entity } from '../../schemas/import.js';
import { DEFAULT_NAMESPACE, keyOf, refLabel } from '../../repositories/named.js';
import { Checker, isObject, TARGET_OF, type Obj, type Ref, type Target } from './checker.js';
import { locationTargets, type LocationReport } from './locations.js';

export type { Ref, Target } from './checker.js';

/** One descriptor as the catalog record it becomes: columns to compare and write, references. */
export interface Desired {
  kind: string;
  target: Target;
  namespace: string;
  name: string;
  /** What the report calls it: `Component cart`, `Group webgrip/c-level`. */
  label: string;
  columns: Record<string, unknown>;
  owner?: Ref | null;
  system?: Ref | null;
  parent?: Ref | null;
  domain?: Ref | null;
  dependsOn?: Ref[];
  providesApis?: Ref[];
  consumesApis?: Ref[];
  /** A group's `spec.children` and `spec.members`, a user's `spec.memberOf`. */
  children?: Ref[];
  members?: Ref[];
  memberOf?: Ref[];
  /** A user or a group (owners only). */
  ownerKind?: 'group' | 'user';
}

export interface Mapped {
  desired: Desired[];
  skipped: Array<{ kind: string; name: string; reason: string }>;
  ignored: string[];
  problems: string[];
  locations: LocationReport[];
}

/** The metadata and spec fields each kind keeps; anything else is reported as ignored. */
const COMMON_META = ['name', 'namespace', 'description', 'tags'];
const MAPPED: Record<string, { metadata: string[]; spec: string[] }> = {
  component: {
    metadata: [...COMMON_META, 'links', 'annotations'],
    spec: ['type', 'lifecycle', 'owner', 'system', 'dependsOn', 'providesApis', 'consumesApis'],
  },
  resource: {
    metadata: [...COMMON_META, 'links', 'annotations'],
    spec: ['type', 'owner', 'system', 'dependsOn'],
  },
  api: { metadata: COMMON_META, spec: ['type', 'lifecycle', 'owner', 'system', 'definition'] },
  system: { metadata: COMMON_META, spec: ['owner', 'domain'] },
  domain: { metadata: [...COMMON_META, 'title', 'links'], spec: ['owner', 'type'] },
  group: {
    metadata: ['name', 'namespace', 'title', 'description'],
    spec: ['type', 'profile', 'parent', 'children', 'members'],
  },
  user: { metadata: ['name', 'namespace', 'title', 'description'], spec: ['profile', 'memberOf'] },
};
/** The profile fields kept (a group's and a user's). */
const PROFILE = ['displayName', 'email', 'picture'];

const TOKEN = /^\S(.*\S)?$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const NAMESPACE = /^[A-Za-z0-9]+(-+[A-Za-z0-9]+)*$/;
const PICTURE = /^https?:\/\//i;

/** The fields of a descriptor the catalog has no place for: `metadata.labels`, `relations`. */
function extraFields(entity: Entity, kind: string): string[] {
  const meta = entity.metadata as Obj;
  const spec = (entity.spec ?? {}) as Obj;
  const mapped = MAPPED[kind];
  const extra = [
    ...Object.keys(entity)
      .filter((key) => !['apiVersion', 'kind', 'metadata', 'spec', 'source'].includes(key))
      .map((key) => key),
    ...Object.keys(meta)
      .filter((key) => !mapped.metadata.includes(key))
      .map((key) => `metadata.${key}`),
    ...Object.keys(spec)
      .filter((key) => !mapped.spec.includes(key))
      .map((key) => `spec.${key}`),
  ];
  if (isObject(spec.profile))
    extra.push(
      ...Object.keys(spec.profile)
        .filter((key) => !PROFILE.includes(key))
        .map((key) => `spec.profile.${key}`),
    );
  return extra;
}

/** The catalog record a descriptor becomes; problems and ignored fields are pushed. */
function mapEntity(entity: Entity, kind: string, ns: string, label: string, out: Mapped) {
  const meta = entity.metadata as Obj;
  const spec = (entity.spec ?? {}) as Obj;
  const check = new Checker(label, out.problems, ns);
  const name = check.name(meta.name);
  const extra = extraFields(entity, kind);
  if (extra.length > 0) out.ignored.push(`${label}: ${extra.join(', ')}`);
  const description = check.text('metadata.description', meta.description, 2000);
  const tags = check.tags(meta.tags);
  const base = { kind, target: TARGET_OF[kind], namespace: ns, name: name ?? '', label };
  const owner = check.optionalRef('spec.owner', spec.owner, ['group', 'user']);
  const system = check.optionalRef('spec.system', spec.system, ['system']);
  const namespace = ns;
  let desired: Desired;
  if (kind === 'component' || kind === 'resource') {
    desired = {
      ...base,
      columns: {
        namespace,
        kind,
        description,
        tags,
        type: check.text('spec.type', spec.type, 100, TOKEN),
        lifecycle: check.text('spec.lifecycle', spec.lifecycle, 100, TOKEN),
        links: check.links(meta.links),
        annotations: check.annotations(meta.annotations),
      },
      owner,
      system,
      dependsOn: check.refs('spec.dependsOn', spec.dependsOn, ['component', 'resource']),
      providesApis: check.refs('spec.providesApis', spec.providesApis, ['api']),
      consumesApis: check.refs('spec.consumesApis', spec.consumesApis, ['api']),
    };
  } else if (kind === 'api') {
    const type = check.text('spec.type', spec.type, 100, TOKEN);
    const definition =
      spec.definition === undefined || typeof spec.definition === 'string'
        ? (spec.definition ?? null)
        : check.fail(
            'spec.definition must be text ($text, $json and $yaml substitutions are not resolved)',
          );
    if (type === null) check.fail('spec.type is required');
    const known = type && (API_TYPES as readonly string[]).includes(type.toLowerCase());
    desired = {
      ...base,
      columns: {
        namespace,
        type: known ? type.toLowerCase() : 'other',
        description,
        definition,
        lifecycle: check.text('spec.lifecycle', spec.lifecycle, 100, TOKEN),
        tags,
      },
      owner,
      system,
    };
  } else if (kind === 'system') {
    const domain = check.optionalRef('spec.domain', spec.domain, ['domain']);
    desired = { ...base, columns: { namespace, description, tags }, owner, domain };
  } else if (kind === 'domain') {
    desired = {
      ...base,
      columns: {
        namespace,
        title: check.text('metadata.title', meta.title, 200),
        description,
        tags,
        type: check.text('spec.type', spec.type, 100, TOKEN),
        links: check.links(meta.links),
      },
      owner,
    };
  } else {
    const profile = isObject(spec.profile) ? spec.profile : {};
    const group = kind === 'group';
    desired = {
      ...base,
      ownerKind: kind as 'group' | 'user',
      columns: {
        namespace,
        email: check.text('spec.profile.email', profile.email, 254, EMAIL),
        team: check.text('spec.profile.displayName', profile.displayName ?? meta.title, 100),
        picture: check.text('spec.profile.picture', profile.picture, 2048, PICTURE),
        description,
        type: group ? check.text('spec.type', spec.type, 100, TOKEN) : null,
        kind,
      },
      parent: group ? check.optionalRef('spec.parent', spec.parent, ['group']) : null,
      children: group ? check.refs('spec.children', spec.children, ['group']) : [],
      members: group ? check.refs('spec.members', spec.members, ['user', 'group']) : [],
      memberOf: group ? [] : check.refs('spec.memberOf', spec.memberOf, ['group']),
    };
  }
  return name ? desired : undefined;
}

/** A Template (the scaffolder's kind): kept whole, its title, description, tags, type and owner. */
function mapTemplate(entity: Entity, ns: string, label: string, out: Mapped): Desired | undefined {
  const meta = entity.metadata as Obj;
  const spec = (entity.spec ?? {}) as Obj;
  const check = new Checker(label, out.problems, ns);
  const name = check.name(meta.name);
  const { source: _source, ...descriptor } = entity as Entity & { source?: string };
  const columns = {
    namespace: ns,
    title: check.text('metadata.title', meta.title, 200),
    description: check.text('metadata.description', meta.description, 2000),
    tags: check.tags(meta.tags),
    type: check.text('spec.type', spec.type, 100, TOKEN),
    descriptor,
  };
  const owner = check.optionalRef('spec.owner', spec.owner, ['group', 'user']);
  if (!name) return undefined;
  return { kind: 'template', target: 'template', namespace: ns, name, label, columns, owner };
}

/**
 * The descriptors as catalog records: every problem found (formats, references malformed, the same
 * record twice), Locations reported target by target, kinds the catalog does not hold skipped,
 * fields it has no place for listed.
 */
export function mapEntities(entities: Entity[]): Mapped {
  const out: Mapped = { desired: [], skipped: [], ignored: [], problems: [], locations: [] };
  const seen = new Map<string, string>();
  for (const entity of entities) {
    const kind = entity.kind.toLowerCase();
    const name = String(entity.metadata.name);
    const raw = (entity.metadata as Obj).namespace;
    const ns = typeof raw === 'string' && raw !== '' ? raw : DEFAULT_NAMESPACE;
    const where = entity.source ? ` (${entity.source})` : '';
    const label = `${entity.kind} ${refLabel(ns, name)}${where}`;
    if (raw !== undefined && (typeof raw !== 'string' || !NAMESPACE.test(raw) || raw.length > 63)) {
      out.problems.push(`${label}: metadata.namespace must be 1-63 letters, digits and dashes`);
      continue;
    }
    if (kind === 'location') {
      out.locations.push(locationTargets(entity, ns, entities, out));
      continue;
    }
    if (!(kind in MAPPED) && kind !== 'template') {
      out.skipped.push({ kind: entity.kind, name, reason: `the catalog holds no ${entity.kind}` });
      continue;
    }
    const desired =
      kind === 'template'
        ? mapTemplate(entity, ns, label, out)
        : mapEntity(entity, kind, ns, label, out);
    if (!desired) continue;
    const key = `${desired.target}:${keyOf(ns, desired.name)}`;
    const before = seen.get(key);
    if (before) out.problems.push(`${label}: the same ${desired.target} as ${before}`);
    else {
      seen.set(key, label);
      out.desired.push(desired);
    }
  }
  return out;
}
