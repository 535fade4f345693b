import { makeValidator, parseEntityRef } from '@backstage/catalog-model';
import { isAnnotationKey, ANNOTATION_KEY_FORMAT } from '../../schemas/metadata.js';

export type Target = 'service' | 'api' | 'system' | 'owner' | 'domain' | 'template';

/** A reference to another record: the collection, namespace and name (as written), the kind. */
export interface Ref {
  target: Target;
  /** Backstage kind the reference names (group, user, component ...), lowercase. */
  kind: string;
  namespace: string;
  name: string;
  /** Where it was written, for the report: `spec.owner`. */
  field: string;
}

export const TARGET_OF: Record<string, Target> = {
  component: 'service',
  resource: 'service',
  api: 'api',
  system: 'system',
  group: 'owner',
  user: 'owner',
  domain: 'domain',
  template: 'template',
};

const BACKSTAGE = makeValidator();
const LINK_SCHEMES = /^(https?:\/\/|mailto:)/i;
export type Obj = Record<string, unknown>;
export const isObject = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Checks the fields of one descriptor, pushing each problem (all of them, not the first). */
export class Checker {
  constructor(
    private readonly label: string,
    private readonly problems: string[],
    /** The namespace of the entity: where its references without one point (as Backstage). */
    private readonly namespace: string,
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

  /**
   * `metadata.name` in Backstage's own format (its validator): never a `/`, which separates the
   * namespace in references and team names (`webgrip/infra`).
   */
  name(value: unknown): string | undefined {
    if (typeof value === 'string' && BACKSTAGE.isValidEntityName(value)) return value;
    return this.fail(
      'metadata.name must be a Backstage entity name: 1-63 letters, digits and -_. between them, no slash',
    );
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

  /**
   * `[kind:][namespace/]name`, parsed by Backstage's parseEntityRef: the kind defaults to the
   * first allowed, the namespace to the entity's own. A kind not allowed is a problem.
   */
  ref(field: string, value: unknown, kinds: string[]): Ref | undefined {
    if (typeof value !== 'string' || value.trim() === '')
      return this.fail(`${field} must be an entity reference ([kind:][namespace/]name)`);
    let parsed: { kind: string; namespace: string; name: string };
    try {
      parsed = parseEntityRef(value.trim(), {
        defaultKind: kinds[0],
        defaultNamespace: this.namespace,
      });
    } catch (error) {
      return this.fail(`${field} ${JSON.stringify(value)}: ${(error as Error).message}`);
    }
    const kind = parsed.kind.toLowerCase();
    if (!kinds.includes(kind))
      return this.fail(`${field} ${JSON.stringify(value)} must name a ${kinds.join(' or ')}`);
    return { target: TARGET_OF[kind], kind, namespace: parsed.namespace, name: parsed.name, field };
  }

  refs(field: string, value: unknown, kinds: string[]): Ref[] {
    if (value === undefined || value === null) return [];
    const list = typeof value === 'string' ? [value] : value;
    if (!Array.isArray(list)) return this.fail(`${field} must be a list of references`) ?? [];
    const refs = list.map((item, i) => this.ref(`${field}[${i}]`, item, kinds));
    return refs.filter((ref): ref is Ref => ref !== undefined);
  }

  optionalRef(field: string, value: unknown, kinds: string[]) {
    return value === undefined || value === null ? null : this.ref(field, value, kinds);
  }
}
