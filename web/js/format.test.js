// Unit tests of byte formatting (node --test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fmtBytes, fmtDelta, exactBytes, labelText } from './format.js';

test('formats', () => {
  const cases = [[0, '0 B'], [512, '512 B'], [1536, '1.50 KiB'], [20971520, '20.0 MiB'], [85017493504, '79.2 GiB'], [-2048, '−2.00 KiB']];
  for (const [n, want] of cases) assert.equal(fmtBytes(n), want);
  assert.equal(fmtDelta(0), '0');
  assert.equal(fmtDelta(-1024), '−1.00 KiB');
  assert.equal(exactBytes(1234567), '1,234,567 B');
  assert.equal(labelText({ kind: 'parameter', name: 'fc1.weight' }), 'parameter fc1.weight');
  assert.equal(labelText(null), 'unlabelled');
});
