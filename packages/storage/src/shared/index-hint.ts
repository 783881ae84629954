/**
 * SQLite's `INDEXED BY` on a list query's own table. SQLite plans without statistics (Lectern
 * gathers none: docs/scaling.md, "Planner statistics and query plans"), so on a list it cannot
 * tell a filter that keeps a fifth of the rows from one that keeps twenty; the list builder, which
 * knows the exact totals, names the index instead (`ListDefinition.indexes`). PostgreSQL plans
 * from its own statistics and never gets a hint.
 */
import { FromNode, RawNode, SelectQueryNode, type KyselyPlugin, type RootOperationNode, type SelectQueryBuilder } from 'kysely';

/** Rewrites the outermost `FROM <table> as <alias>` only: subqueries keep their own plans. */
const indexedByPlugin = (index: string): KyselyPlugin => ({
  transformQuery: ({ node }): RootOperationNode => {
    if (!SelectQueryNode.is(node) || !node.from) return node;
    const [first, ...rest] = node.from.froms;
    if (!first) return node;
    // index names are the migrations' constants, never input
    const hinted = RawNode.create(['', ` indexed by "${index}"`], [first]);
    return { ...node, from: FromNode.create([hinted, ...rest]) };
  },
  transformResult: async ({ result }) => result,
});

/** `query` reading its table through `index`, or as it is when there is none. */
export const indexedBy = <DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  index: string | undefined,
): SelectQueryBuilder<DB, TB, O> => (index === undefined ? query : query.withPlugin(indexedByPlugin(index)));
