// The per-line table: one row for every executed line that changed memory,
// like `playground run --explain`: line, code, Δallocated, allocated and
// reserved after it, and what was allocated or freed.

import { fmtBytes, fmtDelta, exactBytes, labelText } from './format.js';

const MAX_ROWS = 5000;

/**
 * lineRows groups the events into executions of a line. Each row is
 * { line, delta, allocated, reserved, what: [string], first, last } where
 * first/last are the indices of its events; rows that changed nothing are
 * left out, as in the CLI.
 */
export function lineRows(events) {
  const rows = [];
  let cur = null;
  const flush = () => {
    if (!cur) return;
    cur.delta = cur.after.allocated - cur.before.allocated;
    if (cur.delta !== 0 || cur.what.length > 0) {
      rows.push({ line: cur.line, delta: cur.delta, allocated: cur.after.allocated, reserved: cur.after.reserved, what: cur.what, first: cur.first, last: cur.last });
    }
  };
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    if (e.kind === 'line' || e.kind === 'end') {
      flush();
      cur = e.kind === 'line' ? { line: e.line, before: e.stats, after: e.stats, what: [], first: i, last: i } : null;
      continue;
    }
    if (!cur) continue;
    switch (e.kind) {
      case 'alloc': cur.what.push('+' + fmtBytes(e.size) + ' ' + labelText(e.label)); break;
      case 'free': cur.what.push('−' + fmtBytes(e.size) + ' ' + labelText(e.label)); break;
      case 'segment_alloc': case 'segment_map': cur.what.push('+segment ' + fmtBytes(e.size)); break;
      case 'segment_free': case 'segment_unmap': cur.what.push('−segment ' + fmtBytes(e.size)); break;
      case 'oom': cur.what.push('OUT OF MEMORY'); break;
      default: break;
    }
    cur.after = e.stats;
    cur.last = i;
  }
  flush();
  return rows;
}

/** renderLines fills tbody; clicking a row calls onSelect(last event index, line). */
export function renderLines(tbody, events, codeOf, onSelect) {
  tbody.textContent = '';
  const rows = lineRows(events);
  const frag = document.createDocumentFragment();
  for (const r of rows.slice(0, MAX_ROWS)) {
    const tr = document.createElement('tr');
    tr.dataset.line = r.line;
    tr.dataset.seq = r.last;
    tr.dataset.delta = r.delta;
    tr.dataset.allocated = r.allocated;
    tr.dataset.reserved = r.reserved;
    tr.tabIndex = 0;
    tr.className = r.delta > 0 ? 'up' : r.delta < 0 ? 'down' : '';
    if (r.what.includes('OUT OF MEMORY')) tr.className += ' oom';
    cell(tr, String(r.line), 'num');
    cell(tr, codeOf(r.line), 'code');
    cell(tr, fmtDelta(r.delta), 'num', exactBytes(r.delta));
    cell(tr, fmtBytes(r.allocated), 'num', exactBytes(r.allocated));
    cell(tr, fmtBytes(r.reserved), 'num', exactBytes(r.reserved));
    const what = r.what.length > 4 ? r.what.slice(0, 4).join('; ') + `; … ${r.what.length - 4} more` : r.what.join('; ');
    cell(tr, what, 'what', r.what.join('\n'));
    const pick = () => onSelect(r.last, r.line);
    tr.addEventListener('click', pick);
    tr.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') pick();
    });
    frag.appendChild(tr);
  }
  if (rows.length > MAX_ROWS) {
    const tr = document.createElement('tr');
    cell(tr, `… ${rows.length - MAX_ROWS} more rows not shown`, 'muted').colSpan = 6;
    frag.appendChild(tr);
  }
  tbody.appendChild(frag);
  return rows;
}

function cell(tr, text, cls, title) {
  const td = document.createElement('td');
  td.textContent = text;
  if (cls) td.className = cls;
  if (title) td.title = title;
  tr.appendChild(td);
  return td;
}

/** highlightRow marks the row whose events contain index k. */
export function highlightRow(tbody, rows, k) {
  const prev = tbody.querySelector('tr.current');
  if (prev) prev.classList.remove('current');
  let lo = 0;
  let hi = Math.min(rows.length, MAX_ROWS) - 1;
  let hit = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid].first > k) hi = mid - 1;
    else if (rows[mid].last < k) lo = mid + 1;
    else {
      hit = mid;
      break;
    }
  }
  if (hit < 0) return;
  const tr = tbody.children[hit];
  if (tr) tr.classList.add('current');
}
