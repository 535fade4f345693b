import type { CompiledQuery } from '@platform/db';
import type { CatalogDb } from '../../database.js';
import { graphVersion, graphVersionQuery, loadGraph } from '../../repositories/graph.js';
import { CatalogGraph } from './walk.js';

/** The graph in memory, and the version of the graph_version row it was read at. */
interface Cached {
  version: string;
  graph: Promise<CatalogGraph>;
}

/** The dependency graph of one instance of the catalog, kept in memory between walks. */
export class GraphCache {
  private cached?: Cached;
  private readonly versionQuery: CompiledQuery<{ version: string }>;

  constructor(private readonly db: CatalogDb) {
    this.versionQuery = graphVersionQuery(db);
  }

  /**
   * The graph as of now: the one in memory when the version has not moved since it was loaded,
   * else loaded again (once, however many walks are waiting for it). Costs one small query when
   * nothing changed. Any process writing to the database moves the version (a trigger, in the
   * writer's transaction), so a walk never answers from a graph older than its own read.
   */
  async current(): Promise<CatalogGraph> {
    const version = await graphVersion(this.db, this.versionQuery);
    if (this.cached?.version === version) return this.cached.graph;
    const entry: Cached = {
      version,
      graph: loadGraph(this.db).then(
        (loaded) => {
          // Loaded at this version or a later one (a write committed meanwhile): said as it is.
          entry.version = loaded.version;
          return new CatalogGraph(loaded.rows);
        },
        (error: unknown) => {
          if (this.cached === entry) this.cached = undefined;
          throw error;
        },
      ),
    };
    this.cached = entry;
    return entry.graph;
  }
}
