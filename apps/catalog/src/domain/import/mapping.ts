import { isAnnotationKey, ANNOTATION_KEY_FORMAT } from '../../schemas/metadata.js';
import { API_TYPES } from '../../schemas/apis.js';
import type { Entity } from '../../schemas/import.js';

export type Target = 'service' | 'api' | 'system' | 'owner';

/** A reference to another record: the collection and the name (as written), the kind required. */
export interface Ref {
  target: Target;
  name: string;
  /** Backstage kind written in the reference (group, user, component ...), lowercase. */
  kind: string;
  /** Where it was written, for the report: `spec.owner`. */
  field: string;
}

/** One descriptor as the catalog record it becomes: columns to compare and write, references. */
export interface Desired {
  kind: string;
  target: Target;
  name: string;
  /** What the report calls it: `Component cart`. */
  label: string;
  columns: Record<string, unknown>;
  owner?: Ref | null;
  system?: Ref | null;
  parent?: Ref | null;
  dependsOn?: Ref[];
  providesApis?: Ref[];
  consumesApis?: Ref[];
  /** A user or a group (owners only). */
  ownerKind?: 'group' | 'user';
}

export interface Mapped {
  desired: Desired[];
  skipped: Array<{ kind: string; name: string; reason: string }>;
  ignored: string[];
  problems: string[];
}

const TARGET_OF: Record<string, Target> = {
  component: 'service',
  resource: 'service',
  api: 'api',
  system: 'system',
  group: 'owner',
  user: 'owner',
};

/** The metadata and spec fields each kind maps; anything else is reported as ignored. */
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
  system: { metadata: COMMON_META, spec: ['owner'] },
  group: {
    metadata: ['name', 'namespace', 'title'],
    spec: ['type', 'profile', 'parent', 'children'],
  },
  user: { metadata: ['name', 'namespace', 'title'], spec: ['profile'] },
};

const NAME = /^\S(.*\S)?$/;
const TOKEN = NAME;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const LINK_SCHEMES = /^(https?:\/\/|mailto:)/i;

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Checks the fields of one descriptor, pushing each problem (all of them, not the first). */
class Checker {
  constructor(
    private readonly label: string,
    private readonly problems: string[],
  ) {}

  fail(message: string): undefined {
    this.problems.push(`${this.label}: ${message}`);
    return undefined;
  }

  text(field: string, value: unknown, max: number, pattern?: RegExp): string | null | undefined {
    if (value === undefined || value === null) return null;
    if (typeof value !== 'string') return this.fail(`${field} must be text`);
    if (value.length === 0 || value.length > max)
      return this.fail(`${field} must be 1-${max} characters`);
    if (pattern && !pattern.test(value)) return this.fail(`${field} has an invalid format`);
    return value;
  }

  tags(value: unknown): string[] {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value) || value.length > 50)
      return this.fail('metadata.tags must be a list of up to 50 tags') ?? [];
    const tags: string[] = [];
    value.forEach((tag, i) => {
      if (typeof tag !== 'string' || tag.length < 1 || tag.length > 50)
        this.fail(`metadata.tags[${i}] must be 1-50 characters`);
      else if (!tags.includes(tag)) tags.push(tag);
    });
    return tags;
  }

  links(value: unknown): Obj[] {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value) || value.length > 50)
      return this.fail('metadata.links must be a list of up to 50 links') ?? [];
    return value.map((link, i) => {
      const at = `metadata.links[${i}]`;
      if (!isObject(link) || typeof link.url !== 'string')
        return this.fail(`${at}.url is required`) ?? {};
      if (!LINK_SCHEMES.test(link.url) || link.url.length > 2048)
        this.fail(`${at}.url must be an http, https or mailto URL`);
      const out: Obj = { url: link.url };
      for (const key of ['title', 'icon', 'type'])
        if (link[key] !== undefined) out[key] = this.text(`${at}.${key}`, link[key], 200);
      return out;
    });
  }

  annotations(value: unknown): Record<string, string> {
    if (value === undefined || value === null) return {};
    if (!isObject(value)) return this.fail('metadata.annotations must be a map') ?? {};
    if (Object.keys(value).length > 100) this.fail('metadata.annotations has over 100 keys');
    for (const [key, item] of Object.entries(value)) {
      if (!isAnnotationKey(key))
        this.fail(
          `metadata.annotations key ${JSON.stringify(key)} is invalid: expected ${ANNOTATION_KEY_FORMAT}`,
        );
      if (typeof item !== 'string' || item.length > 5000)
        this.fail(`metadata.annotations.${key} must be text of up to 5000 characters`);
    }
    return value as Record<string, string>;
  }

  /** `[kind:][namespace/]name`, of one of the kinds allowed (the first is the default). */
  ref(field: string, value: unknown, kinds: string[]): Ref | undefined {
    if (typeof value !== 'string' || value.trim() === '')
      return this.fail(`${field} must be an entity reference ([kind:][namespace/]name)`);
    const match = /^(?:([^:/]+):)?(?:([^:/]+)\/)?([^:/]+)$/.exec(value.trim());
    if (!match)
      return this.fail(
        `${field} ${JSON.stringify(value)} is not a reference ([kind:][namespace/]name)`,
      );
    const kind = (match[1] ?? kinds[0]).toLowerCase();
    if (!kinds.includes(kind))
      return this.fail(`${field} ${JSON.stringify(value)} must name a ${kinds.join(' or ')}`);
    const namespace = match[2] ?? 'default';
    if (namespace.toLowerCase() !== 'default')
      return this.fail(`${field} ${JSON.stringify(value)}: only the default namespace is imported`);
    return { target: TARGET_OF[kind], name: match[3], kind, field };
  }

  refs(field: string, value: unknown, kinds: string[]): Ref[] {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) return this.fail(`${field} must be a list of references`) ?? [];
    const refs = value.map((item, i) => this.ref(`${field}[${i}]`, item, kinds));
    return refs.filter((ref): ref is Ref => ref !== undefined);
  }
}

