// Decoding the GPU websocket's "rows" messages: a job's events in the
// compact row format of package web/gpujob (rows.go describes it; its Go
// decoder is rows_decode.go). A message is
// {"type":"rows","v":1,"rows":[ROW,ROW,...]}; each row is an array, a mask
// first, then the values of its set bits in bit order. Absent running
// fields keep the previous event's value, absent own fields are zero;
// numbers are deltas from registers that start fresh in every message;
// strings are references into the message's string table (a string is a
// new entry, an integer an index). ~50 bytes per event instead of ~440
// for trace.Event's JSON.
//
// An EventLog keeps a job's events in columns (typed arrays, a string
// table): 100 000s of events cost no garbage collection, and decoding one
// is a few array writes. log.event(i) rebuilds event i as the object
// JSON.parse gives for trace.Event's JSON (encoding/json's field names,
// zero fields omitted); log.column(name) is a field of every event.

export const ROWS_VERSION = 1;

const LINE = 1 << 0;
const KIND = 1 << 1;
const ELAPSED = 1 << 2;
const STATS = 1 << 3;
const GPU = 1 << 4;
const SEGMENT = 1 << 5;
const ADDR = 1 << 6;
const SIZE = 1 << 7;
const REQUESTED = 1 << 8;
const POOL = 1 << 9;
const LABEL = 1 << 10;
const TEXT = 1 << 11;
const SEQ = 1 << 12;
const BITS = 13;

// Numeric columns (Float64Array: addresses < 2^53 are exact): the event's
// fields, then trace.Stats's, then trace.GPU's (elapsed_ns included).
const STATS_KEYS = ['allocated', 'reserved', 'peak_allocated', 'peak_reserved', 'active', 'requested', 'segments', 'alloc_retries', 'ooms'];
const GPU_KEYS = ['driver_used', 'device_allocs', 'device_frees', 'device_ns']; // gpu mask bits 1..4; bit 0: present
const NUM = ['seq', 'line', 'addr', 'size', 'requested', 'segment', ...STATS_KEYS.map((k) => 'stats.' + k),
  ...GPU_KEYS.map((k) => 'gpu.' + k), 'gpu.elapsed_ns'];
// String columns (Int32Array of string table ids; id 0 is ''), and gpu
// (1: the event has gpu figures). label_kind is -1 for no label.
const IDS = ['kind', 'pool', 'label_kind', 'label_name', 'label_detail', 'text', 'gpu'];
const NS = 6; // first stats column
const NG = NS + STATS_KEYS.length; // first gpu column

/** EventLog is the events of one job, in columns. */
export class EventLog {
  constructor() {
    this.length = 0;
    this.cap = 0;
    this.num = [];
    this.ids = [];
    this.strings = [''];
    this.index = new Map([['', 0]]);
    this.reserve(1024);
  }

  // reserve makes room for n events.
  reserve(n) {
    if (n <= this.cap) return;
    const cap = Math.max(n, 2 * this.cap);
    this.num = NUM.map((_, k) => { const a = new Float64Array(cap); if (this.num[k]) a.set(this.num[k]); return a; });
    this.ids = IDS.map((_, k) => { const a = new Int32Array(cap); if (this.ids[k]) a.set(this.ids[k]); return a; });
    this.cap = cap;
  }

  // intern returns the string table id of s.
  intern(s) {
    let id = this.index.get(s);
    if (id === undefined) {
      id = this.strings.length;
      this.strings.push(s);
      this.index.set(s, id);
    }
    return id;
  }

  /** column returns field name ('size', 'stats.allocated', 'gpu.driver_used', 'kind', ...) of every event. */
  column(name) {
    let k = NUM.indexOf(name);
    if (k >= 0) return this.num[k].subarray(0, this.length);
    k = IDS.indexOf(name);
    if (k < 0) throw new Error(`EventLog: no column ${name}`);
    const ids = this.ids[k].subarray(0, this.length);
    return k === IDS.length - 1 ? ids : Array.from(ids, (id) => (id < 0 ? null : this.strings[id]));
  }

  /** kind returns the kind of event i. */
  kind(i) { return this.strings[this.ids[0][i]]; }

  /** text returns the text of event i ('' if none). */
  text(i) { return this.strings[this.ids[5][i]]; }

