/** A catalogue shaped like an assignment's, shared by the RQL tests of the core. */
import type { RqlCatalogue } from './rql-fields.ts';

export const testCatalogue: RqlCatalogue = {
  fields: {
    public_id: { type: 'uuid' },
    name: { type: 'string' },
    state: { type: 'enum', values: ['not_started', 'in_progress', 'completed', 'dropped', 'exempted'] },
    progress: { type: 'number' },
    attempts: { type: 'integer', nullable: true },
    is_active: { type: 'boolean' },
    due_date: { type: 'date', nullable: true },
    created: { type: 'datetime' },
    employee_id: { type: 'string', nullable: true },
    tags: { type: 'string-array' },
    'user.email': { type: 'string' },
    'user.name': { type: 'string' },
    'manager.email': { type: 'string', nullable: true },
    'content_item.content_type': { type: 'enum', values: ['article', 'video', 'course'] },
  },
  searchable: ['name', 'user.email'],
};
