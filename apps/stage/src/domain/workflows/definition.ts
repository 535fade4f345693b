import { ApiError, badRequest, notFound } from '@platform/core';
import { BLOCK_NAMES, BLOCKS, typeProblem, type BlockName, type Field } from './blocks.js';
import { MAX_DEPTH, tooDeep } from './limits.js';
import { lookupsIn, TemplateError } from './template.js';
import { CONTROL_KEYS, MAX_ALL_STEPS, parseControl, parseRetry, type ControlNode, type ParseState, type Retry } from './nodes.js'; // prettier-ignore
import { parseTriggers, type Trigger } from './triggers.js';

/** Where an app keeps its workflows (spec 2.2). */
export const WORKFLOWS_FILE = '/app/platform.workflows.json';
export const MAX_STEPS = 100;
const AS = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
const WHOLE_TEMPLATE = /^\s*\{\{[^{}]*\}\}\s*$/;
/** Names that would reach an object's prototype: never a step's `as`. */
const RESERVED = ['__proto__', 'constructor', 'prototype'];

export interface Step {
  index: number;
  block: BlockName;
  as: string | null;
  /** The block's fields (or, for respond, its payload), templates unresolved. */
  fields: unknown;
  /** `retry: { attempts, backoff }` beside the block key (absent: one attempt). */
  retry?: Retry;
}

/** A step of a workflow: a block's, or a control step (if, forEach, parallel, ...). */
export type Node = Step | ControlNode;

export const isBlock = (node: Node): node is Step => 'block' in node;

export interface Workflow {
  name: string;
  steps: Node[];
  triggers?: Trigger[];
}

/** `steps[2] (sheets.appendValues as "row")`: how messages name a step (by its path when nested). */
export const stepLabel = (
  step: { index: number; block: string; as: string | null },
  path?: string,
) => `${path ?? `steps[${step.index}]`} (${step.block}${step.as ? ` as "${step.as}"` : ''})`;

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** A value not yet resolved: a string that is exactly one template may become any type. */
function looseProblem(value: unknown, field: Field): string | null {
  if (typeof value === 'string' && WHOLE_TEMPLATE.test(value)) return null;
  if (field.type === 'rows' && Array.isArray(value))
    return typeProblem(
      value.filter((row) => !(typeof row === 'string' && WHOLE_TEMPLATE.test(row))),
      field,
    );
  return typeProblem(value, field);
}

/**
 * A step's fields checked against its block: unknown fields, required ones, types. `loose`
 * (the definition) lets a field be a template; otherwise (resolved) the types must be exact.
 */
export function fieldProblems(block: BlockName, fields: unknown, loose: boolean): string | null {
  if (block === 'respond') return null;
  const spec: Record<string, Field> = BLOCKS[block];
  if (!isObject(fields))
    return `its value must be an object of fields (${Object.keys(spec).join(', ')})`;
  for (const key of Object.keys(fields))
    if (!(key in spec))
      return `unknown field ${key} (the fields of ${block}: ${Object.keys(spec).join(', ')})`;
  for (const [key, field] of Object.entries(spec)) {
    const value = fields[key];
    if (value === undefined || value === null) {
      if (field.required) return `field ${key} is required`;
      continue;
    }
    const problem = loose ? looseProblem(value, field) : typeProblem(value, field);
    if (problem) return `field ${key} ${problem}`;
  }
  return null;
}

/** Too deep (checked first: the other checks recurse), or a template in an object key. */
function shapeProblem(step: Step): string | null {
  // A block's fields are named by their key, respond's value is its payload.
  const root = step.block === 'respond' ? 'payload' : '';
  const fields: Array<[string, unknown]> =
    root || !isObject(step.fields)
      ? [[root || 'fields', step.fields]]
      : Object.entries(step.fields);
  for (const [field, value] of fields) {
    const deep = tooDeep(value, field, MAX_DEPTH - 1);
    if (deep) return `field ${deep} nests deeper than ${MAX_DEPTH} levels`;
  }
  const stack: Array<[unknown, string]> = [[step.fields, root]];
  while (stack.length) {
    const [value, path] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    for (const [key, item] of Object.entries(value)) {
      const at = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
      if (!Array.isArray(value) && key.includes('{{'))
        return `field ${at}: templates are not allowed in object keys, only in values`;
      stack.push([item, at]);
    }
  }
  return null;
}

/** The first template problem among a step's values, naming the field it is in. */
function templateProblem(step: Step, earlier: ReadonlySet<string>): string | null {
  const entries =
    step.block === 'respond' || !isObject(step.fields)
      ? [['payload', step.fields] as const]
      : Object.entries(step.fields);
  for (const [field, value] of entries) {
    try {
      for (const lookup of lookupsIn(value)) {
        if (lookup.root !== 'steps') continue;
        const name = lookup.segments[0];
        if (typeof name !== 'string' || !earlier.has(name))
          return `field ${field}: unknown template variable ${lookup.text} (steps.<name> is the output of an earlier step named with "as"${earlier.size ? `: ${[...earlier].join(', ')}` : ''})`;
      }
    } catch (error) {
      if (error instanceof TemplateError) return `field ${field}: ${error.message}`;
      throw error;
    }
  }
  return null;
}

/** The name a step's `as` gives it: unique in the workflow, nested steps included. */
function takeName(names: Set<string>, as: unknown, where: string): string | null {
  if (as === null) return null;
  if (typeof as !== 'string' || !AS.test(as))
    throw badRequest(
      `${where}: field as must be a name of letters, digits, _ or - (1-64, not starting with a digit or -)`,
    );
  if (RESERVED.includes(as))
    throw badRequest(`${where}: field as: ${as} is reserved (${RESERVED.join(', ')})`);
  if (names.has(as)) throw badRequest(`${where}: field as: ${as} names an earlier step already`);
  names.add(as);
  return as;
}

