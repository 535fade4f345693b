import type {
  Kysely,
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryId,
} from 'kysely';
import type { PlatformDatabase } from '@platform/db';

export interface CountedDatabase {
  /** The same database; every query made through it (or a schema of it) is counted. */
  db: PlatformDatabase;
  /** Queries made since the start or the last reset. */
  count(): number;
  /** What they were, in order: `insert <table>` for inserts, else the statement's kind. */
  statements(): string[];
  reset(): void;
}

/** `insert requests`, `SelectQueryNode`, ...: enough to tell a statement from another. */
function describe(node: OperationNode): string {
  const into = (node as { into?: { table?: { identifier?: { name?: string } } } }).into;
  const table = into?.table?.identifier?.name;
  return node.kind === 'InsertQueryNode' && table ? `insert ${table}` : node.kind;
}

/** Counts the SQL statements a service runs: proves that a list costs a constant number of them. */
export function countQueries(database: PlatformDatabase): CountedDatabase {
  let statements: string[] = [];
  const kinds = new WeakMap<QueryId, string>();
  const counter: KyselyPlugin = {
    // Called for every query builder, subqueries included: not a count of statements.
    transformQuery(args: PluginTransformQueryArgs) {
      if (!kinds.has(args.queryId)) kinds.set(args.queryId, describe(args.node));
      return args.node;
    },
    // Called once per statement executed.
    async transformResult(args: PluginTransformResultArgs) {
      statements.push(kinds.get(args.queryId) ?? 'unknown');
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
    count: () => statements.length,
    statements: () => [...statements],
    reset: () => {
      statements = [];
    },
  };
}
