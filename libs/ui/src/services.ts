/** Every service with a web UI, in the order the navigation shows them. */
export const SERVICES = [
  { name: 'catalog', title: 'Catalog' },
  { name: 'palette', title: 'Design system' },
  { name: 'billing', title: 'Billing' },
  { name: 'pulse', title: 'Analytics' },
  { name: 'ledger', title: 'Audit' },
  { name: 'communication', title: 'Communication' },
  { name: 'inference', title: 'Inference' },
  { name: 'stage', title: 'Sandbox' },
  { name: 'git', title: 'Git' },
  { name: 'passport', title: 'Identity' },
] as const;

export type ServiceName = (typeof SERVICES)[number]['name'];
