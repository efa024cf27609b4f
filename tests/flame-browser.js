// flame-browser.js - load an SVG flame graph in headless Chromium and drive
// it through the DevTools protocol (tests/flame.sh reads what it prints).
//
//   node flame-browser.js SVG OUTDIR CLICK_INDEX [SEARCH_TERM]
//
// (CLICK_INDEX -1: load and screenshot only.)
// Node 18 and 20 have no WebSocket client, so the few lines of one the
// protocol needs are here (RFC 6455: masked client frames, unmasked server
// frames, no extensions).  It starts Chromium with --remote-debugging-port=0,
// reads the port from Chromium's "DevTools listening on" line, opens the
// SVG, and prints, one fact a line, tab-separated:
//   error MESSAGE          every script error, console error or error log, and
//                          an XML parser error (the file is not well-formed)
//   frames N               frames the page's script set up (init ran)
//   screenshot W H COLOURS NONBG   the PNG's size, distinct colours, pixels
//                          that differ from the top-left one (decoded here)
//   after I HIDE PARENT X WIDTH    every frame after a click on frame I
//   details TEXT           the details line after the pointer moved onto
//                          frame I (its title, and its <desc> if any)
//   unzoom VISIBLE         is "Reset Zoom" shown
//   search SHARE           what search(TERM) returned (in the zoom)
//   reset I HIDE PARENT X WIDTH    every frame after a click on "Reset Zoom"
// and exits 0, or 2 after "error" when the browser cannot be driven.
'use strict';
const { spawn } = require('child_process');
const crypto = require('crypto');
const fs = require('fs');
const http = require('http');
const path = require('path');
const zlib = require('zlib');

const [svgPath, outDir, clickArg, term] = process.argv.slice(2);
const chromium = process.env.CHROMIUM || 'chromium';
let child = null;

function out(...fields) {
  console.log(fields.join('\t'));
}

function quit(code) {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  process.exit(code);
}

function getJSON(url) {
  return new Promise((resolve, reject) => {
    http.get(url, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => {
        try {
          resolve(JSON.parse(body));
        } catch (e) {
          reject(e);
        }
      });
    }).on('error', reject);
  });
}

// A WebSocket connection carrying the DevTools protocol's JSON messages.
class Conn {
  constructor(socket, head) {
    this.socket = socket;
    this.buf = head && head.length ? Buffer.from(head) : Buffer.alloc(0);
    this.frags = [];
    this.id = 0;
    this.pending = new Map();
    this.events = [];
    this.waiters = [];
    socket.on('data', (d) => {
      this.buf = Buffer.concat([this.buf, d]);
      this.parse();
    });
  }

  parse() {
    for (;;) {
      const b = this.buf;
      if (b.length < 2) return;
      const fin = (b[0] & 0x80) !== 0;
      const op = b[0] & 0x0f;
      let len = b[1] & 0x7f;
      let off = 2;
      if (len === 126) {
        if (b.length < 4) return;
        len = b.readUInt16BE(2);
        off = 4;
      } else if (len === 127) {
        if (b.length < 10) return;
        len = Number(b.readBigUInt64BE(2));
        off = 10;
      }
      if (b[1] & 0x80) off += 4; // a server never masks; skip a key anyway
      if (b.length < off + len) return;
      const payload = b.subarray(off, off + len);
      this.buf = b.subarray(off + len);
      if (op === 8) {
        this.socket.end();
        return;
      }
      if (op === 9) {
        this.send(payload, 10);
        continue;
      }
      if (op === 0 || op === 1) {
        this.frags.push(payload);
        if (fin) {
          const text = Buffer.concat(this.frags).toString('utf8');
          this.frags = [];
          this.message(JSON.parse(text));
        }
      }
    }
  }

  send(data, op = 1) {
    const payload = Buffer.isBuffer(data) ? data : Buffer.from(data, 'utf8');
    let header;
    if (payload.length < 126) {
      header = Buffer.from([0x80 | op, 0x80 | payload.length]);
    } else if (payload.length < 65536) {
      header = Buffer.alloc(4);
      header[0] = 0x80 | op;
      header[1] = 0x80 | 126;
      header.writeUInt16BE(payload.length, 2);
    } else {
      header = Buffer.alloc(10);
      header[0] = 0x80 | op;
      header[1] = 0x80 | 127;
      header.writeBigUInt64BE(BigInt(payload.length), 2);
    }
    const mask = crypto.randomBytes(4);
    const masked = Buffer.alloc(payload.length);
    for (let i = 0; i < payload.length; i++) masked[i] = payload[i] ^ mask[i & 3];
    this.socket.write(Buffer.concat([header, mask, masked]));
  }

