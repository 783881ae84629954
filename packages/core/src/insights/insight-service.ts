/**
 * The assignment insights (docs/assignments.md). Each answer is one aggregate query in the store;
 * insight-math.ts turns the counts into the exact bodies.
 */
import { authorize, type RequestContext } from '../auth/actor.ts';
import type { InsightFilter } from '../ports/insight-store.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { todayUtc } from '../shared/clock.ts';
import { parseListQuery, type ListSpec, type QueryParams } from '../shared/list-query.ts';
import { parseArgument } from '../shared/validation.ts';
import {
  completionInsight,
  feedbackInsight,
  overdueInsight,
  passFailInsight,
  ratingCountsFromRows,
  ratingsInsight,
  type CompletionInsight,
  type FeedbackInsight,
  type OverdueInsight,
  type PassFailInsight,
  type RatingsInsight,
} from './insight-math.ts';
import { weeklyCompletions, weekStarts, type WeeklyCompletions } from './weekly-completions.ts';

/** The filters every insight takes; reusing the list parser gives the same 400s as lists. */
export const insightFilterSpec = {
  filters: {
    content_item_id: { kind: 'uuid' },
    user_id: { kind: 'uuid' },
    group_id: { kind: 'uuid' },
  },
  ranges: { created: 'datetime' },
  ordering: [],
  defaultOrdering: [],
} as const satisfies ListSpec;

export const insightKinds = ['completion', 'overdue', 'feedback', 'ratings', 'pass-fail', 'weekly-completions'] as const;
export type InsightKind = (typeof insightKinds)[number];

export type Insight = CompletionInsight | OverdueInsight | FeedbackInsight | RatingsInsight | PassFailInsight | WeeklyCompletions;

export function parseInsightFilter(params: QueryParams): InsightFilter {
  const query = parseListQuery(insightFilterSpec, params);
  const filter: InsightFilter = {};
  const { content_item_id: contentItem, user_id: user, group_id: group } = query.filters;
  if (contentItem !== undefined) filter.contentItem = String(contentItem);
  if (user !== undefined) filter.user = String(user);
  if (group !== undefined) filter.group = String(group);
  const created = query.ranges.created;
  if (created?.gte !== undefined) filter.createdGte = created.gte;
  if (created?.lte !== undefined) filter.createdLte = created.lte;
  return filter;
}

export class InsightService {
  constructor(private readonly deps: ServiceDeps) {}

  async get(ctx: RequestContext, kind: InsightKind, params: QueryParams): Promise<Insight> {
    authorize(ctx.actor, 'insights:read');
    parseArgument('kind', insightKinds, kind);
    const filter = parseInsightFilter(params);
    const store = this.deps.storage.insights;
    switch (kind) {
      case 'completion':
        return completionInsight(await store.countsByState(filter));
      case 'overdue':
        return overdueInsight(await store.overdueByState(filter, todayUtc(this.deps.clock)));
      case 'feedback':
        return feedbackInsight(await store.feedbackCounts(filter));
      case 'ratings':
        return ratingsInsight(ratingCountsFromRows(await store.ratingCounts(filter)));
      case 'pass-fail':
        return passFailInsight(await store.passFailCounts(filter));
      case 'weekly-completions': {
        const today = todayUtc(this.deps.clock);
        return weeklyCompletions(today, await store.completionsByDay(filter, `${weekStarts(today)[0]!}T00:00:00.000Z`));
      }
    }
  }
}