  /** event returns event i as a trace.Event object. */
  event(i) {
    const n = this.num, d = this.ids, s = this.strings;
    const e = { seq: n[0][i], kind: s[d[0][i]], line: n[1][i] };
    if (n[2][i]) e.addr = n[2][i];
    if (n[3][i]) e.size = n[3][i];
    if (n[4][i]) e.requested = n[4][i];
    if (n[5][i]) e.segment = n[5][i];
    if (d[1][i]) e.pool = s[d[1][i]];
    if (d[2][i] >= 0) {
      e.label = { kind: s[d[2][i]] };
      if (d[3][i]) e.label.name = s[d[3][i]];
      if (d[4][i]) e.label.detail = s[d[4][i]];
    }
    if (d[5][i]) e.text = s[d[5][i]];
    e.stats = {};
    for (let k = 0; k < STATS_KEYS.length; k++) e.stats[STATS_KEYS[k]] = n[NS + k][i];
    if (d[6][i]) {
      e.gpu = { driver_used: n[NG][i], elapsed_ns: n[NG + 4][i], device_allocs: n[NG + 1][i], device_frees: n[NG + 2][i], device_ns: n[NG + 3][i] };
    }
    return e;
  }

  /** decode appends the events of rows (one message's) to the log. */
  decode(rows) {
    this.reserve(this.length + rows.length);
    const [cSeq, cLine, cAddr, cSize, cReq, cSeg] = this.num;
    const [cKind, cPool, cLK, cLN, cLD, cText, cGPU] = this.ids;
    const regs = new Float64Array(STATS_KEYS.length + GPU_KEYS.length + 1); // stats, then gpu, then elapsed
    const cRegs = this.num.slice(NS);
    let seq = -1, kind = 0, line = 0, segment = 0, size = 0, gpu = 0;
    const frame = []; // this message's string table, as log ids
    const ref = (v) => {
      if (typeof v === 'string') {
        const id = this.intern(v);
        frame.push(id);
        return id;
      }
      const id = frame[v];
      if (id === undefined) throw new Error(`GPU stream: string reference ${v}, the table has ${frame.length}`);
      return id;
    };
    let at = this.length;
    for (let r = 0; r < rows.length; r++, at++) {
      const row = rows[r];
      const m = row[0];
      if (!(m >= 0 && m < 1 << BITS)) throw new Error(`GPU stream: row ${r}: mask ${m} has unknown bits`);
      let i = 1;
      if (m & LINE) line += row[i++];
      if (m & KIND) kind = ref(row[i++]);
      const elapsed = m & ELAPSED ? row[i++] : 0;
      if (m & STATS) {
        const sm = row[i++];
        for (let b = 0; b < STATS_KEYS.length; b++) if (sm & (1 << b)) regs[b] += row[i++];
      }
      if (m & GPU) {
        const gm = row[i++];
        if (gm === 0) {
          gpu = 0;
          regs.fill(0, STATS_KEYS.length);
        } else {
          if (!(gm & 1)) throw new Error(`GPU stream: row ${r}: gpu mask ${gm} is malformed`);
          gpu = 1;
          for (let b = 0; b < GPU_KEYS.length; b++) if (gm & (2 << b)) regs[STATS_KEYS.length + b] += row[i++];
        }
      }
      if (m & ELAPSED) {
        if (!gpu) throw new Error(`GPU stream: row ${r}: gpu.elapsed_ns of an event without gpu figures`);
        regs[regs.length - 1] = elapsed;
      }
      const evSegment = m & SEGMENT ? segment + row[i++] : 0;
      cAddr[at] = m & ADDR ? evSegment + row[i++] : 0;
      const evSize = m & SIZE ? size + row[i++] : 0;
      cReq[at] = m & REQUESTED ? evSize - row[i++] : 0;
      cPool[at] = m & POOL ? ref(row[i++]) : 0;
      if (m & LABEL) {
        cLK[at] = ref(row[i++]);
        cLN[at] = ref(row[i++]);
        cLD[at] = ref(row[i++]);
      } else {
        cLK[at] = -1;
        cLN[at] = 0;
        cLD[at] = 0;
      }
      cText[at] = m & TEXT ? ref(row[i++]) : 0;
      seq += 1 + (m & SEQ ? row[i++] : 0);
      if (i !== row.length) throw new Error(`GPU stream: row ${r} has ${row.length - 1} values, its mask says ${i - 1}`);
      if (evSegment) segment = evSegment;
      if (evSize) size = evSize;
      cSeq[at] = seq;
      cLine[at] = line;
      cSize[at] = evSize;
      cSeg[at] = evSegment;
      cKind[at] = kind;
      cGPU[at] = gpu;
      for (let k = 0; k < regs.length; k++) cRegs[k][at] = regs[k];
    }
    this.length = at;
    return this;
  }
}

/**
 * readRows appends the events of a parsed "rows" message to log (an
 * EventLog) and returns it; it throws for another format version.
 */
export function readRows(msg, log = new EventLog()) {
  if (msg.v !== ROWS_VERSION) {
    throw new Error(`GPU stream: rows of format version ${msg.v}; this page reads version ${ROWS_VERSION} (reload the page)`);
  }
  return log.decode(msg.rows);
}
