import type { EnrollmentCounts, EventKind, EventRecord, EventSettings, FacilitatorRole } from '../events/event.ts';
import type { Location } from '../events/location.ts';
import type { ScheduledTimeslot } from '../events/timeslot.ts';
import type { TimeslotTimes } from '../events/wall-clock.ts';
import type { ListQuery, Page } from '../shared/list-query.ts';
import type { ContentViewer } from './content-store.ts';
import type { ListNarrowing } from './list-narrowing.ts';

/** The columns an event or series keeps beside its content row; the span is null for a series. */
export interface EventDetailsRow extends EventSettings {
  seriesId: number | null;
  span: TimeslotTimes | null;
}

/** A timeslot to store; with `id`, an existing row of the same event keeps its id. */
export type TimeslotRow = ScheduledTimeslot & { id?: number };

/**
 * What deciding a batch of new enrollments reads of an event (enrollment-service.ts
 * `enrollManyInTx`): whether it is archived, the methods it offers, their limits and the seats
 * taken, without the rest of its record (content, timeslots, facilitators), which the decisions
 * never read and which cost a batch seven more queries.
 */
export interface EventSeats {
  /** the content item's internal id */
  id: number;
  publicId: string;
  isArchived: boolean;
  settings: Pick<
    EventSettings,
    'is_local' | 'is_online' | 'enrollment_limit' | 'wait_list_limit' | 'online_enrollment_limit' | 'online_wait_list_limit'
  >;
  enrollmentCounts: EnrollmentCounts;
}

export interface EventStore {
  insertDetails(contentId: number, row: EventDetailsRow): Promise<void>;
  updateDetails(contentId: number, changes: Partial<EventDetailsRow>): Promise<void>;
  /** Raises the iCalendar SEQUENCE: calendar clients replace what they hold for the event. */
  raiseCalendarSequence(contentId: number): Promise<void>;
  /** Makes the event's timeslots exactly `slots`: rows with a known id are updated, the others replaced. */
  saveTimeslots(eventId: number, slots: readonly TimeslotRow[]): Promise<void>;
  /** Replaces the facilitators, in the order given within each role. */
  setFacilitators(contentId: number, entries: ReadonlyArray<{ userId: number; role: FacilitatorRole }>): Promise<void>;
  /** An event or series that is not deleted and that `viewer` may see (content visibility). */
  findById(id: number, viewer: ContentViewer): Promise<EventRecord | undefined>;
  findByPublicId(publicId: string, kind: EventKind, viewer: ContentViewer): Promise<EventRecord | undefined>;
  /** The seats of those of the named events or series `viewer` may see, in two queries for all (an import's batch). */
  seatsByPublicIds(publicIds: readonly string[], kind: EventKind, viewer: ContentViewer): Promise<EventSeats[]>;
  list(query: ListQuery, kind: EventKind, viewer: ContentViewer, narrowing?: ListNarrowing): Promise<Page<EventRecord>>;
}

export interface LocationStore {
  insert(row: { name: string; timezone: string; created: string }): Promise<Location>;
  findById(id: number): Promise<Location | undefined>;
  list(query: ListQuery): Promise<Page<Location>>;
  update(id: number, changes: { name?: string; timezone?: string }): Promise<void>;
  /** whether any event or series (deleted ones included: they may be restored) is held there */
  isInUse(id: number): Promise<boolean>;
}
