/**
 * The bulk jobs this tab started. The API lists no bulk jobs (each is read by its id), so the
 * console remembers the ones it started, for the Bulk jobs page and the overview; sessionStorage,
 * like the token, so they go with the tab.
 */
import { signal } from '@preact/signals';

export interface StartedJob {
  kind: string;
  id: string;
  at: string;
  what: string;
}

const KEY = 'lectern.jobs';
const read = (): StartedJob[] => {
  try {
    return JSON.parse(sessionStorage.getItem(KEY) ?? '[]') as StartedJob[];
  } catch {
    return [];
  }
};

export const recentJobs = signal<StartedJob[]>(read());

export function rememberJob(kind: string, id: string, what: string): void {
  const jobs = [{ kind, id, what, at: new Date().toISOString() }, ...recentJobs.value].slice(0, 20);
  sessionStorage.setItem(KEY, JSON.stringify(jobs));
  recentJobs.value = jobs;
}
