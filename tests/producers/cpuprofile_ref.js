// An independent reading of a DevTools .cpuprofile, for tests/producers.sh:
// walks the JSON's own node tree and samples, with the rules the man page
// (FORMATS, Chrome/Node CPU profiles) states, and prints what stackscope
// must report.  Usage: node cpuprofile_ref.js MODE FILE
//   folded     "root;...;leaf COUNT" per distinct name path (any order)
//   durations  one line per sample in time order: its duration in ns
//   self       "name<TAB>self seconds" per leaf function: the sum of its
//              samples' durations (the `time` measure)
'use strict';
const fs = require('fs');
const [mode, file] = process.argv.slice(2);
const prof = JSON.parse(fs.readFileSync(file, 'utf8'));
const byId = new Map();
for (const n of prof.nodes) byId.set(n.id, n);
const parentOf = new Map();
for (const n of prof.nodes) {
  for (const c of n.children || []) parentOf.set(c, n.id);
  if (n.parent !== undefined) parentOf.set(n.id, n.parent);
}
function names(id) {
  const out = [];
  for (let x = id; x !== undefined; x = parentOf.get(x)) {
    const cf = byId.get(x).callFrame;
    if (!parentOf.has(x) && cf.functionName === '(root)') continue;
    out.push(cf.functionName === '' ? '(anonymous)' : cf.functionName);
  }
  return out.reverse();
}
let t = prof.startTime;
const s = prof.samples.map((id, i) => ({ id, t: (t += prof.timeDeltas[i]), i }));
s.sort((a, b) => a.t - b.t || a.i - b.i);
const end = prof.endTime;
const dur = s.map((x, i) => {
  const next = i + 1 < s.length ? s[i + 1].t : end;
  return next > x.t ? Math.round((next - x.t) * 1000) : 0;
});
if (mode === 'folded') {
  const counts = new Map();
  for (const x of s) {
    const k = names(x.id).join(';');
    if (k) counts.set(k, (counts.get(k) || 0) + 1);
  }
  for (const [k, v] of counts) console.log(k + ' ' + v);
} else if (mode === 'durations') {
  for (const d of dur) console.log(d);
} else if (mode === 'self') {
  const self = new Map();
  s.forEach((x, i) => {
    const p = names(x.id);
    if (p.length) self.set(p[p.length - 1], (self.get(p[p.length - 1]) || 0) + dur[i]);
  });
  for (const [k, v] of self) console.log(k + '\t' + v / 1e9);
}
