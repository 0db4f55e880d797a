// "Run on GPU": on a server with a GPU (GET /gpu/info answers), a button
// beside Run sends the script over a websocket (/gpu/ws, package
// web/gpujob's protocol), shows the queue position and the live progress,
// and renders the side-by-side table of the GPU run and the simulation
// that the server returns (package gpu/compare's Table): one row per
// executed line, sim / GPU / Δ columns for allocated, reserved and the
// driver's used memory, and the reason for each difference.
//
// The stream can be 100 000s of events: they come in the compact row
// format; gpustream.js decodes each message into the job's EventLog (every
// event, in columns: no garbage per event), and the progress line is
// redrawn at most once per animation frame and every PROGRESS_MS.

import { fmtBytes, fmtDelta, exactBytes } from './format.js';
import { EventLog, readRows } from './gpustream.js';

const fmtTime = (ns) => (ns < 1e6 ? (ns / 1e3).toFixed(0) + ' µs' : (ns / 1e6).toFixed(2) + ' ms');

function el(tag, attrs = {}, text = '') {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text) e.textContent = text;
  return e;
}

// initGPU adds the button and the panel if the server has a GPU. current()
// returns {script, profile, allocConf} of the editor.
export async function initGPU(current) {
  let info;
  try {
    const r = await fetch('/gpu/info', { cache: 'no-store' });
    if (!r.ok) return;
    info = await r.json();
  } catch {
    return;
  }
  const run = document.getElementById('run-button');
  if (!run) return;
  const button = el('button', { id: 'gpu-button', type: 'button', title: 'Run on ' + info.devices.join(', ') }, 'Run on GPU');
  run.after(button);
  const panel = buildPanel(info);
  (document.querySelector('main') || document.body).after(panel.root);
  let job = null;
  button.addEventListener('click', () => {
    if (job) return;
    button.disabled = true;
    job = new GPUJob(panel, current(), () => {
      button.disabled = false;
      job = null;
    });
  });
  panel.cancel.addEventListener('click', () => job && job.cancel());
  panel.root.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && job) {
      e.preventDefault();
      job.cancel();
    }
  });
}

// buildPanel makes the panel's elements (hidden until the first run).
function buildPanel(info) {
  const root = el('section', { id: 'gpu-panel', class: 'gpu-panel', hidden: '', 'aria-labelledby': 'gpu-title' });
  const head = el('div', { class: 'gpu-head' });
  const title = el('h2', { id: 'gpu-title', tabindex: '-1' }, 'GPU and simulation side by side');
  const device = el('span', { class: 'gpu-device' }, info.devices.join(', '));
  head.append(title, device);
  const bar = el('div', { class: 'gpu-bar' });
  const queue = el('p', { id: 'gpu-queue', class: 'gpu-queue', hidden: '' });
  const status = el('p', { id: 'gpu-status', class: 'gpu-status', role: 'status', 'aria-live': 'polite' });
  const cancel = el('button', { id: 'gpu-cancel', type: 'button', hidden: '', title: 'Cancel the GPU job (Esc)' }, 'Cancel');
  cancel.append(el('kbd', {}, 'Esc'));
  bar.append(queue, status, cancel);
  const out = el('pre', { id: 'gpu-stdout', class: 'stdout gpu-stdout' });
  const wrap = el('div', { class: 'gpu-table-wrap', tabindex: '0', role: 'region', 'aria-label': 'GPU and simulation, line by line' });
  const table = el('table', { id: 'gpu-table', class: 'gpu-table' });
  wrap.append(table);
  const summary = el('p', { id: 'gpu-summary', class: 'gpu-summary' });
  root.append(head, bar, out, wrap, summary);
  return { root, title, queue, status, cancel, out, table, summary };
}

// GPUJob is one run on the GPU: the websocket, the counters of the stream
// and the panel's updates. onEnd is called once when it is over.
class GPUJob {
  constructor(p, st, onEnd) {
    this.p = p;
    this.st = st;
    this.onEnd = onEnd;
    this.events = new EventLog(); // every event of the job
    this.stdout = '';
    this.shown = 0; // length of stdout when the panel last showed it
    this.frame = 0; // pending requestAnimationFrame
    this.timer = 0; // pending setTimeout before it
    this.pending = false; // a redraw is scheduled
    this.drawn = 0; // performance.now() of the last redraw
    this.t0 = performance.now();
    performance.mark('playground:gpu-run');
    p.root.hidden = false;
    p.out.textContent = '';
    p.table.replaceChildren();
    p.summary.textContent = '';
    this.state('connecting', 'connecting…');
    p.cancel.hidden = false;
    p.cancel.focus({ preventScroll: true });
    p.root.scrollIntoView({ block: 'start' });
    const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/gpu/ws');
    this.ws = ws;
    ws.onopen = () => ws.send(JSON.stringify({ type: 'run', script: st.script, profile: st.profile, alloc_conf: st.allocConf }));
    this.busy = 0; // ms spent handling messages (parse included)
    this.frames = 0;
    ws.onmessage = (m) => {
      const t = performance.now();
      try {
        this.message(JSON.parse(m.data));
      } catch (err) {
        this.end('failed', `GPU run failed: ${err.message}`);
        return;
      }
      this.busy += performance.now() - t;
      this.frames++;
    };
    ws.onclose = () => this.end('failed', 'the connection to the GPU server closed');
  }

