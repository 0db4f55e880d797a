// The code editor: CodeMirror 6 with Python highlighting, Ctrl/Cmd+Enter to
// run, a marker on the source line of the selected event, and colours taken
// from the page's CSS variables so it follows the theme.

import { EditorView, basicSetup } from 'codemirror';
import { python } from '@codemirror/lang-python';
import { keymap, Decoration } from '@codemirror/view';
import { Prec, StateEffect, StateField } from '@codemirror/state';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { tags as t } from '@lezer/highlight';

const setMarked = StateEffect.define();

const markedLine = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    deco = deco.map(tr.changes);
    for (const e of tr.effects) {
      if (!e.is(setMarked)) continue;
      const n = e.value;
      if (n < 1 || n > tr.state.doc.lines) return Decoration.none;
      const line = tr.state.doc.line(n);
      return Decoration.set([Decoration.line({ class: 'cm-event-line' }).range(line.from)]);
    }
    return deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

const theme = EditorView.theme({
  '&': { color: 'var(--fg)', backgroundColor: 'var(--editor-bg)', fontSize: 'var(--code-size)', height: '100%' },
  '.cm-content': { fontFamily: 'var(--mono)', caretColor: 'var(--fg)' },
  '.cm-gutters': { backgroundColor: 'var(--editor-gutter)', color: 'var(--muted)', border: 'none' },
  '.cm-activeLine': { backgroundColor: 'var(--editor-active)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--editor-active)' },
  '.cm-event-line': { backgroundColor: 'var(--mark-bg)', boxShadow: 'inset 3px 0 var(--accent)' },
  '&.cm-focused .cm-cursor': { borderLeftColor: 'var(--fg)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': { backgroundColor: 'var(--selection) !important' },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '1.5' },
});

// Syntax colours from CSS variables, so both themes have readable contrast.
const highlight = HighlightStyle.define([
  { tag: [t.keyword, t.controlKeyword, t.definitionKeyword, t.moduleKeyword, t.operatorKeyword], color: 'var(--hl-keyword)' },
  { tag: [t.string, t.special(t.string)], color: 'var(--hl-string)' },
  { tag: [t.number, t.bool, t.null], color: 'var(--hl-number)' },
  { tag: [t.comment, t.lineComment], color: 'var(--hl-comment)', fontStyle: 'italic' },
  { tag: [t.function(t.variableName), t.function(t.propertyName), t.definition(t.function(t.variableName))], color: 'var(--hl-function)' },
  { tag: [t.className, t.definition(t.className)], color: 'var(--hl-class)' },
  { tag: [t.self, t.special(t.variableName)], color: 'var(--hl-keyword)' },
]);

/** Editor wraps a CodeMirror view. */
export class Editor {
  constructor(parent, doc, { onRun, onChange }) {
    this.view = new EditorView({
      doc,
      parent,
      extensions: [
        Prec.highest(keymap.of([{ key: 'Mod-Enter', run: () => { onRun(); return true; } }, { key: 'Escape', run: (v) => { v.contentDOM.blur(); return true; } }])),
        basicSetup,
        python(),
        syntaxHighlighting(highlight),
        markedLine,
        theme,
        EditorView.contentAttributes.of({ 'aria-label': 'Python script' }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) onChange(u.state.doc.toString());
        }),
      ],
    });
  }

  get text() {
    return this.view.state.doc.toString();
  }

  set text(s) {
    this.view.dispatch({ changes: { from: 0, to: this.view.state.doc.length, insert: s } });
  }

  /** lineText returns source line n (1-based), trimmed, or "". */
  lineText(n) {
    const doc = this.view.state.doc;
    if (n < 1 || n > doc.lines) return '';
    return doc.line(n).text.trim();
  }

  /** gotoLine selects line n, scrolls to it and focuses the editor. */
  gotoLine(n) {
    const doc = this.view.state.doc;
    const line = doc.line(Math.max(1, Math.min(n, doc.lines)));
    this.view.dispatch({ selection: { anchor: line.from, head: line.to }, scrollIntoView: true });
    this.view.focus();
  }

  /** mark highlights line n (0 clears) without moving the selection. */
  mark(n) {
    const effects = [setMarked.of(n)];
    if (n >= 1 && n <= this.view.state.doc.lines) {
      effects.push(EditorView.scrollIntoView(this.view.state.doc.line(n).from, { y: 'nearest' }));
    }
    this.view.dispatch({ effects });
  }
}
