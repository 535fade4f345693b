import type { TokenRow } from '../../database.js';
import { tokenPath } from '../../schemas/tokens.js';
import { categorySpec } from '../tokens.js';
import { aliasPath, type RawToken } from './tree.js';

/** How many aliases a chain may go through. */
export const MAX_HOPS = 100;

/**
 * Aliases followed in a resolution (its tokens, then the palette's by lower-cased path), walked
 * iteratively and memoised: a type is the first one met; a chain may not loop nor go on for more
 * than MAX_HOPS tokens.
 */
export function aliasChains(stored: Map<string, TokenRow>, rows: TokenRow[]) {
  const rowsById = new Map(rows.map((t) => [t.id, t]));
  return (tokens: Map<string, RawToken>) => {
    const types = new Map<string, string | undefined>();
    const chains = new Map<string, { problem: string | null; hops: number }>();
    const next = (path: string): string | null => {
      const token = tokens.get(path);
      if (token) return aliasPath(token.value);
      const ref = stored.get(path.toLowerCase())?.value_default_ref;
      const target = ref ? rowsById.get(ref) : undefined;
      return target ? tokenPath(target) : null;
    };
    const typeOf = (start: string): string | undefined => {
      const walked: string[] = [];
      let found: string | undefined;
      for (let path: string | null = start; path !== null; path = next(path)) {
        if (types.has(path)) {
          found = types.get(path);
          break;
        }
        if (walked.length > MAX_HOPS) {
          // Cut short: only the start is known to be without a type within reach.
          types.set(start, undefined);
          return undefined;
        }
        if (walked.includes(path)) break;
        walked.push(path);
        const token = tokens.get(path);
        if (!token) {
          const row = stored.get(path.toLowerCase());
          found = row ? categorySpec(row.category).dtcg : undefined;
          break;
        }
        if (token.type) {
          found = token.type;
          break;
        }
      }
      for (const path of walked) types.set(path, found);
      return found;
    };
    /** Why the alias chain from a path is refused (a cycle, too long), or null. */
    const chainProblem = (start: string): string | null => {
      const walked: string[] = [];
      const seen = new Set<string>();
      let end = { problem: null as string | null, hops: 0 };
      for (let path: string | null = start; path !== null; path = next(path)) {
        const known = chains.get(path);
        if (known) {
          end = { problem: known.problem, hops: known.hops + 1 };
          break;
        }
        if (seen.has(path)) {
          const loop = [...walked.slice(walked.indexOf(path)), path].join(' -> ');
          end = { problem: `its aliases make a cycle: ${loop}`, hops: 0 };
          break;
        }
        seen.add(path);
        walked.push(path);
      }
      // Each token walked is as many hops from the end as it is tokens before it.
      walked.forEach((path, i) => {
        const hops = end.hops + walked.length - 1 - i;
        const long = hops > MAX_HOPS ? `its aliases go on for more than ${MAX_HOPS} tokens` : null;
        chains.set(path, { problem: end.problem ?? long, hops });
      });
      return chains.get(start)!.problem;
    };
    return { typeOf, chainProblem };
  };
}
