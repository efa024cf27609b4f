// The essential checks of speedscope's file format, for tests/producers.sh,
// written from speedscope's published spec (src/lib/file-format-spec.ts and
// the JSON schema made from it): the members each object must have, their
// types, the units, frame indices in range, one weight per sample, balanced
// events in time order.  Usage: node speedscope_check.js FILE
// Prints "ok" and a summary ("profiles N samples N weight W" per profile),
// or the first problem found, and exits 1.
'use strict';
const fs = require('fs');
const file = process.argv[2];
let d;
try {
  d = JSON.parse(fs.readFileSync(file, 'utf8'));
} catch (e) {
  console.log('not JSON: ' + e.message);
  process.exit(1);
}
const problems = [];
const bad = (m) => problems.push(m);
const isObj = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);
const onlyKeys = (x, allowed, what) => {
  for (const k of Object.keys(x)) if (!allowed.includes(k)) bad(what + ': unexpected member ' + k);
};
const UNITS = ['none', 'nanoseconds', 'microseconds', 'milliseconds', 'seconds', 'bytes'];
if (!isObj(d)) bad('the file is not an object');
else {
  onlyKeys(d, ['$schema', 'version', 'shared', 'profiles', 'name', 'activeProfileIndex', 'exporter'], 'file');
  if (d.$schema !== 'https://www.speedscope.app/file-format-schema.json') bad('$schema');
  if (typeof d.version !== 'string') bad('version must be a string');
  if (d.name !== undefined && typeof d.name !== 'string') bad('name must be a string');
  if (!isObj(d.shared) || !Array.isArray(d.shared.frames)) bad('shared.frames must be an array');
  if (!Array.isArray(d.profiles)) bad('profiles must be an array');
  if (d.activeProfileIndex !== undefined &&
      !(Number.isInteger(d.activeProfileIndex) && d.activeProfileIndex >= 0 &&
        d.activeProfileIndex < (d.profiles || []).length)) bad('activeProfileIndex');
}
const frames = (d && d.shared && d.shared.frames) || [];
frames.forEach((f, i) => {
  if (!isObj(f)) return bad('frame ' + i + ' is not an object');
  onlyKeys(f, ['name', 'file', 'line', 'col'], 'frame ' + i);
  if (typeof f.name !== 'string') bad('frame ' + i + ': name');
  if (f.file !== undefined && typeof f.file !== 'string') bad('frame ' + i + ': file');
  for (const k of ['line', 'col'])
    if (f[k] !== undefined && typeof f[k] !== 'number') bad('frame ' + i + ': ' + k);
});
const isIndex = (x) => Number.isInteger(x) && x >= 0 && x < frames.length;
const summary = [];
((d && d.profiles) || []).forEach((p, i) => {
  const w = 'profile ' + i;
  if (!isObj(p)) return bad(w + ' is not an object');
  if (typeof p.name !== 'string') bad(w + ': name');
  if (!UNITS.includes(p.unit)) bad(w + ': unit ' + p.unit);
  if (typeof p.startValue !== 'number' || typeof p.endValue !== 'number' || p.endValue < p.startValue)
    bad(w + ': startValue/endValue');
  let n = 0, total = 0;
  if (p.type === 'sampled') {
    onlyKeys(p, ['type', 'name', 'unit', 'startValue', 'endValue', 'samples', 'weights'], w);
    if (!Array.isArray(p.samples) || !Array.isArray(p.weights) || p.samples.length !== p.weights.length)
      return bad(w + ': samples and weights must be arrays of one length');
    p.samples.forEach((s, k) => {
      if (!Array.isArray(s) || !s.every(isIndex)) bad(w + ': sample ' + k + ' is not a list of frame indices');
    });
    p.weights.forEach((x, k) => {
      if (typeof x !== 'number' || !(x >= 0)) bad(w + ': weight ' + k);
    });
    n = p.samples.length;
    total = p.weights.reduce((a, b) => a + b, 0);
  } else if (p.type === 'evented') {
    onlyKeys(p, ['type', 'name', 'unit', 'startValue', 'endValue', 'events'], w);
    if (!Array.isArray(p.events)) return bad(w + ': events');
    const open = [];
    let last = -Infinity;
    p.events.forEach((e, k) => {
      if (!isObj(e) || !['O', 'C'].includes(e.type) || typeof e.at !== 'number' || !isIndex(e.frame))
        return bad(w + ': event ' + k);
      if (e.at < last) bad(w + ': event ' + k + ' goes back in time');
      last = e.at;
      if (e.type === 'O') open.push(e.frame);
      else if (open.pop() !== e.frame) bad(w + ': event ' + k + ' closes a frame that is not innermost');
    });
    if (open.length) bad(w + ': frames left open');
    n = p.events.length;
  } else bad(w + ': type ' + p.type);
  summary.push('profile ' + i + ' ' + p.unit + ' samples ' + n + ' weight ' + total);
});
if (problems.length) {
  console.log(problems.slice(0, 5).join('\n'));
  process.exit(1);
}
console.log('ok');
for (const s of summary) console.log(s);
