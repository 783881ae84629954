/**
 * Completions per week (docs/assignments.md "Completions per week"): the console's trend chart.
 * Weeks are ISO weeks in UTC, Monday to Sunday, the current (partial) week last, so a chart drawn on
 * any day of the week shows the same week boundaries as one drawn on another. The store counts
 * completions per UTC day since the first week's Monday; these functions fold the days into weeks.
 */
import { z } from 'zod';
import { apiSchemaNames } from '../shared/api-schema-names.ts';

export const COMPLETION_WEEKS = 12;

const DAY_MS = 86_400_000;

export const weeklyCompletionsSchema = z
  .object({
    /** completions in all the weeks shown */
    total: z.number().int(),
    weeks: z.array(
      z.object({
        /** the Monday the week starts on, `YYYY-MM-DD` (UTC) */
        week_start: z.string(),
        count: z.number().int(),
      }),
    ),
  })
  .register(apiSchemaNames, { id: 'WeeklyCompletions' });
export type WeeklyCompletions = z.infer<typeof weeklyCompletionsSchema>;

const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The Monday (UTC) of the week `day` (`YYYY-MM-DD`) falls in. */
export function mondayOf(day: string): string {
  const ms = Date.parse(`${day}T00:00:00Z`);
  // getUTCDay: Sunday 0 … Saturday 6; a Sunday belongs to the week that began six days before
  const sinceMonday = (new Date(ms).getUTCDay() + 6) % 7;
  return dayOf(ms - sinceMonday * DAY_MS);
}

/** The Mondays of the weeks shown on `today`, oldest first. */
export function weekStarts(today: string, weeks = COMPLETION_WEEKS): string[] {
  const thisMonday = Date.parse(`${mondayOf(today)}T00:00:00Z`);
  return Array.from({ length: weeks }, (_, index) => dayOf(thisMonday - (weeks - 1 - index) * 7 * DAY_MS));
}

/** Every week shown, with 0 where nothing was completed; days outside the weeks are not counted. */
export function weeklyCompletions(today: string, perDay: ReadonlyArray<{ day: string; count: number }>): WeeklyCompletions {
  const starts = weekStarts(today);
  const counts = new Map(starts.map((start) => [start, 0]));
  for (const { day, count } of perDay) {
    const start = mondayOf(day);
    const sofar = counts.get(start);
    if (sofar !== undefined) counts.set(start, sofar + count);
  }
  const weeks = starts.map((start) => ({ week_start: start, count: counts.get(start)! }));
  return { total: weeks.reduce((sum, week) => sum + week.count, 0), weeks };
}
