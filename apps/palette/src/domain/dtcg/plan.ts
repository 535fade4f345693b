import { newId } from '@platform/core';
import type { TokenRow, TokenSource } from '../../database.js';
import { tokenPath } from '../../schemas/tokens.js';
import {
  CATEGORIES,
  categorySpec,
  DEFAULT_CATEGORY,
  holdsType,
  kebab,
  type Category,
} from '../tokens.js';
import { EXPECTED, isOfKind } from '../values.js';
import type { ImportReading } from './resolver.js';
import { aliasChains } from './chains.js';
import { aliasPath, type RawToken, type Reading } from './tree.js';
import { DTCG_TYPES, valueCss, valueProblems, type AliasContext } from './values.js';

// An import's plan: every token of the file checked (all problems gathered), matched to the
// palette's token at the same path, and turned into the columns it writes.

/** The extension the palette reads and writes: a token's category and CSS variable. */
export const EXTENSION = 'com.platform.palette';
/** The mode held in value_dark. */
export const DARK_MODE = 'theme:dark';

export interface ModeValue {
  mode: string;
  value: string;
  ref: string | null;
  source: unknown;
}
export interface Step {
  action: 'created' | 'updated' | 'unchanged' | 'deleted';
  path: string;
  id: string;
  columns:
    | (Pick<TokenRow, 'name' | 'category' | 'value_default' | 'value_default_ref' | 'group'> &
        Pick<TokenRow, 'value_dark' | 'value_dark_ref' | 'css_variable' | 'tailwind_key'> &
        Pick<TokenRow, 'description'> & { path: string; source: TokenSource })
    | null;
  modes: ModeValue[];
}

export interface Existing {
  tokens: TokenRow[];
  /** token id -> its values in modes other than light and dark. */
  modes: Map<string, ModeValue[]>;
}

