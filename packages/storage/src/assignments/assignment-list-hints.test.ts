import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileRql, reportResourceDefinitions } from '@lectern/core';
import { reportAsFilters } from './assignment-list-hints.ts';

const filterOf = (expression: string) => compileRql(expression, reportResourceDefinitions.assignments!.catalogue).filter;

describe('a report as list filters', () => {
  it('reads a conjunction of eq and in tests on list filters', () => {
    assert.deepEqual(reportAsFilters(filterOf('in(content_item.content_type,(video,guide)),state=in_progress'), {}), {
      content_type: ['video', 'guide'],
      state: ['in_progress'],
    });
    assert.deepEqual(reportAsFilters(filterOf('eq(is_overdue,false)'), { state: ['completed'] }), {
      state: ['completed'],
      is_overdue: false,
    });
    assert.deepEqual(reportAsFilters(null, { state: ['completed'] }), { state: ['completed'] }, 'a report that only orders');
  });

  it('leaves every other report to a count', () => {
    for (const expression of [
      'or(eq(state,completed),eq(state,dropped))',
      'ne(state,completed)',
      'like(state,*ed)',
      'eq(state,completed),eq(state,dropped)',
      'eq(user.email,a@example.com)',
      'gt(progress,0.5)',
    ]) {
      assert.equal(reportAsFilters(filterOf(expression), {}), undefined, expression);
    }
    assert.equal(reportAsFilters(filterOf('eq(state,completed)'), { state: ['dropped'] }), undefined, 'the list filters the field too');
  });
});
