// Unit tests of the layout replay (node --test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Replayer, blockAt } from './replay.js';

const MiB = 1 << 20;
const S = 0x7f0000000000;

function ev(seq, kind, fields) {
  return { seq, kind, line: 1, stats: {}, ...fields };
}

const stream = [
  ev(0, 'segment_alloc', { addr: S, size: 20 * MiB, pool: 'large' }),
  ev(1, 'alloc', { addr: S, size: 8 * MiB, segment: S, label: { kind: 'user', name: 'a' } }),
  ev(2, 'alloc', { addr: S + 8 * MiB, size: 4 * MiB, segment: S, label: { kind: 'user' } }),
  ev(3, 'relabel', { addr: S + 8 * MiB, segment: S, label: { kind: 'user', name: 'b' } }),
  ev(4, 'free', { addr: S, size: 8 * MiB, segment: S }),
  ev(5, 'free', { addr: S + 8 * MiB, size: 4 * MiB, segment: S }),
  ev(6, 'segment_free', { addr: S, size: 20 * MiB }),
];

function shape(segs) {
  return segs.map((s) => [s.addr - S, s.size, s.blocks.map((b) => [b.addr - S, b.size, b.free ? 'free' : (b.label && b.label.name) || '?'])]);
}

test('replays allocations, labels and merges', () => {
  const r = new Replayer(stream);
  assert.deepEqual(shape(r.stateAt(0)), [[0, 20 * MiB, [[0, 20 * MiB, 'free']]]]);
  assert.deepEqual(shape(r.stateAt(2)), [[0, 20 * MiB, [[0, 8 * MiB, 'a'], [8 * MiB, 4 * MiB, '?'], [12 * MiB, 8 * MiB, 'free']]]]);
  assert.deepEqual(shape(r.stateAt(3))[0][2][1], [8 * MiB, 4 * MiB, 'b']);
  assert.deepEqual(shape(r.stateAt(4))[0][2], [[0, 8 * MiB, 'free'], [8 * MiB, 4 * MiB, 'b'], [12 * MiB, 8 * MiB, 'free']]);
  assert.deepEqual(shape(r.stateAt(5)), [[0, 20 * MiB, [[0, 20 * MiB, 'free']]]]);
  assert.deepEqual(shape(r.stateAt(6)), []);
});

test('going back gives the same state as going forward', () => {
  const fwd = new Replayer(stream);
  const want = stream.map((_, k) => shape(fwd.stateAt(k)));
  const back = new Replayer(stream);
  back.stateAt(6);
  for (let k = 6; k >= 0; k--) assert.deepEqual(shape(back.stateAt(k)), want[k], `event ${k}`);
});

test('checkpoints: random access over a long stream matches a fresh replay', () => {
  const long = [ev(0, 'segment_alloc', { addr: S, size: 2 * MiB, pool: 'small' })];
  for (let i = 0; i < 3000; i++) {
    const addr = S + (i % 64) * 512;
    long.push(ev(long.length, i % 128 < 64 ? 'alloc' : 'free', { addr, size: 512, segment: S }));
  }
  const r = new Replayer(long);
  for (const k of [2999, 1500, 2048, 10, 2500, 1024, 3000]) {
    assert.deepEqual(shape(r.stateAt(k)), shape(new Replayer(long).stateAt(k)), `event ${k}`);
  }
});

test('expandable segments: map grows, unmap shrinks', () => {
  const E = [
    ev(0, 'segment_map', { addr: S, size: 20 * MiB, pool: 'large', segment: S }),
    ev(1, 'alloc', { addr: S, size: 20 * MiB, segment: S, label: { kind: 'user', name: 'x' } }),
    ev(2, 'segment_map', { addr: S + 20 * MiB, size: 20 * MiB, pool: 'large', segment: S }),
    ev(3, 'free', { addr: S, size: 20 * MiB, segment: S }),
    ev(4, 'segment_unmap', { addr: S + 20 * MiB, size: 20 * MiB, segment: S }),
    ev(5, 'segment_unmap', { addr: S, size: 20 * MiB, segment: S }),
  ];
  const r = new Replayer(E);
  assert.deepEqual(shape(r.stateAt(2)), [[0, 40 * MiB, [[0, 20 * MiB, 'x'], [20 * MiB, 20 * MiB, 'free']]]]);
  assert.deepEqual(shape(r.stateAt(3)), [[0, 40 * MiB, [[0, 40 * MiB, 'free']]]]);
  assert.deepEqual(shape(r.stateAt(4)), [[0, 20 * MiB, [[0, 20 * MiB, 'free']]]]);
  assert.equal(r.stateAt(4)[0].expandable, true);
  assert.deepEqual(shape(r.stateAt(5)), []);
});

test('inconsistent streams do not throw', () => {
  const bad = [
    ev(0, 'free', { addr: S, size: 512 }),
    ev(1, 'alloc', { addr: S, size: 512 }),
    ev(2, 'relabel', { addr: S + 1, size: 512 }),
    ev(3, 'segment_unmap', { addr: 5, size: 5 }),
    ev(4, 'oom', { size: 1 << 30, text: 'CUDA out of memory' }),
  ];
  const r = new Replayer(bad);
  assert.equal(r.stateAt(4).length, 1);
});

test('blockAt finds the block containing an address', () => {
  const blocks = [{ addr: 0, size: 10 }, { addr: 10, size: 5 }, { addr: 20, size: 5 }];
  assert.equal(blockAt(blocks, 12), blocks[1]);
  assert.equal(blockAt(blocks, 0), blocks[0]);
  assert.equal(blockAt(blocks, 17), null);
  assert.equal(blockAt(blocks, 25), null);
});
