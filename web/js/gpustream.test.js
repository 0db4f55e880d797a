import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scanFrame } from './gpustream.js';

// Events as the server writes them (encoding/json order and escaping).
const ev = (seq, kind, extra = '') =>
  `{"seq":${seq},"kind":"${kind}","line":3${extra},"stats":{"allocated":512,"reserved":2097152,"peak_allocated":512,"peak_reserved":2097152,"active":512,"requested":400,"segments":1,"alloc_retries":0,"ooms":0}}`;

test('scanFrame agrees with JSON.parse on events frames', () => {
  const events = [
    ev(0, 'line'),
    ev(1, 'alloc', ',"addr":1,"size":512,"label":{"kind":"user","name":"{\\"seq\\":1,\\"kind\\":\\"output\\"}"}'),
    ev(2, 'output', ',"text":"hello \\u003c{\\"seq\\":9}\\n"'),
    ev(3, 'output', ',"text":"é\\u2028\\n"'),
    ev(-4, 'free', ',"gpu":{"driver_used":1,"elapsed_ns":2,"device_allocs":3,"device_frees":4,"device_ns":5}'),
  ];
  for (let n = 1; n <= events.length; n++) {
    const frame = `{"type":"events","events":[${events.slice(0, n).join(',')}]}`;
    const want = JSON.parse(frame).events;
    const got = scanFrame(frame);
    assert.equal(got.type, 'events');
    assert.equal(got.count, want.length);
    assert.deepEqual(got.last, want[want.length - 1]);
    assert.equal(got.outputs, want.filter((e) => e.kind === 'output').map((e) => e.text).join(''));
  }
});

test('scanFrame parses other messages', () => {
  assert.deepEqual(scanFrame('{"type":"queued","position":2}'), { type: 'queued', position: 2 });
  const one = `{"type":"event","event":${ev(7, 'output', ',"text":"x"')}}`;
  assert.deepEqual(scanFrame(one), JSON.parse(one));
  assert.deepEqual(scanFrame('{"type":"events","events":[]}'), { type: 'events', count: 0, last: null, outputs: '' });
});
