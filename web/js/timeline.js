// The timeline: allocated, reserved and peak allocated over the run's events,
// with the source lines marked along the bottom, the out-of-memory event in
// red and a cursor at the selected event. Clicking or dragging selects.

import { el } from './svg.js';
import { fmtBytes } from './format.js';

const H = 240;
const PAD = { l: 78, r: 12, t: 12, b: 34 };

export class Timeline {
  /** @param {HTMLElement} root @param {(k:number)=>void} onSelect */
  constructor(root, onSelect) {
    this.root = root;
    this.onSelect = onSelect;
    this.events = [];
    this.k = 0;
    new ResizeObserver(() => this.draw()).observe(root);
  }

  setEvents(events) {
    this.events = events;
    this.draw();
  }

  setCursor(k) {
    this.k = k;
    if (!this.cursor) return;
    const x = this.xOf(k);
    this.cursor.setAttribute('x1', x);
    this.cursor.setAttribute('x2', x);
  }

  xOf(k) {
    const n = Math.max(1, this.events.length - 1);
    return PAD.l + (k / n) * this.plotW;
  }

  draw() {
    const root = this.root;
    root.textContent = '';
    this.cursor = null;
    const ev = this.events;
    const W = Math.max(320, root.clientWidth || 640);
    this.plotW = W - PAD.l - PAD.r;
    const plotH = H - PAD.t - PAD.b;
    const svg = el('svg', { width: W, height: H, viewBox: `0 0 ${W} ${H}`, class: 'timeline' });
    root.appendChild(svg);
    if (ev.length === 0) {
      svg.appendChild(el('text', { x: W / 2, y: H / 2, 'text-anchor': 'middle', class: 'muted' }, 'Run a script to see its memory over time'));
      return;
    }
    let max = 1;
    for (const e of ev) max = Math.max(max, e.stats.reserved, e.stats.peak_allocated, e.stats.allocated);
    const nice = niceMax(max);
    const y = (v) => PAD.t + plotH - (v / nice) * plotH;

    // grid and axis labels
    for (let i = 0; i <= 4; i++) {
      const v = (nice * i) / 4;
      svg.appendChild(el('line', { x1: PAD.l, x2: W - PAD.r, y1: y(v), y2: y(v), class: 'grid' }));
      svg.appendChild(el('text', { x: PAD.l - 8, y: y(v) + 4, 'text-anchor': 'end', class: 'axis' }, fmtBytes(v)));
    }

    // series, bucketed to about one point per pixel (maximum in a bucket)
    const buckets = Math.min(ev.length, Math.max(2, Math.floor(this.plotW)));
    const series = { reserved: [], allocated: [], peak_allocated: [] };
    for (let b = 0; b < buckets; b++) {
      const from = Math.floor((b * ev.length) / buckets);
      const to = Math.max(from + 1, Math.floor(((b + 1) * ev.length) / buckets));
      for (const key in series) {
        let m = 0;
        for (let i = from; i < to; i++) m = Math.max(m, ev[i].stats[key]);
        series[key].push([this.xOf(from), this.xOf(to - 1), y(m)]);
      }
    }
    svg.appendChild(el('path', { d: areaPath(series.reserved, y(0)), class: 'area-reserved' }));
    svg.appendChild(el('path', { d: stepPath(series.reserved), class: 'line-reserved' }));
    svg.appendChild(el('path', { d: areaPath(series.allocated, y(0)), class: 'area-allocated' }));
    svg.appendChild(el('path', { d: stepPath(series.allocated), class: 'line-allocated' }));
    svg.appendChild(el('path', { d: stepPath(series.peak_allocated), class: 'line-peak' }));

    // source lines along the bottom: a tick where the running line changes,
    // a number where there is room
    let lastLine = -1;
    let lastLabelX = -1e9;
    const ticks = el('g', { class: 'ticks' });
    for (let i = 0; i < ev.length; i++) {
      const e = ev[i];
      if (e.kind !== 'line' || e.line === lastLine) continue;
      lastLine = e.line;
      const x = this.xOf(i);
      ticks.appendChild(el('line', { x1: x, x2: x, y1: H - PAD.b, y2: H - PAD.b + 5, class: 'tick' }));
      if (x - lastLabelX >= 26) {
        ticks.appendChild(el('text', { x, y: H - PAD.b + 17, 'text-anchor': 'middle', class: 'axis' }, String(e.line)));
        lastLabelX = x;
      }
    }
    svg.appendChild(ticks);
    svg.appendChild(el('text', { x: PAD.l - 8, y: H - PAD.b + 17, 'text-anchor': 'end', class: 'axis muted' }, 'line'));
    svg.appendChild(el('text', { x: W - PAD.r, y: H - 4, 'text-anchor': 'end', class: 'axis muted' }, `${ev.length} events`));

    for (let i = 0; i < ev.length; i++) {
      if (ev[i].kind !== 'oom') continue;
      const x = this.xOf(i);
      svg.appendChild(el('line', { x1: x, x2: x, y1: PAD.t, y2: H - PAD.b, class: 'oom-mark' }));
      svg.appendChild(el('text', { x: x - 4, y: PAD.t + 12, 'text-anchor': 'end', class: 'oom-text' }, 'OOM'));
    }

    this.cursor = el('line', { y1: PAD.t, y2: H - PAD.b, class: 'cursor' });
    svg.appendChild(this.cursor);
    this.setCursor(this.k);

    const pick = (clientX) => {
      const r = svg.getBoundingClientRect();
      const f = (clientX - r.left - PAD.l) / this.plotW;
      const k = Math.round(Math.max(0, Math.min(1, f)) * (ev.length - 1));
      this.onSelect(k);
    };
    svg.addEventListener('pointerdown', (e) => {
      svg.setPointerCapture(e.pointerId);
      pick(e.clientX);
      const move = (m) => pick(m.clientX);
      const up = () => {
        svg.removeEventListener('pointermove', move);
        svg.removeEventListener('pointerup', up);
      };
      svg.addEventListener('pointermove', move);
      svg.addEventListener('pointerup', up);
    });
  }
}

/** niceMax rounds v up to 1, 2 or 5 times a power of 1024-friendly steps. */
function niceMax(v) {
  const p = Math.pow(2, Math.ceil(Math.log2(v)));
  for (const f of [0.5, 0.625, 0.75, 0.875, 1]) if (p * f >= v) return p * f;
  return p;
}

function stepPath(pts) {
  let d = '';
  for (let i = 0; i < pts.length; i++) {
    const [x0, x1, yv] = pts[i];
    d += (i === 0 ? 'M' : 'L') + x0.toFixed(1) + ',' + yv.toFixed(1) + 'L' + Math.max(x1, i + 1 < pts.length ? pts[i + 1][0] : x1).toFixed(1) + ',' + yv.toFixed(1);
  }
  return d;
}

function areaPath(pts, y0) {
  if (pts.length === 0) return '';
  const last = pts[pts.length - 1];
  return stepPath(pts) + 'L' + last[1].toFixed(1) + ',' + y0.toFixed(1) + 'L' + pts[0][0].toFixed(1) + ',' + y0.toFixed(1) + 'Z';
}
