// Rebuilding the allocator's segment and block layout at any event from the
// stream (sim/trace/README.md, "Rebuilding state from the stream"):
// segment_alloc/segment_map add free ranges, alloc marks a range allocated,
// free marks it free and merges with free neighbours, segment_free and
// segment_unmap remove ranges. Labels come from alloc and later relabel events.
//
// Blocks are immutable objects: a change replaces the object, so a checkpoint
// only copies the arrays.

const CHECKPOINT_EVERY = 1024;

/**
 * A segment: { addr, size, pool, expandable, blocks } where blocks is sorted
 * by addr and covers the mapped parts; gaps are unmapped ranges.
 * A block: { addr, size, free, label, line, requested, seq }.
 */
export class Replayer {
  constructor(events) {
    this.events = events;
    this.checkpoints = new Map(); // k -> cloned segments
    this.reset();
  }

  reset() {
    this.k = -1;
    this.segs = new Map();
  }

  /** stateAt returns the segments (sorted by address) after event k. */
  stateAt(k) {
    k = Math.max(-1, Math.min(k, this.events.length - 1));
    if (k < this.k) {
      let best = -1;
      for (const c of this.checkpoints.keys()) if (c <= k && c > best) best = c;
      if (best >= 0) {
        this.segs = cloneSegs(this.checkpoints.get(best));
        this.k = best;
      } else {
        this.reset();
      }
    }
    while (this.k < k) {
      this.k++;
      apply(this.segs, this.events[this.k]);
      if (this.k % CHECKPOINT_EVERY === 0 && !this.checkpoints.has(this.k)) {
        this.checkpoints.set(this.k, cloneSegs(this.segs));
      }
    }
    return [...this.segs.values()].sort((a, b) => a.addr - b.addr);
  }
}

function cloneSegs(segs) {
  const out = new Map();
  for (const [a, s] of segs) out.set(a, { ...s, blocks: s.blocks.slice() });
  return out;
}

/** apply changes segs by one event. Inconsistent streams never throw. */
export function apply(segs, ev) {
  switch (ev.kind) {
    case 'segment_alloc':
      segs.set(ev.addr, {
        addr: ev.addr, size: ev.size, pool: ev.pool || '', expandable: false,
        blocks: [freeBlock(ev.addr, ev.size)],
      });
      break;
    case 'segment_map': {
      let seg = (ev.segment && segs.get(ev.segment)) || findSegment(segs, ev.addr, true, ev.pool);
      if (!seg) {
        seg = { addr: ev.addr, size: 0, pool: ev.pool || '', expandable: true, blocks: [] };
        segs.set(ev.addr, seg);
      }
      seg.expandable = true;
      seg.blocks = mergeFree(insertSorted(removeRange(seg.blocks, ev.addr, ev.size), freeBlock(ev.addr, ev.size)));
      rebound(segs, seg);
      break;
    }
    case 'segment_unmap': {
      const seg = (ev.segment && segs.get(ev.segment)) || findSegment(segs, ev.addr, false);
      if (!seg) break;
      seg.blocks = removeRange(seg.blocks, ev.addr, ev.size);
      if (seg.blocks.length === 0) segs.delete(seg.addr);
      else rebound(segs, seg);
      break;
    }
    case 'segment_free': {
      const seg = segs.get(ev.addr) || findSegment(segs, ev.addr, false);
      if (seg) segs.delete(seg.addr);
      break;
    }
    case 'alloc': {
      let seg = (ev.segment && segs.get(ev.segment)) || findSegment(segs, ev.addr, false);
      if (!seg) {
        // A block outside any known segment: show it in a segment of its own.
        seg = { addr: ev.addr, size: ev.size, pool: ev.pool || '', expandable: false, blocks: [freeBlock(ev.addr, ev.size)] };
        segs.set(ev.addr, seg);
      }
      const blk = {
        addr: ev.addr, size: ev.size, free: false, label: ev.label || null,
        line: ev.line, requested: ev.requested || 0, seq: ev.seq,
      };
      seg.blocks = insertSorted(removeRange(seg.blocks, ev.addr, ev.size, true), blk);
      break;
    }
    case 'free': {
      const seg = (ev.segment && segs.get(ev.segment)) || findSegment(segs, ev.addr, false);
      if (!seg) break;
      const i = indexAt(seg.blocks, ev.addr);
      if (i < 0) break;
      const b = seg.blocks[i];
      seg.blocks = seg.blocks.slice();
      seg.blocks[i] = freeBlock(b.addr, b.size);
      seg.blocks = mergeFree(seg.blocks);
      break;
    }
    case 'relabel': {
      const seg = (ev.segment && segs.get(ev.segment)) || findSegment(segs, ev.addr, false);
      if (!seg) break;
      const i = indexAt(seg.blocks, ev.addr);
      if (i < 0 || seg.blocks[i].free) break;
      seg.blocks = seg.blocks.slice();
      seg.blocks[i] = { ...seg.blocks[i], label: ev.label || seg.blocks[i].label };
      break;
    }
    default:
      break;
  }
}

