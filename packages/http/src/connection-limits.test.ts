import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { connectionToShed, type OpenConnection } from './connection-limits.ts';

const table = (rows: Array<[string, string, number, number]>) => {
  const open = new Map<string, OpenConnection>(rows.map(([key, address, busy, idleSince]) => [key, { address, busy, idleSince }]));
  const perAddress = new Map<string, number>();
  for (const { address } of open.values()) perAddress.set(address, (perAddress.get(address) ?? 0) + 1);
  return [open, perAddress] as const;
};

describe('connectionToShed', () => {
  it('takes from the address holding the most, its longest idle first', () => {
    const [open, perAddress] = table([
      ['client', '10.0.0.1', 0, 1],
      ['flood-new', '10.0.0.9', 0, 50],
      ['flood-old', '10.0.0.9', 0, 20],
      ['flood-newest', '10.0.0.9', 0, 90],
    ]);
    assert.equal(connectionToShed(open, perAddress), 'flood-old');
  });

  it('never takes a connection answering a request', () => {
    const [open, perAddress] = table([
      ['client', '10.0.0.1', 0, 5],
      ['flood-a', '10.0.0.9', 1, 1],
      ['flood-b', '10.0.0.9', 2, 2],
    ]);
    assert.equal(connectionToShed(open, perAddress), 'client');
  });

  it('takes nothing when every connection is busy', () => {
    const [open, perAddress] = table([
      ['a', '10.0.0.1', 1, 1],
      ['b', '10.0.0.2', 1, 2],
    ]);
    assert.equal(connectionToShed(open, perAddress), undefined);
  });

  it('between addresses holding as many, takes the longest idle', () => {
    const [open, perAddress] = table([
      ['a', '10.0.0.1', 0, 30],
      ['b', '10.0.0.2', 0, 10],
    ]);
    assert.equal(connectionToShed(open, perAddress), 'b');
  });
});
