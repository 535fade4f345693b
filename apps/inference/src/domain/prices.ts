/**
 * US dollars per million tokens, [input, output], for the models routed by name; a dated
 * snapshot (`claude-sonnet-4-20250514`) is priced as its family: the longest matching prefix.
 * Since $/M tokens × tokens = micro-dollars, the cost is an integer without conversion.
 */
const PRICES: Record<string, readonly [number, number]> = {
  'gpt-4o': [2.5, 10],
  'gpt-4o-mini': [0.15, 0.6],
  'gpt-4.1': [2, 8],
  'gpt-4.1-mini': [0.4, 1.6],
  'gpt-4.1-nano': [0.1, 0.4],
  'gpt-5': [1.25, 10],
  'gpt-5-mini': [0.25, 2],
  'gpt-3.5-turbo': [0.5, 1.5],
  'text-embedding-3-small': [0.02, 0],
  'text-embedding-3-large': [0.13, 0],
  'claude-opus-4': [15, 75],
  'claude-sonnet-4': [3, 15],
  'claude-3-7-sonnet': [3, 15],
  'claude-3-5-sonnet': [3, 15],
  'claude-3-5-haiku': [0.8, 4],
  'claude-haiku-4-5': [1, 5],
  'gemini-2.5-pro': [1.25, 10],
  'gemini-2.5-flash': [0.3, 2.5],
  'gemini-2.0-flash': [0.1, 0.4],
  'text-embedding-004': [0, 0],
  'mock-': [0, 0],
};

const KEYS = Object.keys(PRICES).sort((a, b) => b.length - a.length);

/** Integer micro-dollars; null when the model is not in the table or no token count is known. */
export function costMicros(model: string, input: number | null, output: number | null) {
  const key = KEYS.find((k) => model === k || model.startsWith(k.endsWith('-') ? k : `${k}-`));
  if (!key || (input === null && output === null)) return null;
  const [inPrice, outPrice] = PRICES[key];
  return Math.round((input ?? 0) * inPrice + (output ?? 0) * outPrice);
}
