// Formatting of byte counts for the views: binary units, three significant
// digits, and the exact count for hover text.

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** fmtBytes(1536) === "1.50 KiB"; exact below 1 KiB. */
export function fmtBytes(n) {
  const neg = n < 0;
  let a = Math.abs(n);
  let u = 0;
  while (a >= 1024 && u < UNITS.length - 1) {
    a /= 1024;
    u++;
  }
  let s;
  if (u === 0) s = String(a);
  else if (a >= 100) s = a.toFixed(0);
  else if (a >= 10) s = a.toFixed(1);
  else s = a.toFixed(2);
  return (neg ? '−' : '') + s + ' ' + UNITS[u];
}

/** fmtDelta(2048) === "+2.00 KiB"; zero is "0". */
export function fmtDelta(n) {
  if (n === 0) return '0';
  return (n > 0 ? '+' : '−') + fmtBytes(Math.abs(n));
}

/** exactBytes(1234567) === "1,234,567 B". */
export function exactBytes(n) {
  return Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',') + ' B';
}

/** hex formats an address as 0x… */
export function hex(n) {
  return '0x' + Math.round(n).toString(16);
}

/** labelText names an allocation from its label: "parameter fc1.weight". */
export function labelText(label) {
  if (!label) return 'unlabelled';
  return label.name ? `${label.kind} ${label.name}` : label.kind;
}
