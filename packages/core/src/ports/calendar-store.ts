/** Personal calendar feeds and what they list (docs/notifications.md). */

/** A timeslot as a calendar reads it, with what it needs of its event. */
export interface CalendarSlotSource {
  timeslot: { id: number; starts_at_utc: string; ends_at_utc: string; rooms_info: string; watch_link: string | null };
  event: {
    public_id: string;
    name: string;
    description: string;
    body_markdown: string | null;
    external_link: string | null;
    location_name: string | null;
    modified: string;
    sequence: number;
  };
}

/** One of a user's timeslots in their feed: enrolled or waitlisted. */
export type FeedSlot = CalendarSlotSource & { status: 'enrolled' | 'waitlisted' };

/** An open assignment's due date in its user's feed. */
export interface FeedDue {
  assignment_public_id: string;
  content_name: string;
  due_date: string;
  modified: string;
}

export interface CalendarStore {
  /** Makes `keyHash` the user's one feed key; an earlier key stops working. */
  replaceFeed(userId: number, keyHash: string, created: string): Promise<void>;
  /** false when the user had no feed */
  deleteFeed(userId: number): Promise<boolean>;
  /** The user a feed key belongs to, active or not. */
  feedOwner(keyHash: string): Promise<{ userId: number; name: string; isActive: boolean } | undefined>;
  /** The user's enrolled and waitlisted timeslots of events that are not deleted, by start. */
  feedSlots(userId: number): Promise<FeedSlot[]>;
  /** The due dates of the user's open assignments to content that is not deleted. */
  feedDues(userId: number): Promise<FeedDue[]>;
}