  state(s, text) {
    this.p.root.dataset.state = s;
    this.p.status.textContent = text;
  }

  message(msg) {
    switch (msg.type) {
      case 'rows': this.add(msg); break;
      case 'queued':
        this.p.queue.hidden = false;
        this.p.queue.dataset.position = String(msg.position);
        this.p.queue.textContent = `Position ${msg.position} in the queue`;
        this.state('queued', 'waiting for the GPU: another job is running on it');
        break;
      case 'started':
        this.p.queue.hidden = true;
        this.state('running', `running on ${msg.worker}…`);
        break;
      case 'done': this.done(msg.result); break;
      case 'error':
        this.end(msg.code === 'cancelled' ? 'cancelled' : 'failed',
          msg.code === 'cancelled' ? 'cancelled' : `GPU run failed (${msg.code}): ${msg.message}`);
        break;
    }
  }

  // add decodes a rows message into the job's EventLog and collects the
  // output events' text; the panel is redrawn on the next animation frame.
  add(msg) {
    const log = this.events;
    const from = log.length;
    readRows(msg, log);
    if (log.length === from) return;
    for (let i = from; i < log.length; i++) if (log.kind(i) === 'output') this.stdout += log.text(i);
    if (this.pending) return;
    // At most one redraw per animation frame and per PROGRESS_MS.
    this.pending = true;
    const wait = PROGRESS_MS - (performance.now() - this.drawn);
    const draw = () => { this.frame = requestAnimationFrame(() => this.progress()); };
    if (wait > 0) this.timer = setTimeout(draw, wait);
    else draw();
  }

  progress() {
    this.frame = 0;
    this.pending = false;
    this.drawn = performance.now();
    if (!this.events.length || this.p.root.dataset.state !== 'running') return;
    const e = this.events.event(this.events.length - 1);
    const g = e.gpu || {};
    this.p.status.textContent = `running: ${this.events.length} events, line ${e.line}, allocated ${fmtBytes(e.stats.allocated)}, ` +
      `reserved ${fmtBytes(e.stats.reserved)}, driver used ${fmtBytes(g.driver_used || 0)}`;
    this.p.root.dataset.events = String(this.events.length);
    if (this.stdout.length !== this.shown) {
      // Only the tail while the job runs: relaying out a long output 60
      // times a second would cost the page more than the stream itself.
      this.shown = this.stdout.length;
      this.p.out.textContent = tail(this.stdout, LIVE_OUTPUT);
    }
  }

  done(res) {
    const ms = performance.now() - this.t0;
    this.p.root.dataset.events = String(this.events.length);
    this.p.out.textContent = res.stdout || '';
    if (res.compare) renderTable(this.p.table, this.p.summary, res.compare, this.st.script);
    this.end('done', `done on ${res.worker}: ${res.events} events in ${fmtTime(res.wall_ns)} on the GPU, ` +
      `${this.events.length} received in ${ms.toFixed(0)} ms` + (res.error ? ` — ${res.error}` : ''));
    this.p.root.dataset.ms = (performance.now() - this.t0).toFixed(1);
    this.p.root.dataset.busyMs = this.busy.toFixed(1);
    this.p.root.dataset.frames = String(this.frames);
    performance.measure('playground:gpu-stream', 'playground:gpu-run');
    this.p.root.dispatchEvent(new CustomEvent('gpu-done', { detail: { events: this.events.length } }));
  }

  cancel() {
    const ws = this.ws;
    if (!ws) return;
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'cancel' }));
    else this.end('cancelled', 'cancelled');
  }

  end(state, text) {
    if (!this.ws) return;
    const ws = this.ws;
    this.ws = null;
    ws.onclose = null;
    ws.onmessage = null;
    ws.close();
    if (this.frame) cancelAnimationFrame(this.frame);
    clearTimeout(this.timer);
    this.frame = 0;
    this.pending = false;
    this.p.queue.hidden = true;
    this.state(state, text);
    const hadFocus = this.p.root.contains(document.activeElement);
    this.p.cancel.hidden = true;
    if (hadFocus) this.p.title.focus();
    this.onEnd();
  }
}

// PROGRESS_MS is the shortest time between two redraws of the progress.
const PROGRESS_MS = 100;

