import { Badge, Status } from '@platform/ui';

/** The path of an app's pages: `/apps/<appId>` and what follows. */
export const appPath = (appId: string, rest = '') => `/apps/${encodeURIComponent(appId)}${rest}`;

/** A JSON object typed in a form; empty is undefined, a mistake names the field. */
export function parseObject(name: string, text: string): Record<string, unknown> | undefined {
  if (!text.trim()) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${name} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`${name} must be a JSON object`);
  return value as Record<string, unknown>;
}

/** A delivery's or an attempt's status: accepted (still going) in the accent colour. */
export function DeliveryStatus({ value }: { value: string }) {
  if (value === 'accepted') return <Badge tone="accent">accepted</Badge>;
  if (value === 'retry') return <Badge tone="warning">retry</Badge>;
  return <Status value={value} />;
}
