// The playground page: wires the editor, the simulator (Go compiled to
// WebAssembly, loaded with wasm_exec.js) and the views. Every view is drawn
// from one run's event stream (sim/trace): output and traceback, timeline,
// per-line table, and the segment/block map at the selected event.

import { PlainView } from './plainview.js';
import { Replayer } from './replay.js';
import { Timeline } from './timeline.js';
import { SegMap } from './segmap.js';
import { renderLines, highlightRow } from './lines.js';
import { renderOutput } from './output.js';
import { encodeState, decodeState } from './share.js';
import { fmtBytes, fmtDelta, exactBytes, labelText } from './format.js';
import { initTheme, toggleTheme } from './theme.js';
import { load, save } from './storage.js';
import { initGPU } from './gpuview.js';

const $ = (id) => document.getElementById(id);

const app = {
  version: '',
  examples: [],
  editor: null,
  wasmReady: false,
  running: false,
  runs: 0,
  events: [],
  rows: [],
  k: 0,
  replayer: null,
  codeLines: [],
  notice: '', // shown before every run's status (e.g. a share link from another version)
  editorBuilt: null, // buildEditor's promise
};

function codeOf(n) {
  return (app.codeLines[n - 1] || '').trim();
}

function setStatus(text, kind) {
  const s = $('status');
  s.textContent = text;
  s.className = 'status' + (kind ? ' status-' + kind : '');
}

async function main() {
  // The module downloads (preloaded by the page's head) and compiles off the
  // main thread while the views are built below. The code editor waits for
  // the first result (buildEditor): evaluating and building CodeMirror is
  // ~150 ms of main-thread work on a slow machine, which delayed the module
  // (Chromium hands its bytes to the compiler on the main thread) and the
  // first run; until then PlainView shows the script.
  const wasm = loadWasm();
  initTheme();
  const body = document.body;
  app.version = body.dataset.version || '';
  app.examples = JSON.parse($('examples-data').textContent || '[]') || [];

  let initial = null;
  try {
    initial = await decodeState(location.hash);
  } catch (err) {
    setStatus('This share link is damaged and could not be opened: ' + err.message, 'error');
  }
  if (initial && initial.version && initial.version !== app.version) {
    app.notice = `This link was made with simulator v${initial.version}; this is v${app.version}, so figures may differ. `;
    setStatus(app.notice, 'warn');
  }
  if (!initial) {
    const def = app.examples.find((e) => e.id === body.dataset.defaultExample) || app.examples[0];
    initial = {
      script: load('script') ?? (def ? def.source : ''),
      profile: load('profile') ?? '',
      allocConf: load('allocConf') ?? '',
    };
  }
  setProfile(initial.profile);
  $('alloc-conf').value = initial.allocConf || '';

  app.editor = new PlainView($('editor'), initial.script);

  bindControls();
  initGPU(() => ({ script: app.editor.text, profile: $('profile-select').value, allocConf: $('alloc-conf').value.trim() }));
  app.timeline = new Timeline($('timeline'), (k) => select(k));
  app.segmap = new SegMap($('segmap'), $('block-tip'), codeOf);

  if (await wasm) {
    validateConf();
    await run();
  }
  await buildEditor();
}

/**
 * buildEditor replaces the plain view of the script by the code editor, once.
 * The editor module is imported here, not at the top: the bundle then
 * evaluates CodeMirror's and Lezer's module code only now, after the first
 * result, instead of before the module can start.
 */
function buildEditor() {
  app.editorBuilt ??= import('./editor.js').then(({ Editor }) => {
    const plain = app.editor;
    plain.remove();
    app.editor = new Editor($('editor'), plain.text, {
      onRun: () => run(),
      onChange: debounce((text) => save('script', text), 300),
    });
    if (plain.marked > 0) app.editor.mark(plain.marked);
  });
  return app.editorBuilt;
}

function setProfile(name) {
  const sel = $('profile-select');
  if (name && [...sel.options].some((o) => o.value === name)) sel.value = name;
}

async function loadWasm() {
  const url = document.body.dataset.wasm;
  if (!url) {
    setStatus('The simulator module is missing from this server: run `make build`.', 'error');
    return false;
  }
  setStatus('Loading the simulator…');
  try {
    performance.mark('playground:wasm-start');
    const go = new Go();
    let inst;
    try {
      inst = await WebAssembly.instantiateStreaming(fetch(url), go.importObject);
    } catch (streamErr) {
      const buf = await (await fetch(url)).arrayBuffer();
      inst = await WebAssembly.instantiate(buf, go.importObject);
    }
    performance.mark('playground:wasm-compiled');
    go.run(inst.instance);
    performance.mark('playground:go-started');
    if (typeof globalThis.playgroundRun !== 'function') throw new Error('the module did not start');
    app.wasmReady = true;
    setStatus('');
    return true;
  } catch (err) {
    setStatus('Could not start the simulator: ' + err.message, 'error');
    return false;
  }
}

