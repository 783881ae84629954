/** What a webhook delivers: the envelope of every event (event-recorder.ts records them). */

export const API_VERSION = '2.0';

/** The payload envelope of every webhook delivery. */
export interface WebhookEvent<T = unknown> {
  /** `msg_…`, fixed when recorded; the same for every subscription and every retry */
  id: string;
  type: string;
  api_version: string;
  created_at: string;
  data: { object: T };
}
