// The FOCUS columns the import reads: which it requires, which tell charges apart, which it keeps.

/**
 * The columns without which a file is not a FOCUS cost export. (BillingCurrency is FOCUS's too,
 * but the specification's own examples leave it out: without it, rows are in BILLING_CURRENCY.)
 */
export const REQUIRED_COLUMNS = ['BilledCost', 'ChargePeriodStart'] as const;

/**
 * The FOCUS (1.0 to 1.2) columns that tell one charge from another: every dimension, none of the
 * metrics (costs, prices, quantities), which are what a restated export changes. Of an id and its
 * display name ([id, name]) only the id counts, the name when the id is empty: a renamed account
 * is the same account. InvoiceId is left out (it appears once the month is invoiced), and so are
 * provider columns (`x_...`).
 */
export const IDENTITY: ReadonlyArray<string | readonly [string, string]> = [
  'AvailabilityZone',
  ['BillingAccountId', 'BillingAccountName'],
  'BillingAccountType',
  'BillingCurrency',
  'BillingPeriodStart',
  'BillingPeriodEnd',
  'CapacityReservationId',
  'CapacityReservationStatus',
  'ChargeCategory',
  'ChargeClass',
  'ChargeDescription',
  'ChargeFrequency',
  'ChargePeriodStart',
  'ChargePeriodEnd',
  'CommitmentDiscountCategory',
  ['CommitmentDiscountId', 'CommitmentDiscountName'],
  'CommitmentDiscountStatus',
  'CommitmentDiscountType',
  'CommitmentDiscountUnit',
  'ConsumedUnit',
  'InvoiceIssuerName',
  'PricingCategory',
  'PricingCurrency',
  'PricingUnit',
  'ProviderName',
  'PublisherName',
  ['RegionId', 'RegionName'],
  ['ResourceId', 'ResourceName'],
  'ResourceType',
  'ServiceCategory',
  'ServiceName',
  'ServiceSubcategory',
  'SkuId',
  'SkuMeter',
  'SkuPriceId',
  ['SubAccountId', 'SubAccountName'],
  'SubAccountType',
  'Tags',
];

/** Columns an item holds in its own fields; the other dimensions go to `dimensions`. */
const IN_FIELDS = new Set([
  ...REQUIRED_COLUMNS,
  'BillingCurrency',
  'ProviderName',
  'ServiceName',
  'ServiceCategory',
]);
export const TIMESTAMPS = new Set([
  'BillingPeriodStart',
  'BillingPeriodEnd',
  'ChargePeriodStart',
  'ChargePeriodEnd',
]);
/** Every column of IDENTITY, names included: what `dimensions` keeps of a row. */
export const DIMENSIONS = IDENTITY.flat().filter((column) => !IN_FIELDS.has(column));
