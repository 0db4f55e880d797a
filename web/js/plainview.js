// PlainView shows the script as plain text until the code editor is built.
// CodeMirror's construction is ~100 ms of main-thread work on a slow
// machine; on a first visit the page builds it after the first result is on
// screen (main.js), and PlainView stands in for it meanwhile: same text,
// no highlighting, not editable. It remembers the marked line so that the
// editor shows it once built.

export class PlainView {
  constructor(parent, doc) {
    this.parent = parent;
    this.pre = document.createElement('pre');
    this.pre.className = 'editor-plain';
    this.pre.textContent = doc;
    parent.append(this.pre);
    this.marked = 0;
  }

  get text() {
    return this.pre.textContent;
  }

  set text(s) {
    this.pre.textContent = s;
  }

  /** mark remembers line n for the editor (0 clears). */
  mark(n) {
    this.marked = n;
  }

  /** gotoLine: nothing to select yet; the editor marks the line instead. */
  gotoLine(n) {
    this.marked = n;
  }

  /** remove takes the plain text off the page. */
  remove() {
    this.pre.remove();
  }
}