// LIVE_OUTPUT is how much of the output the panel shows while a job runs.
const LIVE_OUTPUT = 4096;

// tail returns the end of s from a line start, at most n characters, with
// an ellipsis line when it cut something.
function tail(s, n) {
  if (s.length <= n) return s;
  const i = s.indexOf('\n', s.length - n);
  return '…\n' + (i < 0 ? s.slice(-n) : s.slice(i + 1));
}

// The figures of a row: [column key, side, field]; the Δ column follows
// each figure's pair.
const FIGURES = [
  ['allocated', 'allocated', 'd_allocated'],
  ['reserved', 'reserved', 'd_reserved'],
  ['driver used', 'driver_used', 'd_driver_used'],
];

// renderTable fills table with the rows of a compare.Table (JSON of
// package gpu/compare). Every figure cell carries its exact value in
// data-v (bytes or ns) and its column in data-k.
export function renderTable(table, summary, t, script) {
  const lines = script.split('\n');
  const groups = el('tr');
  groups.append(el('th', { rowspan: '2', scope: 'col' }, 'line'), el('th', { rowspan: '2', scope: 'col' }, 'code'));
  const cols = el('tr');
  for (const [name] of FIGURES) {
    groups.append(el('th', { colspan: '3', scope: 'colgroup', class: 'grp' }, name));
    cols.append(el('th', { scope: 'col', class: 'sim' }, 'sim'), el('th', { scope: 'col', class: 'gpu' }, 'GPU'), el('th', { scope: 'col', class: 'diff' }, 'Δ'));
  }
  groups.append(el('th', { rowspan: '2', scope: 'col' }, 'GPU time'), el('th', { rowspan: '2', scope: 'col' }, 'malloc / free'),
    el('th', { rowspan: '2', scope: 'col', class: 'why' }, 'why they differ'));
  const thead = el('thead');
  thead.append(groups, cols);
  const tbody = el('tbody');
  const cell = (k, cls, v, text, title) => {
    const td = el('td', { 'data-k': k, class: cls }, text);
    td.dataset.v = v === undefined ? '' : String(v);
    if (title) td.title = title;
    return td;
  };
  for (const r of t.rows) {
    const tr = el('tr', { 'data-line': String(r.line), 'data-step': String(r.step) });
    tr.append(el('td', { class: 'num' }, String(r.line)), el('td', { class: 'code' }, (lines[r.line - 1] || '').trim()));
    const both = r.sim && r.gpu;
    for (const [, f, d] of FIGURES) {
      for (const [side, s] of [['sim', r.sim], ['gpu', r.gpu]]) {
        tr.append(s ? cell(`${side}-${f}`, 'num ' + side, s[f], fmtBytes(s[f]), exactBytes(s[f])) : cell(`${side}-${f}`, 'num ' + side, undefined, '—'));
      }
      const dv = r[d] || 0;
      tr.append(both ? cell(`d-${f}`, 'num diff' + (dv ? ' nonzero' : ''), dv, dv ? fmtDelta(dv) : '=', exactBytes(dv)) : cell(`d-${f}`, 'num diff', undefined, '—'));
    }
    const g = r.gpu;
    tr.append(g ? cell('gpu-time', 'num', g.elapsed_ns, fmtTime(g.elapsed_ns)) : cell('gpu-time', 'num', undefined, '—'));
    tr.append(g ? cell('malloc-free', 'num', `${g.device_allocs}/${g.device_frees}`, `${g.device_allocs} / ${g.device_frees}`) : cell('malloc-free', 'num', undefined, '—'));
    const why = el('td', { class: 'why' });
    const reasons = r.reasons || [];
    for (const x of reasons) {
      const p = el('span', { class: 'reason reason-' + x.kind, 'data-kind': x.kind });
      p.append(el('b', {}, x.kind), document.createTextNode(' ' + x.text));
      why.append(p);
    }
    tr.append(why);
    const kinds = reasons.map((x) => x.kind);
    tr.dataset.reasons = kinds.join(' ');
    if (kinds.some((k) => k !== 'context')) tr.classList.add('gpu-diff');
    if (kinds.includes('allocator') || kinds.includes('diverged')) tr.classList.add('gpu-mismatch');
    tbody.append(tr);
  }
  table.replaceChildren(thead, tbody);
  summary.textContent = (t.agree ? 'Allocated and reserved agree on every line. ' : 'Allocated/reserved DISAGREE on some lines. ') +
    `GPU time ${fmtTime(t.gpu_ns)}. The GPU's CUDA context uses ${fmtDelta(t.context_delta)} more than the profile's figure. ` +
    (t.same_stdout ? 'Same output. ' : 'The output differs. ') +
    `Driver used ${exactBytes(t.driver_used_before)} before the job, ${exactBytes(t.driver_used_after)} after.`;
  summary.dataset.agree = String(!!t.agree);
}
