import { ApiError, badRequest, describeIdentity } from '@platform/core';
import type { BlockName } from './blocks.js';
import { backendCall, httpRequest, inferenceChat } from './blocks-more.js';
import { fieldProblems, type Step } from './definition.js';
import {
  billingCreateItem,
  communicationSend,
  ledgerLog,
  pulseTrack,
  sheetsFor,
  type BlockEnv,
} from './peers.js';
import { MAX_RENDERED_CHARS, recordedOutput, refuseNul, RenderBudget, tooLarge } from './limits.js';
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
  'http.request': httpRequest,
  'inference.chat': inferenceChat,
  'backend.call': backendCall,
  respond: async (_env, payload) => payload,
};

export type StepOutcome = { output: unknown; error?: undefined } | { error: ApiError };

/** A step's fields with templates resolved and checked: its input (throws ApiErrors). */
export function prepareInput(env: BlockEnv, step: Step, scope: Scope): unknown {
  const what = step.block === 'respond' ? "the run's result" : "the step's input after templates";
  let input: unknown;
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
  if (size > MAX_RENDERED_CHARS) throw tooLarge(what, size);
  const problem = fieldProblems(step.block, input, false);
  if (problem) throw badRequest(problem);
  return input;
}

/** Runs a step's block on its input. */
export async function callBlock(env: BlockEnv, step: Step, input: unknown): Promise<unknown> {
  return (await BLOCK_RUNNERS[step.block](env, input as Fields)) ?? null;
}

/** A step's failure as the run records it: an ApiError naming the step; others logged, not told. */
export function stepError(env: BlockEnv, label: string, error: unknown): ApiError {
  const known = error instanceof ApiError;
  const code = known ? error.code : 'INTERNAL_ERROR';
  // Only an ApiError's message is meant for the caller; any other is logged, never answered.
  if (!known) env.log.error({ err: error, runId: env.runId, step: label }, 'step failed');
  const message = known
    ? error.message
    : `failed unexpectedly (the stage service logged it for run ${env.runId})`;
  return new ApiError(code, `${label}: ${message}`);
}

export { recordedOutput };