  message(m) {
    if (m.id !== undefined && this.pending.has(m.id)) {
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.error) p.reject(new Error(m.error.message));
      else p.resolve(m.result);
      return;
    }
    if (!m.method) return;
    this.events.push(m);
    this.waiters = this.waiters.filter((w) => {
      if (w.method !== m.method) return true;
      w.resolve(m);
      return false;
    });
  }

  call(method, params = {}) {
    const id = ++this.id;
    this.send(JSON.stringify({ id, method, params }));
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  waitFor(method, ms) {
    return new Promise((resolve, reject) => {
      this.waiters.push({ method, resolve });
      setTimeout(() => reject(new Error(`no ${method} after ${ms} ms`)), ms);
    });
  }
}

function connect(url) {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = http.request({
      host: u.hostname,
      port: u.port,
      path: u.pathname,
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Key': crypto.randomBytes(16).toString('base64'),
        'Sec-WebSocket-Version': '13',
      },
    });
    req.on('upgrade', (res, socket, head) => resolve(new Conn(socket, head)));
    req.on('response', (res) => reject(new Error(`no upgrade: HTTP ${res.statusCode}`)));
    req.on('error', reject);
    req.end();
  });
}

// Decode an 8-bit RGB or RGBA, non-interlaced PNG (what Chromium writes):
// its size, distinct colours, and pixels unlike the top-left one.
function pngStats(buf) {
  let off = 8;
  let w = 0, h = 0, depth = 0, ctype = 0, interlace = 0;
  const idat = [];
  while (off + 8 <= buf.length) {
    const len = buf.readUInt32BE(off);
    const type = buf.toString('ascii', off + 4, off + 8);
    const data = buf.subarray(off + 8, off + 8 + len);
    if (type === 'IHDR') {
      w = data.readUInt32BE(0);
      h = data.readUInt32BE(4);
      depth = data[8];
      ctype = data[9];
      interlace = data[12];
    } else if (type === 'IDAT') {
      idat.push(data);
    } else if (type === 'IEND') {
      break;
    }
    off += 12 + len;
  }
  if (depth !== 8 || (ctype !== 2 && ctype !== 6) || interlace)
    throw new Error(`PNG of a kind not decoded here (depth ${depth}, colour type ${ctype})`);
  const bpp = ctype === 6 ? 4 : 3;
  const stride = w * bpp;
  const raw = zlib.inflateSync(Buffer.concat(idat));
  let prev = Buffer.alloc(stride);
  const colours = new Set();
  let bg = -1, nonbg = 0;
  for (let y = 0; y < h; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const cur = Buffer.alloc(stride);
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? cur[i - bpp] : 0;
      const b = prev[i];
      const c = i >= bpp ? prev[i - bpp] : 0;
      let v = line[i];
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      cur[i] = v & 0xff;
    }
    for (let x = 0; x < w; x++) {
      const rgb = (cur[x * bpp] << 16) | (cur[x * bpp + 1] << 8) | cur[x * bpp + 2];
      if (bg < 0) bg = rgb;
      if (rgb !== bg) nonbg++;
      colours.add(rgb);
    }
    prev = cur;
  }
  return { w, h, colours: colours.size, nonbg };
}

const FRAMES = 'Array.from(document.getElementById("frames").children)';
const GEOMETRY = `${FRAMES}.map(function (g, i) {
  var r = g.querySelector("rect");
  return [i, g.classList.contains("hide") ? 1 : 0, g.classList.contains("parent") ? 1 : 0,
          r.getAttribute("x"), r.getAttribute("width")].join("\\t");
}).join("\\n")`;

