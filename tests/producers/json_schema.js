// json_schema.js - validate a JSON file against a JSON Schema (draft-07),
// offline, for tests/producers.sh: speedscope's published file-format
// schema (tests/data/speedscope/file-format-schema.json) checks every
// speedscope file stackscope writes.  It implements the keywords that
// schema uses ($ref to #/definitions, anyOf, const, enum, items,
// properties, required, type) and refuses a schema with any other keyword,
// so that a newer schema cannot pass unchecked.
// Usage: node json_schema.js SCHEMA FILE   prints "valid", or the first
// problems with their JSON paths, and exits 1.
'use strict';
const fs = require('fs');
const schema = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
let doc;
try {
  doc = JSON.parse(fs.readFileSync(process.argv[3], 'utf8'));
} catch (e) {
  console.log('not JSON: ' + e.message);
  process.exit(1);
}
const KNOWN = new Set(['$schema', '$ref', 'definitions', 'title', 'description', 'anyOf', 'const',
  'enum', 'items', 'properties', 'required', 'type']);
const problems = [];

function resolve(ref) {
  const m = /^#\/definitions\/(.+)$/.exec(ref);
  if (!m || !schema.definitions || !(m[1] in schema.definitions))
    throw new Error('unresolvable $ref ' + ref);
  return schema.definitions[m[1]];
}

function typeOk(t, v) {
  switch (t) {
    case 'object': return v !== null && typeof v === 'object' && !Array.isArray(v);
    case 'array': return Array.isArray(v);
    case 'string': return typeof v === 'string';
    case 'number': return typeof v === 'number' && isFinite(v);
    case 'integer': return Number.isInteger(v);
    case 'boolean': return typeof v === 'boolean';
    case 'null': return v === null;
    default: throw new Error('unknown type ' + t);
  }
}

// Does v satisfy s?  Problems go to out (an array), with their paths.
function check(s, v, path, out) {
  for (const k of Object.keys(s))
    if (!KNOWN.has(k)) throw new Error('schema keyword ' + k + ' at ' + path + ' is not implemented');
  if (s.$ref) return check(resolve(s.$ref), v, path, out);
  const before = out.length;
  if (s.type !== undefined) {
    const ts = Array.isArray(s.type) ? s.type : [s.type];
    if (!ts.some((t) => typeOk(t, v))) {
      out.push(path + ': expected ' + ts.join(' or ') + ', found ' + JSON.stringify(v).slice(0, 40));
      return false;
    }
  }
  if ('const' in s && JSON.stringify(v) !== JSON.stringify(s.const))
    out.push(path + ': must be ' + JSON.stringify(s.const));
  if (s.enum && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(v)))
    out.push(path + ': must be one of ' + JSON.stringify(s.enum));
  if (s.required && typeOk('object', v))
    for (const r of s.required) if (!(r in v)) out.push(path + ': missing ' + r);
  if (s.properties && typeOk('object', v))
    for (const [k, sub] of Object.entries(s.properties))
      if (k in v) check(sub, v[k], path + '.' + k, out);
  if (s.items && Array.isArray(v)) {
    if (Array.isArray(s.items)) throw new Error('tuple items are not implemented');
    v.forEach((x, i) => check(s.items, x, path + '[' + i + ']', out));
  }
  if (s.anyOf) {
    const ok = s.anyOf.some((sub) => check(sub, v, path, []));
    if (!ok) out.push(path + ': matches none of anyOf');
  }
  return out.length === before;
}

check(schema, doc, '$', problems);
if (problems.length) {
  console.log(problems.slice(0, 5).join('\n'));
  process.exit(1);
}
console.log('valid');