const optionalRef = (check: Checker, field: string, value: unknown, kinds: string[]) =>
  value === undefined || value === null ? null : check.ref(field, value, kinds);

/** The catalog record a descriptor becomes; problems and ignored fields are pushed. */
function mapEntity(entity: Entity, kind: string, label: string, out: Mapped): Desired | undefined {
  const meta = entity.metadata as Obj;
  const spec = (entity.spec ?? {}) as Obj;
  const check = new Checker(label, out.problems);
  const name = check.text('metadata.name', meta.name, 100, NAME);
  if (meta.namespace !== undefined && String(meta.namespace).toLowerCase() !== 'default')
    check.fail('only the default namespace is imported (metadata.namespace)');
  const mapped = MAPPED[kind];
  const extra = [
    ...Object.keys(meta)
      .filter((key) => !mapped.metadata.includes(key))
      .map((k) => `metadata.${k}`),
    ...Object.keys(spec)
      .filter((key) => !mapped.spec.includes(key))
      .map((k) => `spec.${k}`),
  ];
  if (extra.length > 0) out.ignored.push(`${label}: ${extra.join(', ')}`);
  const description = check.text('metadata.description', meta.description, 2000);
  const tags = check.tags(meta.tags);
  const base = { kind, target: TARGET_OF[kind], name: name ?? '', label };
  const owner = optionalRef(check, 'spec.owner', spec.owner, ['group', 'user']);
  const system = optionalRef(check, 'spec.system', spec.system, ['system']);
  let desired: Desired;
  if (kind === 'component' || kind === 'resource') {
    desired = {
      ...base,
      columns: {
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
    desired = {
      ...base,
      columns: {
        type:
          type && (API_TYPES as readonly string[]).includes(type.toLowerCase())
            ? type.toLowerCase()
            : 'other',
        description,
        definition,
        lifecycle: check.text('spec.lifecycle', spec.lifecycle, 100, TOKEN),
        tags,
      },
      owner,
      system,
    };
  } else if (kind === 'system') {
    desired = { ...base, columns: { description, tags }, owner };
  } else {
    const profile = isObject(spec.profile) ? spec.profile : {};
    desired = {
      ...base,
      ownerKind: kind as 'group' | 'user',
      columns: {
        email: check.text('spec.profile.email', profile.email, 254, EMAIL),
        team: check.text('spec.profile.displayName', profile.displayName ?? meta.title, 100),
        kind,
      },
      parent: kind === 'group' ? optionalRef(check, 'spec.parent', spec.parent, ['group']) : null,
    };
  }
  return name ? desired : undefined;
}

/**
 * The descriptors as catalog records: every problem found (formats, references malformed, the same
 * record twice), kinds the catalog does not hold skipped, fields it has no place for listed.
 */
export function mapEntities(entities: Entity[]): Mapped {
  const out: Mapped = { desired: [], skipped: [], ignored: [], problems: [] };
  const seen = new Map<string, string>();
  for (const entity of entities) {
    const kind = entity.kind.toLowerCase();
    const name = String(entity.metadata.name);
    if (!(kind in MAPPED)) {
      out.skipped.push({ kind: entity.kind, name, reason: `the catalog holds no ${entity.kind}` });
      continue;
    }
    const label = `${entity.kind} ${name}`;
    const desired = mapEntity(entity, kind, label, out);
    if (!desired) continue;
    const key = `${desired.target}:${desired.name.toLowerCase()}`;
    const before = seen.get(key);
    if (before) out.problems.push(`${label}: the same ${desired.target} as ${before}`);
    else {
      seen.set(key, label);
      out.desired.push(desired);
    }
  }
  return out;
}
