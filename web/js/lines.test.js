// Unit tests of the per-line rows (node --test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lineRows } from './lines.js';

const st = (allocated, reserved) => ({ allocated, reserved });

test('rows group events by executed line and skip lines that changed nothing', () => {
  const events = [
    { kind: 'line', line: 1, stats: st(0, 0) },
    { kind: 'line', line: 2, stats: st(0, 0) },
    { kind: 'segment_alloc', line: 2, size: 2097152, stats: st(0, 2097152) },
    { kind: 'alloc', line: 2, size: 512, label: { kind: 'user', name: 'x' }, stats: st(512, 2097152) },
    { kind: 'line', line: 3, stats: st(512, 2097152) },
    { kind: 'free', line: 3, size: 512, label: { kind: 'user', name: 'x' }, stats: st(0, 2097152) },
    { kind: 'end', line: 0, stats: st(0, 2097152) },
  ];
  const rows = lineRows(events);
  assert.equal(rows.length, 2);
  assert.deepEqual([rows[0].line, rows[0].delta, rows[0].allocated, rows[0].reserved, rows[0].first, rows[0].last], [2, 512, 512, 2097152, 1, 3]);
  assert.deepEqual(rows[0].what, ['+segment 2.00 MiB', '+512 B user x']);
  assert.deepEqual([rows[1].line, rows[1].delta, rows[1].allocated], [3, -512, 0]);
});
