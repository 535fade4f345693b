import {
  ApiError,
  badRequest,
  describeIdentity,
  mayOwn,
  ok,
  orConflict,
  ownershipColumns,
  principalOf,
  roleOf,
  responses,
  type Access,
  type AuthorizationOptions,
  type Identity,
  type ServiceRoutes,
} from '@platform/core';
import type { PaletteDatabase } from '../database.js';
import { DARK_MODE, planImport } from '../domain/dtcg/plan.js';
import { isResolver, MODE_NAME, readImport } from '../domain/dtcg/resolver.js';
import { isObject, RESERVED_NAMES } from '../domain/dtcg/tree.js';
import { preludeProblem } from '../domain/css.js';
import {
  applyImport,
  componentsUsing,
  listModes,
  loadExisting,
  saveMode,
  saveModifierDefaults,
} from '../repositories/import.js';
import { lockAliases } from '../repositories/tokens.js';
import {
  ImportBodySchema,
  ImportQuery,
  ImportResultSchema,
  ModeListQuery,
  ModeSchema,
  toMode,
  type ImportOptions,
  type ImportResult,
} from '../schemas/import.js';
import { Type } from '@platform/core';

const IMPORT_BODY_LIMIT = 20 * 1024 * 1024;
const WRAPPER = ['document', 'resolver', 'documents', 'modes', 'dryRun', 'missing'];

/** Members import (creating tokens); changing or deleting tokens needs their ownership. */
const IMPORT: Access = { resource: 'palette.import', action: 'create' };
const READ: Access = { resource: 'palette.token', action: 'read' };

/** The document(s) and options of a body, with the problems of the options. */
function unwrap(
  body: Record<string, unknown>,
  query: { dryRun?: boolean; missing?: 'keep' | 'delete' },
) {
  const wrapped =
    (isObject(body.resolver) || isObject(body.document)) &&
    Object.keys(body).every((k) => WRAPPER.includes(k));
  const problems: string[] = [];
  const options: ImportOptions = {
    dryRun: query.dryRun ?? false,
    missing: query.missing ?? 'keep',
    modes: new Map(),
  };
  if (!wrapped) return { doc: body, documents: {}, options, problems };
  if (body.dryRun !== undefined) {
    if (typeof body.dryRun !== 'boolean') problems.push('body#/dryRun: true or false');
    else options.dryRun = body.dryRun;
  }
  if (body.missing !== undefined) {
    if (body.missing !== 'keep' && body.missing !== 'delete')
      problems.push('body#/missing: keep or delete');
    else options.missing = body.missing;
  }
  if (body.documents !== undefined && !isObject(body.documents))
    problems.push('body#/documents: an object of documents by the $ref that names them');
  for (const [mode, setting] of Object.entries(isObject(body.modes) ? body.modes : {})) {
    const s = setting as Record<string, unknown>;
    const [modifier, context, ...rest] = mode.split(':');
    const named = (n: string | undefined) =>
      n !== undefined && MODE_NAME.test(n) && !RESERVED_NAMES.includes(n);
    const selector = isObject(s) && typeof s.selector === 'string' ? s.selector.trim() : '';
    const media = isObject(s) && typeof s.media === 'string' ? s.media.trim() : null;
    const selectorProblem = preludeProblem('selector', selector);
    const mediaProblem = media === null ? null : preludeProblem('media', media);
    if (rest.length > 0 || !named(modifier) || !named(context))
      problems.push(
        `body#/modes/${mode}: a mode is <modifier>:<context>, both letters, digits, _ and -`,
      );
    else if (selectorProblem)
      problems.push(
        `body#/modes/${mode}/selector: a CSS selector is expected (${selectorProblem})`,
      );
    else if (isObject(s) && s.media != null && typeof s.media !== 'string')
      problems.push(`body#/modes/${mode}/media: a media query or null is expected`);
    else if (mediaProblem)
      problems.push(`body#/modes/${mode}/media: a media query is expected (${mediaProblem})`);
    else options.modes.set(mode, { selector, media });
  }
  const doc = isObject(body.resolver) ? body.resolver : body.document;
  if (isObject(body.resolver) && !isResolver(body.resolver))
    problems.push('body#/resolver: a resolver has a resolutionOrder');
  return {
    doc,
    documents: (isObject(body.documents) ? body.documents : {}) as Record<string, unknown>,
    options,
    problems,
  };
}

async function ownerCheck(identity: Identity, access: AuthorizationOptions) {
  const { teams } = await principalOf(identity, access.authOn ? access.teams : undefined);
  const known: AuthorizationOptions = { ...access, teams: async () => teams };
  return (ownership: { createdBy: string | null; team: string | null }) =>
    mayOwn(identity, ownership, known);
}