function currentState() {
  return {
    version: app.version,
    script: app.editor.text,
    profile: $('profile-select').value,
    allocConf: $('alloc-conf').value.trim(),
  };
}

async function run() {
  if (!app.wasmReady || app.running) return;
  app.running = true;
  const st = currentState();
  save('script', st.script);
  save('profile', st.profile);
  save('allocConf', st.allocConf);
  const btn = $('run-button');
  btn.disabled = true;
  document.body.classList.add('running');
  setStatus('Running…');
  // let the browser paint "Running…" before the simulation takes the thread
  await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const t0 = performance.now();
  if (app.runs === 0) performance.mark('playground:first-run-start');
  let resp;
  try {
    const raw = await globalThis.playgroundRun(JSON.stringify({ script: st.script, profile: st.profile, allocConf: st.allocConf }));
    resp = JSON.parse(raw);
  } catch (err) {
    resp = { hostError: 'the simulator failed: ' + err.message, events: [] };
  }
  const ms = performance.now() - t0;
  if (app.runs === 0) performance.mark('playground:first-run-end');
  app.codeLines = st.script.split('\n');
  show(resp);
  app.running = false;
  btn.disabled = false;
  document.body.classList.remove('running');
  app.runs++;
  if (app.runs === 1) performance.mark('playground:first-result');
  const n = (resp.events || []).length;
  const outcome = resp.hostError ? 'could not run' : resp.error ? `raised ${resp.error.type}` : 'finished';
  setStatus(`${app.notice}Script ${outcome} · ${n} events · simulated in ${ms.toFixed(0)} ms`, app.notice || resp.hostError || resp.error ? 'warn' : '');
  $('status').dataset.ms = ms.toFixed(1);
  if (!app.editorBuilt) {
    // first result: let the browser paint it, then build the code editor
    // before the page says it is ready (data-runs)
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    await buildEditor();
  }
  document.body.dataset.runs = String(app.runs);
}

function show(resp) {
  const events = resp.events || [];
  app.events = events;
  app.replayer = new Replayer(events);
  renderOutput({ stdout: $('stdout'), traceback: $('traceback'), hostError: $('host-error') }, resp, events, '<script>', (line) => app.editor.gotoLine(line));
  app.timeline.setEvents(events);
  app.rows = renderLines($('line-table').tBodies[0], events, codeOf, (k, line) => {
    select(k);
    app.editor.mark(line);
  });
  const sc = $('scrubber');
  sc.max = String(Math.max(0, events.length - 1));

  const oomAt = events.findIndex((e) => e.kind === 'oom');
  const banner = $('oom-banner');
  banner.hidden = oomAt < 0;
  if (oomAt >= 0) {
    $('oom-message').textContent = events[oomAt].text || 'an allocation failed';
    $('oom-jump').onclick = () => select(oomAt);
  }

  const fin = $('final-stats');
  fin.hidden = events.length === 0;
  if (events.length > 0) {
    const s = events[events.length - 1].stats;
    setBytes($('final-allocated'), s.allocated);
    setBytes($('final-reserved'), s.reserved);
    setBytes($('final-peak'), s.peak_allocated);
  }
  if (events.length === 0) {
    for (const dd of document.querySelectorAll('#stats dd')) dd.textContent = '–';
    app.segmap.show([], null);
    $('event-info').textContent = '';
    return;
  }
  select(oomAt >= 0 ? oomAt : events.length - 1);
}

function setBytes(node, v) {
  node.textContent = fmtBytes(v);
  node.title = exactBytes(v);
  node.dataset.bytes = String(v);
}

/** select moves the cursor to event k and redraws what depends on it. */
function select(k) {
  const ev = app.events;
  if (ev.length === 0) return;
  k = Math.max(0, Math.min(ev.length - 1, k));
  app.k = k;
  const e = ev[k];
  $('scrubber').value = String(k);
  app.timeline.setCursor(k);
  app.segmap.show(app.replayer.stateAt(k), e);
  for (const dd of document.querySelectorAll('#stats dd')) {
    const key = dd.dataset.key;
    const v = e.stats[key];
    if (key === 'segments') {
      dd.textContent = String(v);
      dd.dataset.bytes = String(v);
    } else {
      setBytes(dd, v);
    }
  }
  $('event-info').textContent = describe(e, k, ev.length);
  highlightRow($('line-table').tBodies[0], app.rows, k);
  if (e.line > 0) app.editor.mark(e.line);
}

