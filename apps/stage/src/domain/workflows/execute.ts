import { ApiError, badRequest, describeIdentity } from '@platform/core';
import type { BlockName } from './blocks.js';
import { fieldProblems, stepLabel, type Step } from './definition.js';
import {
  billingCreateItem,
  communicationSend,
  ledgerLog,
  pulseTrack,
  sheetsFor,
  type BlockEnv,
} from './peers.js';
import { MAX_RENDERED_CHARS, recordedOutput, refuseNul, RenderBudget, tooLarge } from './limits.js';
import { insertStep } from '../../repositories/runs.js';
import { DEFAULT_TITLE, MAX_APPEND_COLUMNS, MAX_APPEND_ROWS, type Cell } from './sheets.js';
import { render, TemplateError, type Scope } from './template.js';

type Fields = Record<string, unknown>;

const BLOCK_RUNNERS: Record<BlockName, (env: BlockEnv, fields: Fields) => Promise<unknown>> = {
  'communication.send': communicationSend,
  'billing.createItem': billingCreateItem,
  'pulse.track': pulseTrack,
  'ledger.log': ledgerLog,
  'sheets.createSpreadsheet': async (env, f) =>
    (await sheetsFor(env)).create({
      title: (f.title as string | undefined) ?? DEFAULT_TITLE,
      sheets: (f.sheets as string[] | undefined) ?? [],
    }),
  'sheets.appendValues': async (env, f) => {
    const values = f.values as Cell[][];
    refuseNul(values, 'values');
    if (values.length === 0) throw badRequest('field values has no rows');
    if (values.length > MAX_APPEND_ROWS || values.some((r) => r.length > MAX_APPEND_COLUMNS))
      throw badRequest(
        `field values: at most ${MAX_APPEND_ROWS} rows of ${MAX_APPEND_COLUMNS} cells per append`,
      );
    return (await sheetsFor(env)).append({
      spreadsheetId: f.spreadsheetId as string,
      range: f.range as string,
      values,
      valueInputOption: (f.valueInputOption as 'RAW' | 'USER_ENTERED' | undefined) ?? 'RAW',
    });
  },
  'sheets.getValues': async (env, f) =>
    (await sheetsFor(env)).get({
      spreadsheetId: f.spreadsheetId as string,
      range: f.range as string,
      majorDimension: (f.majorDimension as 'ROWS' | 'COLUMNS' | undefined) ?? 'ROWS',
    }),
  respond: async (_env, payload) => payload,
};

export type StepOutcome = { output: unknown; error?: undefined } | { error: ApiError };

/** Resolves a step's templates, checks its fields, runs its block, and records all of it. */
export async function executeStep(
  env: BlockEnv,
  workflow: string,
  step: Step,
  scope: Scope,
): Promise<StepOutcome> {
  const started = performance.now();
  const label = `Workflow ${workflow}, ${stepLabel(step)}`;
  const what = step.block === 'respond' ? "the run's result" : "the step's input after templates";
  let input: unknown = null;
  let outcome: StepOutcome;
  try {
    try {
      input = render(step.fields, scope, new RenderBudget(what));
    } catch (error) {
      if (!(error instanceof TemplateError)) throw error;
      if (error.variable === 'auth.email')
        throw badRequest(
          `auth.email is unavailable: the caller (${describeIdentity(env.identity)}) has no email`,
        );
      throw badRequest(error.message);
    }
    const size = JSON.stringify(input).length;
    if (size > MAX_RENDERED_CHARS) {
      input = null;
      throw tooLarge(what, size);
    }
    const problem = fieldProblems(step.block, input, false);
    if (problem) throw badRequest(problem);
    outcome = { output: (await BLOCK_RUNNERS[step.block](env, input as Fields)) ?? null };
  } catch (error) {
    const known = error instanceof ApiError;
    const code = known ? error.code : 'INTERNAL_ERROR';
    // Only an ApiError's message is meant for the caller; any other is logged, never answered.
    if (!known) env.log.error({ err: error, runId: env.runId, step: step.index }, 'step failed');
    const message = known
      ? error.message
      : `failed unexpectedly (the stage service logged it for run ${env.runId})`;
    outcome = { error: new ApiError(code, `${label}: ${message}`) };
  }
  await insertStep(env.ctx.db, env.runId, {
    index: step.index,
    block: step.block,
    as: step.as,
    input,
    output: outcome.error ? null : recordedOutput(step.block, outcome.output),
    error: outcome.error ? outcome.error.message : null,
    durationMs: Math.round(performance.now() - started),
  });
  return outcome;
}
