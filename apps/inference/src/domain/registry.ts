import type { InferenceDb, ProviderRow } from '../database.js';
import { listProviders } from '../repositories/providers.js';

/**
 * How long this instance believes its copy of the providers table without reading it again.
 * Its own writes forget the copy at once; another instance's are seen within this time (they
 * also announce themselves with pg_notify on PROVIDER_CHANGES, for when the service context
 * offers `listen`).
 */
export const PROVIDERS_CACHE_MS = 2000;

/**
 * The providers, in memory: routing a call reads no row. One read refreshes the whole (small)
 * table, oldest first like `listProviders`; concurrent callers share it.
 */
export class ProviderRegistry {
  private rows?: readonly ProviderRow[];
  private loadedAt = 0;
  private generation = 0;
  private loading?: Promise<readonly ProviderRow[]>;

  constructor(
    private readonly db: InferenceDb,
    private readonly ttlMs = PROVIDERS_CACHE_MS,
  ) {}

  /** A provider was created, changed or deleted: the next call reads the table again. */
  forget() {
    this.generation++;
    this.rows = undefined;
    this.loading = undefined;
  }

  all(): Promise<readonly ProviderRow[]> | readonly ProviderRow[] {
    if (this.rows && performance.now() - this.loadedAt < this.ttlMs) return this.rows;
    if (!this.loading) {
      const generation = this.generation;
      const loading = listProviders(this.db, { limit: 10_000, offset: 0 }).then((rows) => {
        // A write since the read started may be missing from it: keep it for no one else.
        if (generation === this.generation) {
          this.rows = rows;
          this.loadedAt = performance.now();
        }
        return rows;
      });
      this.loading = loading;
      const done = () => {
        if (this.loading === loading) this.loading = undefined;
      };
      loading.then(done, done);
    }
    return this.loading;
  }

  /** By exact id, else by name in any case (as findByIdOrName). */
  async byIdOrName(idOrName: string): Promise<ProviderRow | undefined> {
    const rows = await this.all();
    const lower = idOrName.toLowerCase();
    return rows.find((p) => p.id === idOrName) ?? rows.find((p) => p.name.toLowerCase() === lower);
  }

  /** The oldest provider of `type`, or the one of that type named `name` (any case). */
  async ofType(type: string, name?: string): Promise<ProviderRow | undefined> {
    const rows = await this.all();
    const lower = name?.toLowerCase();
    return rows.find(
      (p) => p.type === type && (lower === undefined || p.name.toLowerCase() === lower),
    );
  }
}