/** A list of steps (the workflow's, a branch's, a loop's), each at `<path>[i]`. */
function parseNodes(raw: unknown, path: string, state: ParseState, parent?: number): Node[] {
  const where = `Workflow ${state.workflow}, ${path}`;
  if (!Array.isArray(raw)) throw badRequest(`${where} must be an array of steps`);
  state.count.n += raw.length;
  if (state.count.n > MAX_ALL_STEPS)
    throw badRequest(`Workflow ${state.workflow} has more than ${MAX_ALL_STEPS} steps, nested ones included`); // prettier-ignore
  return raw.map((item, i) => {
    const at = `${path}[${i}]`;
    const index = parent ?? i;
    if (isObject(item) && CONTROL_KEYS.some((k) => k in item))
      return parseControl(item, at, index, state, (s, p, st) => parseNodes(s, p, st, index), (as, w) => takeName(state.names, as, w))!; // prettier-ignore
    return parseStep(state.workflow, item, index, state.names, at);
  });
}

function parseStep(
  workflow: string,
  raw: unknown,
  index: number,
  names: Set<string>,
  path = `steps[${index}]`,
): Step {
  const where = `Workflow ${workflow}, ${path}`;
  if (!isObject(raw)) throw badRequest(`${where} must be an object with one key naming a block`);
  const keys = Object.keys(raw).filter((k) => k !== 'as' && k !== 'retry');
  if (keys.length !== 1)
    throw badRequest(
      `${where} must have exactly one key naming a block (besides "as"), it has ${keys.length ? keys.join(', ') : 'none'}`,
    );
  const block = keys[0];
  if (!BLOCK_NAMES.includes(block as BlockName))
    throw badRequest(`${where}: unknown block ${block} (blocks: ${BLOCK_NAMES.join(', ')})`);
  const as = raw.as ?? null;
  if (as !== null && (typeof as !== 'string' || !AS.test(as)))
    throw badRequest(
      `${where} (${block}): field as must be a name of letters, digits, _ or - (1-64, not starting with a digit or -)`,
    );
  if (as !== null && RESERVED.includes(as))
    throw badRequest(`${where} (${block}): field as: ${as} is reserved (${RESERVED.join(', ')})`);
  if (as !== null && names.has(as))
    throw badRequest(`${where} (${block}): field as: ${as} names an earlier step already`);
  const step: Step = { index, block: block as BlockName, as, fields: raw[block] };
  const label = `Workflow ${workflow}, ${stepLabel(step, path)}`;
  const retry = parseRetry(raw.retry, label);
  if (retry) step.retry = retry;
  const problem =
    shapeProblem(step) ??
    fieldProblems(step.block, step.fields, true) ??
    templateProblem(step, names);
  if (problem) throw badRequest(`${label}: ${problem}`);
  if (as !== null) names.add(as);
  return step;
}

/** The named workflow of a workflows file, checked; 400 or 404 naming what is wrong. */
export function parseWorkflow(appName: string, content: string, name: string): Workflow {
  let file: unknown;
  try {
    file = JSON.parse(content);
  } catch (error) {
    throw badRequest(`${WORKFLOWS_FILE} of ${appName} is not JSON: ${(error as Error).message}`);
  }
  if (!isObject(file)) throw badRequest(`${WORKFLOWS_FILE} must hold an object`);
  for (const key of Object.keys(file))
    if (key !== 'version' && key !== 'workflows' && key !== '$schema')
      throw badRequest(
        `${WORKFLOWS_FILE} has an unknown field: ${key} (fields: version, workflows)`,
      );
  if (file.version !== 1)
    throw badRequest(
      `${WORKFLOWS_FILE}: field version must be 1, got ${JSON.stringify(file.version ?? null)}`,
    );
  if (!isObject(file.workflows))
    throw badRequest(
      `${WORKFLOWS_FILE}: field workflows must be an object of workflow name to { steps }`,
    );
  if (!Object.prototype.hasOwnProperty.call(file.workflows, name)) {
    const known = Object.keys(file.workflows);
    throw new ApiError(
      'NOT_FOUND',
      `Workflow not found: ${name} (${appName} has ${known.length ? known.join(', ') : 'none'})`,
    );
  }
  const workflow = file.workflows[name];
  if (!isObject(workflow) || !Array.isArray(workflow.steps))
    throw badRequest(`Workflow ${name}: field steps must be an array`);
  for (const key of Object.keys(workflow))
    if (key !== 'steps' && key !== 'description' && key !== 'triggers')
      throw badRequest(
        `Workflow ${name} has an unknown field: ${key} (fields: steps, description, triggers)`,
      );
  if (workflow.steps.length === 0) throw badRequest(`Workflow ${name}: field steps is empty`);
  if (workflow.steps.length > MAX_STEPS)
    throw badRequest(
      `Workflow ${name}: field steps has ${workflow.steps.length} steps, at most ${MAX_STEPS}`,
    );
  const state: ParseState = { workflow: name, names: new Set(), count: { n: 0 }, depth: 0 };
  const steps = parseNodes(workflow.steps, 'steps', state);
  const triggers = parseTriggers(name, workflow.triggers);
  return triggers ? { name, steps, triggers } : { name, steps };
}

/** The 404 of an app without a workflows file. */
export const noWorkflowsFile = (appName: string) => notFound(`${WORKFLOWS_FILE} of app`, appName);