function describe(e, k, n) {
  let what = e.kind.replace('_', ' ');
  if (e.kind === 'alloc' || e.kind === 'free') what += ` ${e.kind === 'alloc' ? '+' : '−'}${fmtBytes(e.size)} ${labelText(e.label)}`;
  else if (e.kind.startsWith('segment')) what += ' ' + fmtBytes(e.size);
  else if (e.kind === 'relabel') what += ' → ' + labelText(e.label);
  else if (e.kind === 'output') what = 'print';
  return `event ${k + 1} of ${n} · ${what}` + (e.line > 0 ? ` · line ${e.line}` : '');
}

function stepLine(dir) {
  const ev = app.events;
  const cur = ev[app.k] ? ev[app.k].line : 0;
  for (let i = app.k + dir; i >= 0 && i < ev.length; i += dir) {
    if (ev[i].kind === 'line' && ev[i].line !== cur) return select(i);
  }
}

async function share() {
  try {
    const frag = await encodeState(currentState());
    history.replaceState(null, '', '#' + frag);
    const url = location.href;
    try {
      await navigator.clipboard.writeText(url);
      setStatus(`Link copied: it holds the script, device and settings (${url.length} characters).`);
    } catch {
      setStatus('The link is in the address bar: copy it from there.');
    }
  } catch (err) {
    setStatus('Could not make a link: ' + err.message, 'error');
  }
}

function validateConf() {
  const input = $('alloc-conf');
  const out = $('alloc-conf-error');
  const msg = app.wasmReady ? globalThis.playgroundValidateConfig(input.value) : '';
  out.hidden = msg === '';
  out.textContent = msg ? 'PYTORCH_CUDA_ALLOC_CONF: ' + msg : '';
  input.setAttribute('aria-invalid', msg ? 'true' : 'false');
  return msg === '';
}

function bindControls() {
  $('run-button').addEventListener('click', () => run());
  $('share-button').addEventListener('click', () => share());
  $('theme-button').addEventListener('click', () => toggleTheme());
  $('help-button').addEventListener('click', () => $('help-dialog').showModal());
  $('example-select').addEventListener('change', (e) => {
    const ex = app.examples.find((x) => x.id === e.target.value);
    if (!ex) return;
    app.editor.text = ex.source;
    save('script', ex.source);
    run();
  });
  $('profile-select').addEventListener('change', () => run());
  const conf = $('alloc-conf');
  conf.addEventListener('input', debounce(() => validateConf(), 200));
  conf.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && validateConf()) run();
  });
  const sc = $('scrubber');
  sc.addEventListener('input', () => select(Number(sc.value)));
  $('step-back').addEventListener('click', () => select(app.k - 1));
  $('step-forward').addEventListener('click', () => select(app.k + 1));
  window.addEventListener('hashchange', async () => {
    try {
      const st = await decodeState(location.hash);
      if (!st) return;
      app.editor.text = st.script;
      setProfile(st.profile);
      conf.value = st.allocConf;
      validateConf();
      run();
    } catch (err) {
      setStatus('This share link is damaged and could not be opened: ' + err.message, 'error');
    }
  });
  document.addEventListener('keydown', onKey);
}

function onKey(e) {
  if (e.defaultPrevented) return;
  if ((e.ctrlKey || e.metaKey) && e.key === 'Enter') {
    e.preventDefault();
    run();
    return;
  }
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const t = e.target;
  if (t instanceof Element && t.closest('.cm-editor, input[type=text], select, textarea, dialog, button')) return;
  const inResults = t instanceof Element && t.closest('#segmap, #scrubber, .pane-timeline, .pane-map');
  const keys = {
    ArrowUp: () => select(app.k - 1),
    ArrowDown: () => select(app.k + 1),
    PageUp: inResults && (() => stepLine(-1)),
    PageDown: inResults && (() => stepLine(1)),
    Home: inResults && (() => select(0)),
    End: inResults && (() => select(app.events.length - 1)),
    '?': () => $('help-dialog').showModal(),
  };
  const f = keys[e.key];
  if (f && app.events.length > 0) {
    e.preventDefault();
    f();
  }
}

function debounce(f, ms) {
  let t = 0;
  return (...a) => {
    clearTimeout(t);
    t = setTimeout(() => f(...a), ms);
  };
}

main();
