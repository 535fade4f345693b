import { sql, type Kysely } from '@platform/db';

/** The channel on which a gateway tells the others that it changed an override. */
export const FLAGS_CHANNEL = 'gateway_feature_flags';

export interface GatewayDatabase {
  feature_overrides: { name: string; enabled: boolean; updated_at: Date };
}
export type GatewayDb = Kysely<GatewayDatabase>;

export type FlagSource = 'override' | 'env' | 'default';

export interface FlagState {
  name: string;
  enabled: boolean;
  source: FlagSource;
  default: boolean;
  env: boolean | null;
  override: boolean | null;
}

/**
 * Feature flags, one per service. A runtime override (stored, so it survives a restart) beats
 * FEATURE_<NAME>, which beats the default (on, except for experimental services).
 */
export class FeatureFlags {
  private constructor(
    private readonly db: GatewayDb,
    private readonly defaults: ReadonlyMap<string, boolean>,
    private readonly env: Readonly<Record<string, boolean | undefined>>,
    private overrides: Map<string, boolean>,
  ) {}

  static async load(
    db: GatewayDb,
    defaults: ReadonlyMap<string, boolean>,
    env: Record<string, boolean | undefined>,
  ) {
    const flags = new FeatureFlags(db, defaults, env, new Map());
    await flags.reload();
    return flags;
  }

  /**
   * Reads the stored overrides again: another gateway on the same database changed one (it said
   * so on FLAGS_CHANNEL), or this one may have missed such a message.
   */
  reload(): Promise<void> {
    // One at a time, each reading after the last: an older read never lands after a newer one.
    const next = this.reloading.then(async () => {
      const rows = await this.db
        .selectFrom('feature_overrides')
        .select(['name', 'enabled'])
        .execute();
      this.overrides = new Map(
        rows.filter((r) => this.defaults.has(r.name)).map((r) => [r.name, r.enabled]),
      );
    });
    this.reloading = next.catch(() => undefined);
    return next;
  }

  private reloading: Promise<void> = Promise.resolve();

  has(name: string) {
    return this.defaults.has(name);
  }

  isEnabled(name: string): boolean {
    return this.state(name).enabled;
  }

  state(name: string): FlagState {
    const fallback = this.defaults.get(name) ?? false;
    const env = this.env[name];
    const override = this.overrides.get(name);
    const source: FlagSource =
      override !== undefined ? 'override' : env !== undefined ? 'env' : 'default';
    return {
      name,
      enabled: override ?? env ?? fallback,
      source,
      default: fallback,
      env: env ?? null,
      override: override ?? null,
    };
  }

  list(): FlagState[] {
    return [...this.defaults.keys()].map((name) => this.state(name));
  }

  async setOverride(name: string, enabled: boolean): Promise<FlagState> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('feature_overrides')
        .values({ name, enabled, updated_at: new Date() })
        .onConflict((oc) => oc.column('name').doUpdateSet({ enabled, updated_at: new Date() }))
        .execute();
      await notifyChanged(trx, name);
    });
    this.overrides.set(name, enabled);
    return this.state(name);
  }

  async clearOverride(name: string): Promise<FlagState> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('feature_overrides').where('name', '=', name).execute();
      await notifyChanged(trx, name);
    });
    this.overrides.delete(name);
    return this.state(name);
  }
}

/** Sent when the transaction commits, to every gateway listening on the database. */
async function notifyChanged(db: GatewayDb, name: string) {
  await sql`select pg_notify(${FLAGS_CHANNEL}, ${name})`.execute(db);
}