export const importRoutes: ServiceRoutes<PaletteDatabase> = async (app, { db, access }) => {
  app.post(
    '/import',
    {
      bodyLimit: IMPORT_BODY_LIMIT,
      config: { access: IMPORT },
      schema: {
        operationId: 'importTokens',
        summary: 'Import a DTCG 2025.10 token file or resolver',
        description:
          "Reads every DTCG type, $type inheritance, aliases ({a.b} and $ref), $extends, $deprecated and $extensions; a resolver's modifiers become modes (<modifier>:<context>; theme:dark is the dark value). Categories come from $type. Everything is checked first: a refusal (400) lists every problem with its JSON path and writes nothing; else all is written in one transaction. dryRun reports what would change; missing=delete deletes the tokens the file does not have (kept by default). Changing a token needs what its PUT needs; changing the selector or media query of a mode that exists needs the role admin.",
        querystring: ImportQuery,
        body: ImportBodySchema,
        response: responses({ 200: ImportResultSchema }),
      },
    },
    async (request) => {
      const {
        doc,
        documents,
        options,
        problems: optionProblems,
      } = unwrap(request.body as Record<string, unknown>, request.query);
      const owned = await ownershipColumns(request.identity, undefined, access);
      const mayChange = await ownerCheck(request.identity, access);
      const reading = readImport(doc, documents);
      const outcome = await orConflict(
        () =>
          db.transaction().execute(async (trx) => {
            await lockAliases(trx);
            const existing = await loadExisting(trx);
            const { problems, steps } = planImport(reading, existing, options);
            problems.unshift(...optionProblems);
            const gone = steps.filter((s) => s.action === 'deleted');
            for (const use of await componentsUsing(
              trx,
              gone.map((s) => s.id),
            ))
              problems.push(
                `#: ${gone.find((s) => s.id === use.token_id)?.path} would be deleted, but component ${use.name} uses it`,
              );
            if (problems.length > 0)
              throw badRequest(
                `Import refused, nothing written: ${problems.length} problem${problems.length === 1 ? '' : 's'}\n${problems.map((p) => `- ${p}`).join('\n')}`,
              );
            const rows = new Map(existing.tokens.map((t) => [t.id, t]));
            const refused: typeof steps = [];
            for (const s of steps) {
              const row = rows.get(s.id);
              if ((s.action === 'updated' || s.action === 'deleted') && row)
                if (!(await mayChange({ createdBy: row.created_by, team: row.team })))
                  refused.push(s);
            }
            // A mode's selector and media query are the whole palette's CSS: only admins change
            // those of a mode that exists; anyone who may import sets those of a new mode.
            const current = new Map(
              (await listModes(trx, { limit: 10000, offset: 0 })).map((m) => [m.name, m]),
            );
            const admin = !access.authOn || roleOf(request.identity, true) === 'admin';
            const modesRefused = admin
              ? []
              : [...options.modes].filter(([mode, setting]) => {
                  const row = current.get(mode);
                  return row && (row.selector !== setting.selector || row.media !== setting.media);
                });
            if (!options.dryRun && refused.length === 0 && modesRefused.length === 0) {
              await applyImport(trx, steps, owned);
              await saveModifierDefaults(trx, reading.modifiers);
              for (const mode of reading.modes.keys()) {
                const [modifier, context] = mode.split(':');
                if (!options.modes.has(mode) && !current.has(mode) && mode !== DARK_MODE)
                  await saveMode(trx, {
                    name: mode,
                    selector: `[data-${modifier}="${context}"]`,
                    media: null,
                  });
              }
              for (const [mode, setting] of options.modes)
                await saveMode(trx, { name: mode, ...setting });
            }
            return { steps, refused, modesRefused: modesRefused.map(([mode]) => mode) };
          }),
        'A token of the import was written meanwhile by someone else; import again',
      );
      if (outcome.modesRefused.length > 0)
        throw new ApiError(
          'FORBIDDEN',
          `${describeIdentity(request.identity)} may not change the selector or media query of mode ${outcome.modesRefused.join(', ')}: the role admin is needed, nothing written`,
        );
      if (outcome.refused.length > 0)
        throw new ApiError(
          'FORBIDDEN',
          `${describeIdentity(request.identity)} may not change tokens it does not own, nothing written: ${outcome.refused.map((s) => s.path).join(', ')}`,
        );
      const count = (action: string) => outcome.steps.filter((s) => s.action === action).length;
      const answer: ImportResult = {
        dryRun: options.dryRun,
        created: count('created'),
        updated: count('updated'),
        unchanged: count('unchanged'),
        deleted: count('deleted'),
        tokens: outcome.steps.map((s) => ({
          path: s.path,
          action: s.action,
          id: options.dryRun && s.action === 'created' ? null : s.id,
          category: s.columns?.category ?? null,
        })),
        modes: [...reading.modes.keys()],
        ignored: reading.ignored,
      };
      return ok(answer);
    },
  );

  app.get(
    '/modes',
    {
      config: { access: READ },
      schema: {
        operationId: 'listModes',
        summary: 'List the modes and where the CSS export puts them',
        description:
          'Modes beyond light come from imported resolvers (<modifier>:<context>). theme:dark is the dark value; without a setting of its own it goes under [data-theme="dark"] and prefers-color-scheme: dark. Others default to [data-<modifier>="<context>"]; an import\'s `modes` sets a selector and media query.',
        querystring: ModeListQuery,
        response: responses({ 200: Type.Array(ModeSchema) }),
      },
    },
    async (request) => ok((await listModes(db, request.query)).map(toMode)),
  );
};
