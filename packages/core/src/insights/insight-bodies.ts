/**
 * The bodies of the assignment insight routes as the API document declares them, so a client (the
 * console's charts) reads `total` or a bucket without guessing. insight-math.ts builds them; the
 * checks at the end make the compiler refuse a schema that drifts from what it builds.
 */
import { z } from 'zod';
import { apiSchemaNames } from '../shared/api-schema-names.ts';
import type { CompletionInsight, FeedbackInsight, OverdueInsight, PassFailInsight, RatingsInsight } from './insight-math.ts';

const bucket = z.object({ count: z.number().int(), percentage: z.number().int() });

export const completionInsightSchema = z
  .object({ total: z.number().int(), completed: bucket, in_progress: bucket, not_started: bucket, dropped: bucket, exempted: bucket })
  .register(apiSchemaNames, { id: 'CompletionInsight' });

export const overdueInsightSchema = z
  .object({ total: z.number().int(), not_started: bucket, in_progress: bucket })
  .register(apiSchemaNames, { id: 'OverdueInsight' });

export const feedbackInsightSchema = z
  .object({ ratings_count: z.number().int(), reviews_count: z.number().int() })
  .register(apiSchemaNames, { id: 'FeedbackInsight' });

export const ratingsInsightSchema = z
  .object({
    total: z.number().int(),
    /** the mean star value to two decimals; null before the first rating */
    average: z.number().nullable(),
    distribution: z.object({ '1': bucket, '2': bucket, '3': bucket, '4': bucket, '5': bucket }),
  })
  .register(apiSchemaNames, { id: 'RatingsInsight' });

export const passFailInsightSchema = z
  .object({ total: z.number().int(), passed: bucket, failed: bucket })
  .register(apiSchemaNames, { id: 'PassFailInsight' });

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const drift: [
  Same<z.infer<typeof completionInsightSchema>, CompletionInsight>,
  Same<z.infer<typeof overdueInsightSchema>, OverdueInsight>,
  Same<z.infer<typeof feedbackInsightSchema>, FeedbackInsight>,
  Same<z.infer<typeof ratingsInsightSchema>, RatingsInsight>,
  Same<z.infer<typeof passFailInsightSchema>, PassFailInsight>,
] = [true, true, true, true, true];
void drift;
