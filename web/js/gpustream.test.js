import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { EventLog, readRows, ROWS_VERSION } from './gpustream.js';

// web/gpujob/testdata/rows-golden.json: messages written by the server's
// encoder (the H100 fixture, fuzz-made events, edge cases) and the events
// as encoding/json writes them (go test ./web/gpujob -run TestRowsGolden -update).
const golden = JSON.parse(readFileSync(new URL('../gpujob/testdata/rows-golden.json', import.meta.url), 'utf8'));

test('EventLog gives the events of the Go encoder, field for field', () => {
  assert.ok(golden.length >= 3);
  for (const [n, stream] of golden.entries()) {
    const log = new EventLog();
    for (const frame of stream.frames) {
      const msg = JSON.parse(frame);
      assert.equal(msg.type, 'rows');
      readRows(msg, log);
    }
    assert.equal(log.length, stream.events.length, `stream ${n}`);
    for (let i = 0; i < log.length; i++) {
      assert.deepEqual(log.event(i), stream.events[i], `stream ${n}, event ${i}`);
      assert.equal(log.kind(i), stream.events[i].kind);
      assert.equal(log.text(i), stream.events[i].text || '');
    }
    assert.deepEqual([...log.column('stats.allocated')], stream.events.map((e) => e.stats.allocated));
    assert.deepEqual([...log.column('gpu.elapsed_ns')], stream.events.map((e) => (e.gpu ? e.gpu.elapsed_ns : 0)));
    assert.deepEqual(log.column('pool'), stream.events.map((e) => e.pool || ''));
    assert.deepEqual(log.column('label_name'), stream.events.map((e) => (e.label ? e.label.name || '' : '')));
    assert.deepEqual(log.column('label_kind'), stream.events.map((e) => (e.label ? e.label.kind : null)));
  }
});

test('readRows refuses another version, EventLog malformed rows', () => {
  assert.throws(() => readRows({ type: 'rows', v: ROWS_VERSION + 1, rows: [] }), /version 2/);
  const decodeRows = (rows) => new EventLog().decode(rows);
  assert.throws(() => decodeRows([[8192]]), /unknown bits/);
  assert.throws(() => decodeRows([[2, 3]]), /string reference 3/);
  assert.throws(() => decodeRows([[1, 1, 2]]), /mask says 1/);
  assert.throws(() => decodeRows([[1]]), /mask says 1/);
  assert.throws(() => decodeRows([[4, 5]]), /without gpu/);
  assert.throws(() => decodeRows([[16, 2]]), /gpu mask 2/);
});

test('the log grows and keeps its strings across messages', () => {
  const log = new EventLog();
  for (let k = 0; k < 3000; k++) log.decode([[2 | 2048 | 4096, 'output', 'line ' + (k % 7) + '\n', k]]);
  assert.equal(log.length, 3000);
  assert.equal(log.text(2999), 'line 3\n');
  assert.deepEqual(log.event(1), { seq: 1, kind: 'output', line: 0, text: 'line 1\n', stats: log.event(0).stats });
  assert.equal(log.strings.length, 1 + 1 + 7); // '', 'output', 7 texts
});
