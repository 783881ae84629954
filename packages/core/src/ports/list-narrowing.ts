import type { RqlValidated } from '../reports/rql/rql-ast.ts';

/**
 * A saved report's part in a list read (docs/reports.md). The rows must also pass `rql.filter`, and a
 * non-empty `rql.ordering` replaces the query's ordering (the report service passes one only when
 * the request sent no `ordering`). The list's own filters, paging and visibility rules still apply,
 * which is what keeps a report from showing anything its caller could not list directly.
 */
export interface ListNarrowing {
  rql?: RqlValidated;
}
