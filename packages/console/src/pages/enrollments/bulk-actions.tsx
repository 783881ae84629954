/**
 * Bulk actions on selected enrollments: dropping them, one request each (a few at a time), since
 * each drop may promote someone from its event's wait list.
 */
import { api, unwrap } from '../../api/client.ts';
import type { Enrollment } from '../../api/types.ts';
import { counted, type Selectable } from '../../components/bulk-bar.tsx';
import { outcomeOfEach } from '../../components/bulk-outcome.ts';
import { runEach } from '../../components/run-each.ts';

const noun = ['enrollment', 'enrollments'] as const;
const enrollmentName = (enrollment: Enrollment) => `${enrollment.user.email} at ${enrollment.event.name}`;

export const enrollmentBulkActions: Selectable<Enrollment> = {
  noun,
  rowName: enrollmentName,
  actions: [
    {
      label: 'Drop',
      danger: true,
      confirm: (rows) => `Drop ${counted(rows.length, noun)}? The first on each wait list takes a freed seat.`,
      run: async (rows) =>
        outcomeOfEach(
          'Dropped',
          await runEach(rows, (enrollment) =>
            unwrap(api.POST('/api/v2/enrollments/{id}/drop', { params: { path: { id: enrollment.public_id } } })),
          ),
          enrollmentName,
        ),
      skip: { when: (enrollment) => enrollment.status === 'dropped', already: 'dropped' },
    },
  ],
};
