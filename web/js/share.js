// Share links: the whole state (script, profile, allocator settings,
// simulator version) as JSON, deflate-raw compressed with the browser's
// CompressionStream, base64url-encoded into the URL fragment. Nothing is
// stored on a server.

const PREFIX = 's=';

/** encodeState returns the fragment (without '#') for state. */
export async function encodeState(state) {
  const json = JSON.stringify({ v: state.version, s: state.script, p: state.profile || '', c: state.allocConf || '' });
  const stream = new Blob([json]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  return PREFIX + toBase64url(bytes);
}

/** decodeState parses a fragment made by encodeState; it returns null for any other fragment and throws on a damaged one. */
export async function decodeState(fragment) {
  const f = fragment.startsWith('#') ? fragment.slice(1) : fragment;
  if (!f.startsWith(PREFIX)) return null;
  const bytes = fromBase64url(f.slice(PREFIX.length));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  const obj = JSON.parse(await new Response(stream).text());
  if (typeof obj !== 'object' || obj === null || typeof obj.s !== 'string') throw new Error('the link holds no script');
  return {
    version: String(obj.v || ''),
    script: obj.s,
    profile: typeof obj.p === 'string' ? obj.p : '',
    allocConf: typeof obj.c === 'string' ? obj.c : '',
  };
}

export function toBase64url(bytes) {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  }
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64url(s) {
  const b64 = s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4);
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
