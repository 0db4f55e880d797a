// Standard output and the Python-style traceback. Every `File "...", line N`
// of the traceback (and the line of a SyntaxError) becomes a link that jumps
// to line N in the editor.

const FRAME = /(File "([^"]*)", line (\d+))/g;

/** renderOutput fills the output pane from a run. */
export function renderOutput(dom, resp, events, filename, onJump) {
  let out = '';
  let tb = '';
  for (const e of events) {
    if (e.kind === 'output') out += e.text || '';
    else if (e.kind === 'error') tb = e.text || '';
  }
  if (out === '' && resp.stdout) out = resp.stdout;
  if (tb === '' && resp.error) tb = resp.error.traceback || `${resp.error.type}: ${resp.error.message}`;
  dom.stdout.textContent = out;
  dom.stdout.classList.toggle('empty', out === '');
  dom.hostError.hidden = !resp.hostError;
  dom.hostError.textContent = resp.hostError ? 'The simulator could not run this script: ' + resp.hostError : '';
  dom.traceback.textContent = '';
  dom.traceback.hidden = tb === '';
  if (tb === '') return;
  let last = 0;
  for (const m of tb.matchAll(FRAME)) {
    dom.traceback.appendChild(document.createTextNode(tb.slice(last, m.index)));
    const file = m[2];
    const line = Number(m[3]);
    if (file === filename || file === '<script>' || file === '<string>') {
      const a = document.createElement('a');
      a.href = '#';
      a.className = 'jump';
      a.dataset.line = String(line);
      a.textContent = m[1];
      a.title = `Go to line ${line}`;
      a.addEventListener('click', (ev) => {
        ev.preventDefault();
        onJump(line);
      });
      dom.traceback.appendChild(a);
    } else {
      dom.traceback.appendChild(document.createTextNode(m[1]));
    }
    last = m.index + m[0].length;
  }
  dom.traceback.appendChild(document.createTextNode(tb.slice(last)));
  if (resp.error && resp.error.line > 0 && !/File "[^"]*", line \d+/.test(tb)) {
    const a = document.createElement('a');
    a.href = '#';
    a.className = 'jump';
    a.textContent = `\n→ line ${resp.error.line}`;
    a.addEventListener('click', (ev) => {
      ev.preventDefault();
      onJump(resp.error.line);
    });
    dom.traceback.appendChild(a);
  }
}
