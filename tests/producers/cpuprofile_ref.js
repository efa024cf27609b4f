// An independent reading of a DevTools .cpuprofile, or of the CPU profiles
// of a Chrome JSON trace (its Profile and ProfileChunk events), for
// tests/producers.sh: walks the JSON's own node tree and samples, with the
// rules the man page (FORMATS, Chrome/Node CPU profiles; Chrome traces)
// states, and prints what stackscope must report.
// Usage: node cpuprofile_ref.js MODE FILE
//   folded     "root;...;leaf COUNT" per distinct name path (any order)
//   durations  one line per sample in time order: its duration in ns
//   self       "name<TAB>self seconds" per leaf function: the sum of its
//              samples' durations (the `time` measure)
//   lines      "FILE#LINE<TAB>self samples" for the samples whose leaf has a
//              url: FILE the url's last part, LINE from the node's
//              positionTicks (each entry's ticks in turn) or the trace's
//              line of the sample, else the function's line
// A function without a name is "(anonymous FILE:LINE)" (speedscope's name;
// DevTools shows "(anonymous)" beside FILE:LINE), ":COLUMN" added when
// anonymous functions start at several columns of that line.
'use strict';
const fs = require('fs');
const [mode, file] = process.argv.slice(2);
const doc = JSON.parse(fs.readFileSync(file, 'utf8'));

// The profiles of the file: a .cpuprofile is one; a trace's are gathered
// from its events in time order, by pid and id.
function profiles() {
  if (doc.nodes) return [doc];
  const events = (Array.isArray(doc) ? doc : doc.traceEvents).map((e, i) => ({ e, i }));
  events.sort((a, b) => (a.e.ts || 0) - (b.e.ts || 0) || a.i - b.i);
  const byKey = new Map(), out = [];
  for (const { e } of events) {
    const key = e.pid + '/' + (e.id || 't' + e.tid);
    const data = e.args && e.args.data;
    if (!data) continue;
    if (e.name === 'Profile') {
      const p = { nodes: [], samples: [], timeDeltas: [], lines: [], startTime: data.startTime };
      byKey.set(key, p);
      out.push(p);
    } else if (e.name === 'ProfileChunk' && byKey.has(key)) {
      const p = byKey.get(key), cp = data.cpuProfile || {};
      p.nodes.push(...(cp.nodes || []));
      p.samples.push(...(cp.samples || []));
      p.timeDeltas.push(...(data.timeDeltas || []));
      const ls = data.lines || [];
      p.lines.push(...(ls.length === (cp.samples || []).length ? ls : (cp.samples || []).map(() => 0)));
      if (data.endTime !== undefined) p.endTime = data.endTime;
    }
  }
  return out.filter((p) => p.nodes.length);
}

const base = (url) => url.slice(url.lastIndexOf('/') + 1);

function read(prof) {
  const byId = new Map(), parentOf = new Map();
  for (const n of prof.nodes) byId.set(n.id, n);
  for (const n of prof.nodes) {
    for (const c of n.children || []) parentOf.set(c, n.id);
    if (n.parent !== undefined) parentOf.set(n.id, n.parent);
  }
  // anonymous functions: which (url, line) hold several columns
  const cols = new Map();
  for (const n of prof.nodes) {
    const cf = n.callFrame;
    if (cf.functionName !== '' || !cf.url) continue;
    const k = cf.url + '\n' + cf.lineNumber;
    if (!(cf.lineNumber >= 0)) continue;
    if (!cols.has(k)) cols.set(k, new Set());
    cols.get(k).add(cf.columnNumber);
  }
  const fname = (cf) => {
    if (cf.functionName !== '') return cf.functionName;
    if (!cf.url) return '(anonymous)';
    if (!(cf.lineNumber >= 0)) return '(anonymous ' + base(cf.url) + ')';
    const several = cols.get(cf.url + '\n' + cf.lineNumber).size > 1;
    return '(anonymous ' + base(cf.url) + ':' + (cf.lineNumber + 1) +
      (several ? ':' + (cf.columnNumber + 1) : '') + ')';
  };
  const names = (id) => {
    const out = [];
    for (let x = id; x !== undefined; x = parentOf.get(x)) {
      const cf = byId.get(x).callFrame;
      if (!parentOf.has(x) && cf.functionName === '(root)') continue;
      out.push(fname(cf));
    }
    return out.reverse();
  };
  let t = prof.startTime;
  const s = prof.samples.map((id, i) => ({ id, t: (t += prof.timeDeltas[i]), i, line: (prof.lines || [])[i] || 0 }));
  s.sort((a, b) => a.t - b.t || a.i - b.i);
  const end = prof.endTime !== undefined ? prof.endTime : s.length ? s[s.length - 1].t : 0;
  const dur = s.map((x, i) => {
    const next = i + 1 < s.length ? s[i + 1].t : end;
    return next > x.t ? Math.round((next - x.t) * 1000) : 0;
  });
  // each sample's line: the trace's, else the node's ticks in turn
  const used = new Map();
  const lineOf = (x) => {
    if (x.line > 0) return x.line;
    const n = byId.get(x.id), pt = n.positionTicks || [];
    let u = used.get(x.id) || 0;
    used.set(x.id, u + 1);
    for (const e of pt) {
      if (u < e.ticks) return e.line;
      u -= e.ticks;
    }
    return n.callFrame.lineNumber + 1;
  };
  return { s, dur, names, byId, lineOf };
}

const counts = new Map();
const add = (k, v) => counts.set(k, (counts.get(k) || 0) + v);
for (const prof of profiles()) {
  const { s, dur, names, byId, lineOf } = read(prof);
  s.forEach((x, i) => {
    const p = names(x.id);
    if (mode === 'folded' && p.length) add(p.join(';'), 1);
    else if (mode === 'durations') console.log(dur[i]);
    else if (mode === 'self' && p.length) add(p[p.length - 1], dur[i] / 1e9);
    else if (mode === 'lines' && p.length && byId.get(x.id).callFrame.url)
      add(base(byId.get(x.id).callFrame.url) + '#' + lineOf(x), 1);
  });
}
for (const [k, v] of counts) console.log(mode === 'folded' ? k + ' ' + v : k + '\t' + v);
