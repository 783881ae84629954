/** Events, their locations, timeslots, facilitators, enrollments and seat counts. Conventions: ../schema.ts. */
import type { Generated } from 'kysely';

export interface LocationsTable {
  id: Generated<number>;
  name: string;
  /** IANA zone name as the client sent it */
  timezone: string;
  created: string;
}

/** What an event or event series keeps beside its content row (same id). */
export interface EventDetailsTable {
  content_id: number;
  series_id: number | null;
  location_id: number | null;
  is_local: number;
  is_online: number;
  enrollment_limit: number;
  wait_list_limit: number;
  online_enrollment_limit: number;
  online_wait_list_limit: number;
  body_markdown: string | null;
  external_link: string | null;
  external_link_description: string | null;
  cover_url: string | null;
  /** span over the timeslots: wall clocks in the location's zone, and instants; null for a series */
  starts_at: string | null;
  ends_at: string | null;
  starts_at_utc: string | null;
  ends_at_utc: string | null;
  /** the iCalendar SEQUENCE, raised by every change of the event (migration 0020) */
  calendar_sequence: Generated<number>;
}

export interface EventTimeslotsTable {
  id: Generated<number>;
  event_id: number;
  starts_at: string;
  ends_at: string;
  starts_at_utc: string;
  ends_at_utc: string;
  duration_minutes: number;
  rooms_info: string;
  watch_link: string | null;
}

export interface EventFacilitatorsTable {
  content_id: number;
  /** 'organizer' | 'co_organizer' | 'presenter' */
  role: string;
  position: number;
  user_id: number;
}

export interface EnrollmentsTable {
  id: Generated<number>;
  public_id: string;
  event_id: number;
  user_id: number;
  assignment_id: number | null;
  /** 'in_person' | 'online' */
  attendance_method: string;
  /** 'enrolled' | 'waitlisted' | 'dropped' */
  status: string;
  checkin_datetime: string | null;
  created: string;
  modified: string;
}

/** Enrolled and waitlisted enrollments per event and method, kept per write (migration 0019). */
export interface EventSeatCountsTable {
  event_id: number;
  attendance_method: string;
  status: string;
  n: number;
}