async function main() {
  const profile = path.join(outDir, 'chromium-profile');
  child = spawn(chromium, ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
    '--no-default-browser-check', `--user-data-dir=${profile}`, '--remote-debugging-port=0',
    '--window-size=1200,900', 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const browserUrl = await new Promise((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
      const m = err.match(/DevTools listening on (ws:\/\/\S+)/);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`chromium exited (${code}): ${err.slice(-500)}`)));
    setTimeout(() => reject(new Error('chromium gave no DevTools port in 60 s')), 60000);
  });
  const port = new URL(browserUrl).port;
  const targets = await getJSON(`http://127.0.0.1:${port}/json/list`);
  const page = targets.find((t) => t.type === 'page');
  if (!page) throw new Error('no page target');
  const c = await connect(page.webSocketDebuggerUrl);
  await c.call('Runtime.enable');
  await c.call('Log.enable');
  await c.call('Page.enable');
  const evaluate = async (expression) => {
    const r = await c.call('Runtime.evaluate', { expression, returnByValue: true });
    if (r.exceptionDetails) {
      const d = r.exceptionDetails;
      out('error', `evaluate ${expression.slice(0, 60)}: ${(d.exception && d.exception.description) || d.text}`);
      return null;
    }
    return r.result.value;
  };

  // the page, as tall as the picture, so that every frame can be clicked
  const svgText = fs.readFileSync(svgPath, 'utf8');
  const hm = svgText.match(/<svg[^>]* height="(\d+)"/);
  const height = Math.min(hm ? +hm[1] : 900, 8000);
  await c.call('Emulation.setDeviceMetricsOverride',
    { width: 1200, height, deviceScaleFactor: 1, mobile: false });
  const loaded = c.waitFor('Page.loadEventFired', 60000);
  await c.call('Page.navigate', { url: 'file://' + path.resolve(svgPath) });
  await loaded;

  // a file that is not well-formed XML shows Chromium's parser error
  const perr = await evaluate('document.getElementsByTagName("parsererror").length');
  if (perr) out('error', 'not well-formed: ' + await evaluate(
    'document.getElementsByTagName("parsererror")[0].textContent'));
  out('frames', await evaluate('frames.length'));
  const shot = await c.call('Page.captureScreenshot', { format: 'png' });
  const png = Buffer.from(shot.data, 'base64');
  fs.writeFileSync(path.join(outDir, 'screenshot.png'), png);
  const s = pngStats(png);
  out('screenshot', s.w, s.h, s.colours, s.nonbg);

  // a real click (mouse events at the frame's centre, as a user's)
  const click = async (expr) => {
    const at = await evaluate(`(function () { var r = ${expr}.getBoundingClientRect();
      return [r.x + r.width / 2, r.y + r.height / 2]; })()`);
    if (!at) return;
    for (const type of ['mouseMoved', 'mousePressed', 'mouseReleased'])
      await c.call('Input.dispatchMouseEvent',
        { type, x: at[0], y: at[1], button: 'left', clickCount: type === 'mouseMoved' ? 0 : 1 });
  };
  const idx = Number(clickArg);
  if (idx >= 0) {
    await click(`document.getElementById("frames").children[${idx}].querySelector("rect")`);
    for (const line of String(await evaluate(GEOMETRY)).split('\n')) out('after', line);
    out('details', await evaluate('document.getElementById("details").textContent'));
    out('unzoom', await evaluate('document.getElementById("unzoom").classList.contains("hide") ? 0 : 1'));
    if (term !== undefined) out('search', await evaluate(`search(${JSON.stringify(term)})`));
    await click('document.getElementById("unzoom")');
    for (const line of String(await evaluate(GEOMETRY)).split('\n')) out('reset', line);
  }

  for (const e of c.events) {
    if (e.method === 'Runtime.exceptionThrown') {
      const d = e.params.exceptionDetails;
      out('error', 'exception: ' + ((d.exception && d.exception.description) || d.text));
    } else if (e.method === 'Runtime.consoleAPICalled' && e.params.type === 'error') {
      out('error', 'console: ' + e.params.args.map((a) => a.value || a.description).join(' '));
    } else if (e.method === 'Log.entryAdded' && e.params.entry.level === 'error') {
      out('error', 'log: ' + e.params.entry.text);
    }
  }
  quit(0);
}

main().catch((e) => {
  out('error', String(e && e.message ? e.message : e));
  quit(2);
});
