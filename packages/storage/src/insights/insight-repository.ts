import { sql, type Kysely } from 'kysely';
import type { AssignmentState, InsightFilter, InsightStore } from '@lectern/core/ports';
import { overdueSql } from '../assignments/assignment-repository.ts';
import type { Database } from '../schema.ts';
import { pageReadOf } from '../shared/prepared-query.ts';
import { rowsOf, type ReadQuery } from '../shared/offloaded-reads.ts';

const NOT_DROPPED = sql<boolean>`state <> 'dropped'`;

/** Only the content filter (or none): the per-content statistics answer without touching assignments. */
const answerableFromStats = (filter: InsightFilter) =>
  filter.user === undefined && filter.group === undefined && filter.createdGte === undefined && filter.createdLte === undefined;

const count = (value: unknown) => Number(value ?? 0);

/** No filter at all: the outstanding assignments kept per due date answer the overdue counts. */
const isUnfiltered = (filter: InsightFilter) => answerableFromStats(filter) && filter.contentItem === undefined;

/** A creation date range: its share of the assignments only its bounds tell (see `rows`). */
const hasRange = (filter: InsightFilter) => filter.createdGte !== undefined || filter.createdLte !== undefined;

/**
 * Every insight is one aggregate query. Unfiltered ones read the totals kept per content type
 * (`assignment_totals`, and `assignment_due_totals` for overdue), content-filtered ones the item's
 * own `assignment_stats`, all kept exact by the assignment repository; user, group and date
 * filters aggregate live assignments through their indexes.
 */
