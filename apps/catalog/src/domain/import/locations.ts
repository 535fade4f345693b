import { posix } from 'node:path';
import type { Entity } from '../../schemas/import.js';
import type { Obj } from './checker.js';

/** What a Location's targets are: each followed (a document of this import) or not, and why. */
export interface LocationReport {
  namespace: string;
  name: string;
  source: string | null;
  targets: Array<{ target: string; type: string; followed: boolean; reason: string | null }>;
}

const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * Where a target points: a file path relative to the Location's own file, or a URL; null when it
 * is not a URL at all (`http://[`), which is reported, never a failure of the import.
 */
function resolve(target: string, type: string, source: string | undefined) {
  if (type === 'url') {
    if (!URL.canParse(target, source && URL_LIKE.test(source) ? source : undefined))
      return source && URL_LIKE.test(source) ? null : target;
    return source && URL_LIKE.test(source) ? new URL(target, source).href : target;
  }
  if (posix.isAbsolute(target) || !source) return posix.normalize(target);
  return posix.normalize(posix.join(posix.dirname(source), target));
}

/** Whether a file target names this source: a `*` in its last segment matches within its folder. */
function matches(where: string, sources: Set<string>) {
  if (sources.has(where)) return true;
  const base = posix.basename(where);
  if (!base.includes('*') || URL_LIKE.test(where)) return false;
  const dir = posix.dirname(where);
  const glob = new RegExp(
    `^${base
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]*')}$`,
  );
  return [...sources].some((s) => posix.dirname(s) === dir && glob.test(posix.basename(s)));
}

/**
 * A Location is not stored: its targets are reported. One of type `file` or `url` that names the
 * source of another document of the same import is followed (that document is imported with the
 * rest); any other target is reported as not followed, and nothing is ever fetched.
 */
export function locationTargets(
  entity: Entity,
  namespace: string,
  entities: Entity[],
  out: { ignored: string[]; problems: string[] },
): LocationReport {
  const spec = (entity.spec ?? {}) as Obj;
  const meta = entity.metadata as Obj;
  const label = `Location ${entity.metadata.name}`;
  const extra = [
    ...Object.keys(meta)
      .filter((key) => !['name', 'namespace', 'description', 'title'].includes(key))
      .map((key) => `metadata.${key}`),
    ...Object.keys(spec)
      .filter((key) => !['type', 'target', 'targets'].includes(key))
      .map((key) => `spec.${key}`),
  ];
  if (extra.length > 0) out.ignored.push(`${label}: ${extra.join(', ')}`);
  const list = [
    ...(typeof spec.target === 'string' ? [spec.target] : []),
    ...(Array.isArray(spec.targets) ? spec.targets : []),
  ];
  if (spec.targets !== undefined && !Array.isArray(spec.targets))
    out.problems.push(`${label}: spec.targets must be a list`);
  const sources = new Set(
    entities.map((e) => e.source).filter((s): s is string => typeof s === 'string'),
  );
  const normalized = new Set([...sources].map((s) => (URL_LIKE.test(s) ? s : posix.normalize(s))));
  const source = typeof entity.source === 'string' ? entity.source : undefined;
  const targets = list.map((raw, i) => {
    if (typeof raw !== 'string' || raw === '') {
      out.problems.push(`${label}: spec.targets[${i}] must be text`);
      return { target: String(raw), type: 'file', followed: false, reason: 'not text' };
    }
    const type = typeof spec.type === 'string' ? spec.type : URL_LIKE.test(raw) ? 'url' : 'file';
    if (type !== 'file' && type !== 'url')
      return { target: raw, type, followed: false, reason: `a ${type} location is not followed` };
    const where = resolve(raw, type, source);
    if (where === null)
      return { target: raw, type, followed: false, reason: `${raw} is not a valid URL` };
    if (matches(where, normalized)) return { target: raw, type, followed: true, reason: null };
    const reason = !source
      ? 'the import does not say which file this Location is in (source)'
      : `${where} is not a document of this import (never fetched)`;
    return { target: raw, type, followed: false, reason };
  });
  return { namespace, name: String(entity.metadata.name), source: source ?? null, targets };
}