function freeBlock(addr, size) {
  return { addr, size, free: true, label: null, line: 0, requested: 0, seq: -1 };
}

/** findSegment returns the segment containing addr (or ending at it, if adjacent is set). */
function findSegment(segs, addr, adjacent, pool) {
  for (const s of segs.values()) {
    if (addr >= s.addr && addr < s.addr + s.size) return s;
    if (adjacent && addr === s.addr + s.size && s.expandable && (!pool || s.pool === pool)) return s;
  }
  return null;
}

/** rebound sets a segment's span to its mapped blocks, re-keying it if its start moved. */
function rebound(segs, seg) {
  const first = seg.blocks[0];
  const last = seg.blocks[seg.blocks.length - 1];
  const start = first.addr;
  const end = last.addr + last.size;
  if (start !== seg.addr) {
    segs.delete(seg.addr);
    seg.addr = start;
    segs.set(start, seg);
  }
  seg.size = end - start;
}

/** indexAt finds the block starting at addr (binary search), or -1. */
export function indexAt(blocks, addr) {
  let lo = 0;
  let hi = blocks.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const a = blocks[mid].addr;
    if (a === addr) return mid;
    if (a < addr) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** blockAt finds the block containing addr (binary search), or null. */
export function blockAt(blocks, addr) {
  let lo = 0;
  let hi = blocks.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const b = blocks[mid];
    if (addr < b.addr) hi = mid - 1;
    else if (addr >= b.addr + b.size) lo = mid + 1;
    else return b;
  }
  return null;
}

/**
 * removeRange cuts [addr, addr+size) out of blocks, keeping the parts of
 * blocks around it. With freeOnly, only free blocks are cut (an alloc carves
 * its block out of free space).
 */
function removeRange(blocks, addr, size, freeOnly) {
  const end = addr + size;
  const out = [];
  for (const b of blocks) {
    const bEnd = b.addr + b.size;
    if (bEnd <= addr || b.addr >= end || (freeOnly && !b.free)) {
      out.push(b);
      continue;
    }
    if (b.addr < addr) out.push({ ...b, size: addr - b.addr });
    if (bEnd > end) out.push({ ...b, addr: end, size: bEnd - end });
  }
  return out;
}

function insertSorted(blocks, blk) {
  const out = blocks.slice();
  let i = out.length;
  while (i > 0 && out[i - 1].addr > blk.addr) i--;
  out.splice(i, 0, blk);
  return out;
}

/** mergeFree joins contiguous free blocks. */
function mergeFree(blocks) {
  const out = [];
  for (const b of blocks) {
    const p = out[out.length - 1];
    if (p && p.free && b.free && p.addr + p.size === b.addr) {
      out[out.length - 1] = freeBlock(p.addr, p.size + b.size);
    } else {
      out.push(b);
    }
  }
  return out;
}
