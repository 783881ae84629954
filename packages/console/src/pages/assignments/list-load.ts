/**
 * The Assignments list's call, in the shell's bundle (the registry names it) so that a first load
 * of /console/assignments can ask for its rows before the page's code has arrived.
 */
import { api } from '../../api/client.ts';
import { type AddressQuery, earlyLoader } from '../../api/list.ts';
import { assignmentContentTypes, assignmentOrderings, assignmentStates } from '../../api/values.ts';

/** The list's filters and order, read from the address. */
export const assignmentsQuery = (q: AddressQuery) => ({
  state: q.someOf('state', assignmentStates),
  content_type: q.someOf('content_type', assignmentContentTypes),
  is_overdue: q.flag('is_overdue'),
  user: q.text('user'),
  content_item: q.text('content_item'),
  due_date__gte: q.text('due_date__gte'),
  due_date__lte: q.text('due_date__lte'),
  created__gte: q.text('created__gte'),
  created__lte: q.text('created__lte'),
  ordering: q.oneOf('ordering', assignmentOrderings),
});

export const loadAssignments = earlyLoader((q) =>
  api.GET('/api/v2/assignments', { params: { query: { ...q.paging, ...assignmentsQuery(q) } } }),
);
