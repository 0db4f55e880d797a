// Unit tests of share links (node --test; node has CompressionStream).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeState, decodeState, toBase64url, fromBase64url } from './share.js';

test('a state survives the link', async () => {
  const states = [
    { version: '0.1.0', script: 'import torch\nx = torch.randn(1024, device="cuda")\nprint("ü → 😀")\n', profile: 'a100-80gb-pt2.11', allocConf: 'expandable_segments:True' },
    { version: '0.1.0', script: '', profile: '', allocConf: '' },
    { version: '9', script: 'x = 1\n'.repeat(20000), profile: '', allocConf: '' },
  ];
  for (const st of states) {
    const frag = await encodeState(st);
    assert.match(frag, /^s=[A-Za-z0-9_-]*$/);
    assert.deepEqual(await decodeState('#' + frag), st);
  }
});

test('other fragments are not links; damaged ones throw', async () => {
  assert.equal(await decodeState(''), null);
  assert.equal(await decodeState('#timeline'), null);
  await assert.rejects(decodeState('#s=AAAA'));
});

test('base64url round trip at every padding length', () => {
  for (let n = 0; n < 10; n++) {
    const b = new Uint8Array(n).map((_, i) => (i * 97 + 251) & 255);
    assert.deepEqual(fromBase64url(toBase64url(b)), b);
  }
});
