import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LecternError } from '../shared/errors.ts';
import { parseInput } from '../shared/validation.ts';
import { createWebhookInput, isWebhookId, updateWebhookInput } from './webhook-subscription.ts';

const fieldErrorsOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof LecternError);
    return error.fieldErrors;
  }
  assert.fail('expected a validation error');
};

describe('webhook subscription input', () => {
  it('expands events and fills defaults', () => {
    assert.deepEqual(parseInput(createWebhookInput, { url: ' https://a.example/ ', events: ['enrollment.*'] }), {
      url: 'https://a.example/',
      events: ['enrollment.enrolled', 'enrollment.waitlisted', 'enrollment.checked_in', 'enrollment.checkin_undone', 'enrollment.dropped'],
      description: '',
      is_active: true,
    });
  });

  it('reports every events problem on the events field, alongside other fields', () => {
    const errors = fieldErrorsOf(() => parseInput(createWebhookInput, { url: '', events: ['*', 'nope.created'], extra: 1 }));
    assert.deepEqual(Object.keys(errors!).sort(), ['events', 'extra', 'url']);
    assert.equal(errors!.events!.length, 2);
  });

  it('leaves absent fields out of an update', () => {
    assert.deepEqual(parseInput(updateWebhookInput, { description: 'x' }), { description: 'x' });
    assert.ok(fieldErrorsOf(() => parseInput(updateWebhookInput, { events: [] }))!.events);
  });

  it('recognises subscription ids', () => {
    assert.equal(isWebhookId('ep_0123456789ABCDEFGHJKMNPQRS'), true);
    assert.equal(isWebhookId('ep_0123456789abcdefghjkmnpqrs'), false);
    assert.equal(isWebhookId('ep_0123456789ABCDEFGHJKMNPQRI'), false);
    assert.equal(isWebhookId('event-catalog'), false);
  });
});