const segments = (path: string) => path.split('.');
const safeName = (path: string) =>
  segments(path)
    .map((s) => s.replace(/^\$root$/, 'root').replace(/[^A-Za-z0-9_-]+/g, '-'))
    .join('-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 100);

/** JSON with the keys of every object sorted: equal values, whatever order their keys came in. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );

/**
 * A token's CSS variable: `--` and its path's segments in kebab case, joined by `-`; a segment's
 * leading minus stays (`size.-1` -> `--size--1`, beside `size.1` -> `--size-1`).
 */
export const derivedVariable = (path: string) =>
  `--${segments(path)
    .map((s) => (s.startsWith('-') ? '-' : '') + kebab(s.replace(/^\$root$/, 'root')))
    .filter((s) => s !== '')
    .join('-')}`;

/** The variable's name without its leading category word (as tailwindKey derives from a name). */
function derivedTailwindKey(variable: string, category: Category) {
  const key = variable.slice(2);
  const spec = categorySpec(category) as { prefixes?: readonly string[] };
  for (const word of [category, ...(spec.prefixes ?? [])])
    if (key.startsWith(`${word}-`) && key.length > word.length + 1)
      return key.slice(word.length + 1);
  return key;
}

export function planImport(
  reading: ImportReading,
  existing: Existing,
  options: { missing: 'keep' | 'delete' },
): { problems: string[]; steps: Step[] } {
  const problems = [...reading.problems];
  const stored = new Map(existing.tokens.map((t) => [tokenPath(t).toLowerCase(), t]));
  const base = reading.base.tokens;
  const ids = new Map<string, string>();
  for (const path of base.keys()) ids.set(path, stored.get(path.toLowerCase())?.id ?? newId());

  // Aliases followed (in the file, then in the palette), memoised per resolution.
  const follow = aliasChains(stored, existing.tokens);
  const followers = new Map<Map<string, RawToken>, ReturnType<typeof follow>>();
  const followIn = (tokens: Map<string, RawToken>) =>
    followers.get(tokens) ?? followers.set(tokens, follow(tokens)).get(tokens)!;
  const categories = new Map<string, Category>();
  const cssVariables = new Map<string, string>();
  const names = new Map<string, string>();
  const leafCount = new Map<string, number>();
  for (const path of base.keys()) {
    const leaf = safeName(segments(path).at(-1)!).toLowerCase();
    leafCount.set(leaf, (leafCount.get(leaf) ?? 0) + 1);
  }
  const takenNames = new Set(
    existing.tokens.filter((t) => !base.has(tokenPath(t))).map((t) => t.name.toLowerCase()),
  );
  const { typeOf: typeOfBase, chainProblem } = followIn(base);
  for (const [path, token] of base) {
    const row = stored.get(path.toLowerCase());
    const chain = aliasPath(token.value) === null ? null : chainProblem(path);
    if (chain) {
      problems.push(`${token.at}/$value: ${chain}`);
      continue;
    }
    const type = typeOfBase(path);
    const ext = (token.extensions?.[EXTENSION] ?? {}) as Record<string, unknown>;
    if (type === undefined) {
      problems.push(`${token.at}: no $type (on the token, its groups, or the token it refers to)`);
      continue;
    }
    if (!(DTCG_TYPES as readonly string[]).includes(type)) {
      problems.push(
        `${token.at}/$type: ${JSON.stringify(type)} is not a DTCG type (${DTCG_TYPES.join(', ')})`,
      );
      continue;
    }
    const wanted = ext.category as Category | undefined;
    const category =
      wanted && Object.hasOwn(CATEGORIES, wanted) && holdsType(wanted, type)
        ? wanted
        : row && holdsType(row.category, type)
          ? row.category
          : DEFAULT_CATEGORY[type];
    categories.set(path, category);
    const leaf = safeName(segments(path).at(-1)!);
    const name =
      row?.name ??
      (leafCount.get(leaf.toLowerCase()) === 1 && !takenNames.has(leaf.toLowerCase())
        ? leaf
        : safeName(path));
    if (!row && (name === '' || takenNames.has(name.toLowerCase())))
      problems.push(`${token.at}: the name ${name} is taken by another token of the palette`);
    names.set(path, name);
    const variable =
      typeof ext.cssVariable === 'string' && /^--[A-Za-z0-9_-]+$/.test(ext.cssVariable)
        ? ext.cssVariable
        : (row?.css_variable ?? derivedVariable(path));
    cssVariables.set(path, variable);
  }
  const context = (tokens: Map<string, RawToken>): AliasContext => ({
    aliasPath,
    typeOf: followIn(tokens).typeOf,
    cssVariable: (path) =>
      cssVariables.get(path) ?? stored.get(path.toLowerCase())?.css_variable ?? '--unknown',
  });
  /** A value's columns in a resolution: CSS text or an alias, checked. */
  const valueOf = (token: RawToken, tokens: Map<string, RawToken>, label: string) => {
    const ctx = context(tokens);
    const type = ctx.typeOf(token.path)!;
    const target = aliasPath(token.value);
    const at = `${token.at}/$value`;
    if (target !== null) {
      const chain = followIn(tokens).chainProblem(token.path);
      if (chain && tokens !== base) problems.push(`${at}: ${chain}${label}`);
      const targetType = ctx.typeOf(target);
      if (targetType === undefined)
        problems.push(`${at}: refers to ${target}, which is not a token${label}`);
      else if (targetType !== type)
        problems.push(`${at}: refers to ${target}, a ${targetType} token; this one is a ${type}`);
      if (!ids.has(target) && options.missing === 'delete' && targetType !== undefined)
        problems.push(`${at}: refers to ${target}, which the import deletes (not in the file)`);
      const id = ids.get(target) ?? stored.get(target.toLowerCase())?.id ?? null;
      const path = stored.get(target.toLowerCase())
        ? tokenPath(stored.get(target.toLowerCase())!)
        : target;
      return { value: `{${path}}`, ref: id };
    }
    const found = valueProblems(type, token.value, at, ctx);
    problems.push(...found.map((p) => p + label));
    if (found.length > 0) return { value: '', ref: null };
    const css = valueCss(type, token.value, ctx);
    const kind = categorySpec(categories.get(token.path)!).kind;
    if (!isOfKind(kind, css))
      problems.push(
        `${at}: ${css} is not ${EXPECTED[kind]} (category ${categories.get(token.path)})${label}`,
      );
    return { value: css, ref: null };
  };

  const steps: Step[] = [];
  const usedVariables = new Map<string, string>();
  const usedKeys = new Map<string, string>();
  for (const [path, token] of base) {
    const category = categories.get(path);
    if (!category) continue;
    const row = stored.get(path.toLowerCase());
    const id = ids.get(path)!;
    const main = valueOf(token, base, '');
    const modes: ModeValue[] = [];
    let dark: { value: string; ref: string | null } | null = null;
    let darkSource: unknown;
    for (const [mode, changed] of reading.modes) {
      const inMode = changed.get(path);
      if (!inMode) continue;
      const value = valueOf(
        inMode,
        (reading.resolutions.get(mode) as Reading).tokens,
        ` (in ${mode})`,
      );
      if (mode === DARK_MODE) [dark, darkSource] = [value, inMode.value];
      else modes.push({ mode, ...value, source: inMode.value });
    }
    modes.sort((a, b) => (a.mode < b.mode ? -1 : a.mode > b.mode ? 1 : 0));
    const variable = cssVariables.get(path)!;
    const name = names.get(path)!;
    const key = row?.tailwind_key ?? derivedTailwindKey(variable, category);
    if (usedVariables.has(variable.toLowerCase()))
      problems.push(
        `${token.at}: its CSS variable ${variable} is also ${usedVariables.get(variable.toLowerCase())}'s`,
      );
    usedVariables.set(variable.toLowerCase(), path);
    if (usedKeys.has(`${category}/${key}`))
      problems.push(
        `${token.at}: its tailwindKey ${key} is also ${usedKeys.get(`${category}/${key}`)}'s (category ${category})`,
      );
    usedKeys.set(`${category}/${key}`, path);
    const source: TokenSource = {
      value: token.value,
      ...(dark ? { dark: darkSource } : {}),
      ...(token.deprecated !== undefined ? { deprecated: token.deprecated } : {}),
      ...(token.extensions ? { extensions: token.extensions } : {}),
    };
    const columns: NonNullable<Step['columns']> = {
      name,
      category,
      value_default: main.value,
      value_default_ref: main.ref,
      value_dark: dark?.value ?? null,
      value_dark_ref: dark?.ref ?? null,
      css_variable: variable,
      tailwind_key: key,
      group: row
        ? row.group
        : segments(path).length > 1
          ? segments(path).slice(0, -1).map(safeName).join('.')
          : null,
      path,
      description: token.description ?? null,
      source,
    };
    const same =
      row !== undefined &&
      (Object.keys(columns) as Array<keyof typeof columns>).every(
        (k) =>
          canonical(k === 'source' && row.source ? JSON.parse(row.source) : (row[k] ?? null)) ===
          canonical(columns[k] ?? null),
      ) &&
      canonical(existing.modes.get(row.id) ?? []) === canonical(modes);
    steps.push({
      action: row ? (same ? 'unchanged' : 'updated') : 'created',
      path,
      id,
      columns,
      modes,
    });
  }
  const inFile = new Set([...base.keys()].map((p) => p.toLowerCase()));
  for (const row of existing.tokens)
    if (!inFile.has(tokenPath(row).toLowerCase()))
      if (options.missing === 'delete')
        steps.push({
          action: 'deleted',
          path: tokenPath(row),
          id: row.id,
          columns: null,
          modes: [],
        });
      else if (usedVariables.has(row.css_variable.toLowerCase()))
        problems.push(
          `#: ${usedVariables.get(row.css_variable.toLowerCase())}'s CSS variable ${row.css_variable} is the palette's token ${tokenPath(row)}'s`,
        );
  return { problems, steps };
}
