import type {
  Kysely,
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
} from 'kysely';
import type { PlatformDatabase } from '@platform/db';

export interface CountedDatabase {
  /** The same database; every query made through it (or a schema of it) is counted. */
  db: PlatformDatabase;
  /** Queries made since the start or the last reset. */
  count(): number;
  reset(): void;
}

/** Counts the SQL statements a service runs: proves that a list costs a constant number of them. */
export function countQueries(database: PlatformDatabase): CountedDatabase {
  let queries = 0;
  const counter: KyselyPlugin = {
    // Called for every query builder, subqueries included: not a count of statements.
    transformQuery(args: PluginTransformQueryArgs) {
      return args.node;
    },
    // Called once per statement executed.
    async transformResult(args: PluginTransformResultArgs) {
      queries += 1;
      return args.result;
    },
  };
  const kysely = database.kysely.withPlugin(counter);
  return {
    db: {
      ...database,
      kysely,
      schema: <DB>(name: string) => kysely.withSchema(name) as unknown as Kysely<DB>,
    },
    count: () => queries,
    reset: () => {
      queries = 0;
    },
  };
}
