// "Run on GPU": on a server with a GPU (GET /gpu/info answers), a button
// beside Run sends the script over a websocket (/gpu/ws, package
// web/gpujob's protocol), shows the queue position and the live progress,
// and renders the side-by-side table of the GPU run and the simulation
// that the server returns (package gpu/compare's Table): one row per
// executed line, a diff column and the reason for each difference.

const MiB = 1024 * 1024;
const mib = (n) => (n / MiB).toFixed(2);
const delta = (n) => (n === 0 ? '=' : (n > 0 ? '+' : '−') + mib(Math.abs(n)) + ' MiB');
const time = (ns) => (ns < 1e6 ? (ns / 1e3).toFixed(0) + ' µs' : (ns / 1e6).toFixed(2) + ' ms');

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
  const panel = el('section', { id: 'gpu-panel', class: 'gpu-panel', hidden: '' });
  const head = el('h2', {}, 'GPU and simulation side by side');
  const status = el('p', { id: 'gpu-status', class: 'status' });
  const cancel = el('button', { id: 'gpu-cancel', type: 'button', hidden: '' }, 'Cancel');
  const out = el('pre', { id: 'gpu-stdout', class: 'stdout' });
  const table = el('table', { id: 'gpu-table', class: 'gpu-table' });
  const summary = el('p', { id: 'gpu-summary' });
  panel.append(head, status, cancel, out, table, summary);
  (document.querySelector('main') || document.body).append(panel);

  let ws = null;
  cancel.addEventListener('click', () => ws && ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify({ type: 'cancel' })));
  button.addEventListener('click', () => {
    if (ws) return;
    const st = current();
    panel.hidden = false;
    out.textContent = '';
    table.replaceChildren();
    summary.textContent = '';
    status.textContent = 'connecting…';
    cancel.hidden = false;
    button.disabled = true;
    let events = 0;
    let last = null;
    ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/gpu/ws');
    ws.onopen = () => ws.send(JSON.stringify({ type: 'run', script: st.script, profile: st.profile, alloc_conf: st.allocConf }));
    const progress = (evs) => {
      for (const e of evs) {
        events++;
        last = e;
        if (e.kind === 'output') out.textContent += e.text;
      }
      if (last) {
        const g = last.gpu || {};
        status.textContent = `running: ${events} events, line ${last.line}, allocated ${mib(last.stats.allocated)} MiB, reserved ${mib(last.stats.reserved)} MiB, driver used ${mib(g.driver_used || 0)} MiB`;
      }
    };
    ws.onmessage = (m) => {
      const msg = JSON.parse(m.data);
      switch (msg.type) {
        case 'queued': status.textContent = `waiting for the GPU: position ${msg.position} in the queue`; break;
        case 'started': status.textContent = `running on ${msg.worker}…`; break;
        case 'event': progress([msg.event]); break;
        case 'events': progress(msg.events); break;
        case 'done': finish(msg.result); break;
        case 'error': status.textContent = `GPU run failed (${msg.code}): ${msg.message}`; end(); break;
      }
    };
    ws.onclose = () => end();
    const end = () => {
      cancel.hidden = true;
      button.disabled = false;
      if (ws) ws.close();
      ws = null;
    };
    const finish = (res) => {
      status.textContent = `done on ${res.worker}: ${res.events} events in ${time(res.wall_ns)}` + (res.error ? ` — ${res.error}` : '');
      out.textContent = res.stdout || '';
      if (res.compare) renderTable(table, summary, res.compare, st.script);
      end();
    };
  });
}

// renderTable fills table with the rows of a compare.Table.
export function renderTable(table, summary, t, script) {
  const lines = script.split('\n');
  const head = el('tr');
  for (const h of ['line', 'code', 'sim allocated', 'GPU allocated', 'sim reserved', 'GPU reserved', 'sim driver', 'GPU driver', 'GPU time', 'malloc/free', 'Δallocated', 'Δreserved', 'Δdriver', 'why']) {
    head.append(el('th', {}, h));
  }
  table.replaceChildren(head);
  const side = (s, f) => (s ? f(s) : '—');
  for (const r of t.rows) {
    const tr = el('tr', { 'data-line': String(r.line) });
    const cells = [
      String(r.line), (lines[r.line - 1] || '').trim(),
      side(r.sim, (s) => mib(s.allocated)), side(r.gpu, (s) => mib(s.allocated)),
      side(r.sim, (s) => mib(s.reserved)), side(r.gpu, (s) => mib(s.reserved)),
      side(r.sim, (s) => mib(s.driver_used)), side(r.gpu, (s) => mib(s.driver_used)),
      side(r.gpu, (s) => time(s.elapsed_ns)), side(r.gpu, (s) => `${s.device_allocs}/${s.device_frees}`),
      delta(r.d_allocated), delta(r.d_reserved), delta(r.d_driver_used),
      (r.reasons || []).map((x) => `${x.kind}: ${x.text}`).join('; '),
    ];
    for (const c of cells) tr.append(el('td', {}, c));
    if ((r.reasons || []).some((x) => x.kind !== 'context')) tr.className = 'gpu-diff';
    table.append(tr);
  }
  summary.textContent = (t.agree ? 'Allocated and reserved agree on every line. ' : 'Allocated/reserved DISAGREE on some lines. ') +
    `GPU time ${time(t.gpu_ns)}. The GPU's CUDA context uses ${delta(t.context_delta)} against the profile's. ` +
    (t.same_stdout ? 'Same output. ' : 'The output differs. ') +
    `Driver used ${t.driver_used_before} B before the job, ${t.driver_used_after} B after.`;
}
