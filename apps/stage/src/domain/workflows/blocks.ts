// The blocks a workflow step may name, and the fields each takes (documented in the README).

export type FieldType = 'string' | 'integer' | 'boolean' | 'object' | 'strings' | 'rows' | 'any';

export interface Field {
  type: FieldType;
  required?: boolean;
  /** Allowed values of a string. */
  oneOf?: readonly string[];
}

const str = (required = false): Field => ({ type: 'string', required });
const OBJECT: Field = { type: 'object' };

export const BLOCKS = {
  'communication.send': {
    channelId: str(true),
    to: str(),
    subject: str(),
    text: str(true),
    html: str(),
    metadata: OBJECT,
  },
  'billing.createItem': {
    name: str(true),
    amount: { type: 'integer', required: true },
    currency: str(),
    provider: str(),
    providerRef: str(),
    tags: { type: 'strings' },
    description: str(),
    recurring: { type: 'boolean' },
    period: { type: 'string', oneOf: ['daily', 'weekly', 'monthly', 'quarterly', 'yearly'] },
    date: str(),
    category: str(),
    service: str(),
    stageApp: str(),
    author: str(),
  },
  'pulse.track': {
    id: str(),
    name: str(true),
    properties: OBJECT,
    userId: str(),
    sessionId: str(),
    timestamp: str(),
  },
  'ledger.log': {
    action: str(true),
    actor: str(),
    resource: str(),
    service: str(),
    metadata: OBJECT,
    details: OBJECT,
    timestamp: str(),
  },
  'sheets.createSpreadsheet': {
    title: str(),
    sheets: { type: 'strings' },
  },
  'sheets.appendValues': {
    spreadsheetId: str(true),
    range: str(true),
    values: { type: 'rows', required: true },
    valueInputOption: { type: 'string', oneOf: ['RAW', 'USER_ENTERED'] },
  },
  'sheets.getValues': {
    spreadsheetId: str(true),
    range: str(true),
    majorDimension: { type: 'string', oneOf: ['ROWS', 'COLUMNS'] },
  },
  'http.request': {
    url: str(true),
    method: { type: 'string', oneOf: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] },
    headers: OBJECT,
    body: { type: 'any' },
    failOnError: { type: 'boolean' },
  },
  'inference.chat': {
    model: str(),
    messages: { type: 'any', required: true },
    maxTokens: { type: 'integer' },
    providerId: str(),
    fallbacks: { type: 'strings' },
  },
  'backend.call': {
    path: str(true),
    method: { type: 'string', oneOf: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
    headers: OBJECT,
    body: { type: 'any' },
    failOnError: { type: 'boolean' },
  },
  /** Its value is the payload itself (any JSON), not fields. */
  respond: {},
} satisfies Record<string, Record<string, Field>>;

export type BlockName = keyof typeof BLOCKS;
export const BLOCK_NAMES = Object.keys(BLOCKS) as BlockName[];

const isCell = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/** Why `value` is not of `field`'s type, or null when it is. */
export function typeProblem(value: unknown, field: Field): string | null {
  switch (field.type) {
    case 'string':
      if (typeof value !== 'string') return 'must be a string';
      if (field.oneOf && !field.oneOf.includes(value))
        return `must be one of ${field.oneOf.join(', ')}`;
      return null;
    case 'integer':
      return Number.isSafeInteger(value) ? null : 'must be an integer';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value)
        ? null
        : 'must be an object';
    case 'strings':
      return Array.isArray(value) && value.every((v) => typeof v === 'string')
        ? null
        : 'must be an array of strings';
    case 'rows':
      return Array.isArray(value) && value.every((row) => Array.isArray(row) && row.every(isCell))
        ? null
        : 'must be an array of rows, each an array of strings, numbers, booleans or nulls';
    default:
      return null;
  }
}
