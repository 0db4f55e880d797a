// The segment and block map: every segment the cache holds at the selected
// event, drawn to one scale (one byte is the same width everywhere), flowing
// left to right and wrapping like text. Allocated blocks are coloured by what
// they are (label kind) and named when there is room; free blocks are pale;
// hover shows what a block is, its size and the line that made it.

import { el } from './svg.js';
import { fmtBytes, exactBytes, hex, labelText } from './format.js';
import { blockAt } from './replay.js';

const ROW_H = 34;
const ROW_GAP = 8;
const SEG_GAP = 6;
const TARGET_ROWS = 6;

export class SegMap {
  /**
   * @param {HTMLElement} root
   * @param {HTMLElement} tip tooltip element
   * @param {(n:number)=>string} codeOf source text of a line
   */
  constructor(root, tip, codeOf) {
    this.root = root;
    this.tip = tip;
    this.codeOf = codeOf;
    this.segs = [];
    this.current = null;
    this.spans = [];
    new ResizeObserver(() => this.draw()).observe(root);
    root.addEventListener('pointermove', (e) => this.hover(e));
    root.addEventListener('pointerleave', () => (this.tip.hidden = true));
  }

  /** show draws segs; current is the event at the cursor (its block is outlined). */
  show(segs, current) {
    this.segs = segs;
    this.current = current;
    this.draw();
  }

  draw() {
    const root = this.root;
    root.textContent = '';
    this.spans = [];
    const W = Math.max(320, root.clientWidth || 640);
    const segs = this.segs;
    if (segs.length === 0) {
      const p = document.createElement('p');
      p.className = 'muted empty';
      p.textContent = 'No segments reserved at this event.';
      root.appendChild(p);
      return;
    }
    let total = 0;
    for (const s of segs) total += s.size;
    // one row holds a power-of-two number of bytes, so the scale reads simply
    const rowBytes = Math.pow(2, Math.ceil(Math.log2(Math.max(W, total / TARGET_ROWS))));
    const bpp = rowBytes / W;
    this.bpp = bpp;

    // layout: walk the segments, cutting each into row spans
    let x = 0;
    let row = 0;
    for (const s of segs) {
      if (x > 0) x += SEG_GAP;
      if (x > W - 24) {
        x = 0;
        row++;
      }
      let off = 0;
      while (off < s.size) {
        const room = (W - x) * bpp;
        const take = Math.min(room, s.size - off);
        const w = take / bpp;
        this.spans.push({ seg: s, row, x0: x, x1: x + w, byte0: s.addr + off, first: off === 0 });
        off += take;
        x += w;
        if (off < s.size) {
          x = 0;
          row++;
        }
      }
    }
    const H = (row + 1) * (ROW_H + ROW_GAP) + 4;
    const svg = el('svg', { width: W, height: H, viewBox: `0 0 ${W} ${H}`, class: 'segmap-svg' });
    root.appendChild(svg);

    const cur = this.current;
    for (const sp of this.spans) {
      const y = sp.row * (ROW_H + ROW_GAP) + 2;
      const s = sp.seg;
      svg.appendChild(el('rect', { x: sp.x0, y, width: Math.max(1, sp.x1 - sp.x0), height: ROW_H, class: 'seg-bg' + (s.expandable ? ' seg-exp' : '') }));
      const spanEnd = sp.byte0 + (sp.x1 - sp.x0) * bpp;
      for (const b of s.blocks) {
        const a0 = Math.max(b.addr, sp.byte0);
        const a1 = Math.min(b.addr + b.size, spanEnd);
        if (a1 <= a0) continue;
        const bx = sp.x0 + (a0 - sp.byte0) / bpp;
        const bw = (a1 - a0) / bpp;
        const kind = b.free ? 'free' : 'k-' + ((b.label && b.label.kind) || 'other');
        const hot = cur && !b.free && cur.addr === b.addr && (cur.kind === 'alloc' || cur.kind === 'relabel');
        svg.appendChild(el('rect', { x: bx, y: y + 1, width: Math.max(0.5, bw - 0.5), height: ROW_H - 2, class: 'blk ' + kind + (hot ? ' hot' : ''), 'data-addr': b.addr }));
        if (!b.free && bw >= 56) {
          const name = (b.label && (b.label.name || b.label.kind)) || '';
          const chars = Math.floor((bw - 8) / 7.5);
          if (chars >= 3) {
            const t = name.length > chars ? name.slice(0, chars - 1) + '…' : name;
            svg.appendChild(el('text', { x: bx + 4, y: y + ROW_H / 2 + 5, class: 'blk-text' }, t));
          }
        }
      }
      if (cur && (cur.kind === 'free') && cur.addr >= sp.byte0 && cur.addr < spanEnd) {
        const bx = sp.x0 + (cur.addr - sp.byte0) / bpp;
        svg.appendChild(el('rect', { x: bx, y: y + 1, width: Math.max(2, Math.min(cur.size, spanEnd - cur.addr) / bpp), height: ROW_H - 2, class: 'blk freed' }));
      }
      svg.appendChild(el('rect', { x: sp.x0, y, width: Math.max(1, sp.x1 - sp.x0), height: ROW_H, class: 'seg-outline' }));
    }
    const scale = document.createElement('p');
    scale.className = 'scale muted';
    scale.textContent = `${segs.length} segment${segs.length === 1 ? '' : 's'}, ${fmtBytes(total)} reserved · scale: one row = ${fmtBytes(rowBytes)}`;
    root.appendChild(scale);
  }

  hover(e) {
    const svg = this.root.querySelector('svg');
    if (!svg) return;
    const r = svg.getBoundingClientRect();
    const x = e.clientX - r.left;
    const yy = e.clientY - r.top;
    const row = Math.floor((yy - 2) / (ROW_H + ROW_GAP));
    const sp = this.spans.find((s) => s.row === row && x >= s.x0 && x < s.x1);
    if (!sp) {
      this.tip.hidden = true;
      return;
    }
    const addr = sp.byte0 + (x - sp.x0) * this.bpp;
    const b = blockAt(sp.seg.blocks, addr);
    this.tip.textContent = '';
    const add = (cls, text) => {
      const d = document.createElement('div');
      d.className = cls;
      d.textContent = text;
      this.tip.appendChild(d);
    };
    const s = sp.seg;
    if (!b) {
      add('tip-title', 'unmapped');
    } else if (b.free) {
      add('tip-title', 'free (cached) block');
      add('', `${fmtBytes(b.size)} (${exactBytes(b.size)})`);
    } else {
      add('tip-title', labelText(b.label));
      if (b.label && b.label.detail) add('', b.label.detail);
      add('', `${fmtBytes(b.size)} (${exactBytes(b.size)})` + (b.requested && b.requested !== b.size ? `, requested ${exactBytes(b.requested)}` : ''));
      if (b.line > 0) add('tip-code', `line ${b.line}: ${this.codeOf(b.line)}`);
    }
    add('muted', `segment ${hex(s.addr)} · ${fmtBytes(s.size)} · ${s.pool || '?'} pool${s.expandable ? ' · expandable' : ''}` + (b ? ` · block ${hex(b.addr)}` : ''));
    this.tip.hidden = false;
    const host = this.tip.offsetParent || document.body;
    const hr = host.getBoundingClientRect();
    this.tip.style.left = Math.min(e.clientX - hr.left + 14, hr.width - 340) + 'px';
    this.tip.style.top = e.clientY - hr.top + 16 + 'px';
  }
}