export class InsightRepository implements InsightStore {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * An insight's statement. On PostgreSQL, outside a transaction, it runs as a named statement
   * (pageReadOf), parsed and planned once per connection rather than at every request, like a
   * list's page; one whose assignments a bound selects (`bounded`: a date range, the completions
   * since a day, the overdue before today) stays planned for its bound, as a list's range does
   * (listing/resource-definition.ts, readElsewhere).
   */
  private rows<Row>(query: ReadQuery<Row>, bounded: boolean): Promise<Row[]> {
    return rowsOf(query, bounded ? undefined : pageReadOf(this.db));
  }

  /**
   * The kept combinations: over all rows, per content type (a few hundred rows); for one content
   * item, its own. Both tables have the columns the insights read, so one query shape reads either.
   */
  private stats(filter: InsightFilter) {
    const contentItem = filter.contentItem;
    if (contentItem === undefined) return this.db.selectFrom('assignment_totals as s');
    return this.db
      .selectFrom('assignment_stats as s' as 'assignment_totals as s')
      .where(
        sql.ref('s.content_id'),
        '=',
        this.db.selectFrom('content_items as cf').select('cf.id').where('cf.public_id', '=', contentItem),
      );
  }

  private assignments(filter: InsightFilter) {
    let query = this.db.selectFrom('assignments as a').where('a.deleted_at', 'is', null);
    const { contentItem, user, group, createdGte, createdLte } = filter;
    if (contentItem !== undefined) {
      query = query.where('a.content_id', '=', (eb) =>
        eb.selectFrom('content_items as cf').select('cf.id').where('cf.public_id', '=', contentItem),
      );
    }
    if (user !== undefined) {
      query = query.where('a.user_id', '=', (eb) => eb.selectFrom('users as uf').select('uf.id').where('uf.public_id', '=', user));
    }
    if (group !== undefined) {
      query = query.where('a.user_id', 'in', (eb) =>
        eb
          .selectFrom('group_users as gu')
          .innerJoin('groups as g', 'g.id', 'gu.group_id')
          .select('gu.user_id')
          .where('g.public_id', '=', group)
          .where('g.deleted_at', 'is', null)
          .where('gu.relation', '=', 'member'),
      );
    }
    if (createdGte !== undefined) query = query.where('a.created', '>=', createdGte);
    if (createdLte !== undefined) query = query.where('a.created', '<=', createdLte);
    return query;
  }

  async countsByState(filter: InsightFilter): Promise<Partial<Record<AssignmentState, number>>> {
    const rows = answerableFromStats(filter)
      ? await this.rows(
          this.stats(filter)
            .select(['s.state', (eb) => eb.fn.sum<number>('s.n').as('n')])
            .groupBy('s.state'),
          false,
        )
      : await this.rows(
          this.assignments(filter)
            .select(['a.state', (eb) => eb.fn.countAll<number>().as('n')])
            .groupBy('a.state'),
          hasRange(filter),
        );
    return Object.fromEntries(rows.map((row) => [row.state, count(row.n)]));
  }

  async overdueByState(filter: InsightFilter, today: string): Promise<Partial<Record<'not_started' | 'in_progress', number>>> {
    // the kept due dates are a few thousand rows, read alike whatever the day
    const rows = isUnfiltered(filter)
      ? await this.rows(
          this.db
            .selectFrom('assignment_due_totals')
            .where('due_date', '<', today)
            .select(['state', (eb) => eb.fn.sum<number>('n').as('n')])
            .groupBy('state'),
          false,
        )
      : await this.rows(
          this.assignments(filter)
            .where(overdueSql(today))
            .select(['a.state', (eb) => eb.fn.countAll<number>().as('n')])
            .groupBy('a.state'),
          true,
        );
    return Object.fromEntries(rows.map((row) => [row.state, count(row.n)]));
  }

  async feedbackCounts(filter: InsightFilter): Promise<{ ratings_count: number; reviews_count: number }> {
    const [row] = answerableFromStats(filter)
      ? await this.rows(
          this.stats(filter)
            .where(NOT_DROPPED)
            .select([
              sql<number>`sum(case when s.rating > 0 then s.n else 0 end)`.as('ratings'),
              sql<number>`sum(case when s.reviewed = 1 then s.n else 0 end)`.as('reviews'),
            ]),
          false,
        )
      : await this.rows(
          this.assignments(filter)
            .where(NOT_DROPPED)
            .select([
              sql<number>`sum(case when a.feedback_rating is not null then 1 else 0 end)`.as('ratings'),
              sql<number>`sum(case when a.feedback_text <> '' then 1 else 0 end)`.as('reviews'),
            ]),
          hasRange(filter),
        );
    return { ratings_count: count(row?.ratings), reviews_count: count(row?.reviews) };
  }

  async ratingCounts(filter: InsightFilter): Promise<Array<{ rating: number; count: number }>> {
    const rows = answerableFromStats(filter)
      ? await this.rows(
          this.stats(filter)
            .where(NOT_DROPPED)
            .where('s.rating', '>', 0)
            .select(['s.rating', (eb) => eb.fn.sum<number>('s.n').as('n')])
            .groupBy('s.rating'),
          false,
        )
      : await this.rows(
          this.assignments(filter)
            .where(NOT_DROPPED)
            .where('a.feedback_rating', 'is not', null)
            .select(['a.feedback_rating as rating', (eb) => eb.fn.countAll<number>().as('n')])
            .groupBy('a.feedback_rating'),
          hasRange(filter),
        );
    return rows.map((row) => ({ rating: Number(row.rating), count: count(row.n) }));
  }

  async passFailCounts(filter: InsightFilter): Promise<{ passed: number; failed: number }> {
    const [row] = answerableFromStats(filter)
      ? await this.rows(
          this.stats(filter)
            .where('s.state', '=', 'completed')
            .select([
              sql<number>`sum(case when s.success = 1 then s.n else 0 end)`.as('passed'),
              sql<number>`sum(case when s.success = 0 then s.n else 0 end)`.as('failed'),
            ]),
          false,
        )
      : await this.rows(
          this.assignments(filter)
            .where('a.state', '=', 'completed')
            .select([
              sql<number>`sum(case when a.is_success = 1 then 1 else 0 end)`.as('passed'),
              sql<number>`sum(case when a.is_success = 0 then 1 else 0 end)`.as('failed'),
            ]),
          hasRange(filter),
        );
    return { passed: count(row?.passed), failed: count(row?.failed) };
  }

  /**
   * Counted from the index of completions (migration 0025): a covering range scan over the
   * weeks asked, whatever the size of the table. The day is the timestamp's first ten characters,
   * the same text on both databases since timestamps are stored as UTC ISO text.
   */
  async completionsByDay(filter: InsightFilter, since: string): Promise<Array<{ day: string; count: number }>> {
    const day = sql<string>`substr(a.completed_datetime, 1, 10)`;
    const rows = await this.rows(
      this.assignments(filter)
        .where('a.state', '=', 'completed')
        .where('a.completed_datetime', '>=', since)
        .select([day.as('day'), (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy(day),
      true,
    );
    return rows.map((row) => ({ day: row.day, count: count(row.n) }));
  }
}
