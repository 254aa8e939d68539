// Browser tests of tl-draw's interactive HTML, in Debian's Chromium driven by
// playwright-core (both installed by `cargo xtask setup`; `cargo xtask test` runs this).
//
//   node web/browser-test.mjs TL_DRAW FIXTURES OUT [--update]
//
// For each case it writes the page with the tl-draw program and checks, in the browser:
// the file loads with no network request and no console error; the drawing shown is the
// static SVG's (same node ids); the slider shows each schedule stop with that stop's node
// count (as `tl-draw schedule` prints it); clicking a box opens it into its frame and
// clicking the frame closes it; search finds operations and centres the first; hovering a
// node or an arrow shows its recorded fields; the edit cone toggles. A screenshot of each
// state is written to OUT and compared structurally with its reviewed signature in
// web/golden (a coarse grid of where the ink is, with a tolerance; `--update` rewrites
// them). Prints how long each action of the GPT-2 small walk-through took;
// TL_BROWSER_DEBUG=1 also prints the pages' console and what each click lands on.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const [tlDraw, fixtures, out] = process.argv.slice(2);
const update = process.argv.includes('--update');
const here = path.dirname(fileURLToPath(import.meta.url));
const modules = process.env.TL_WEB_MODULES || path.join(process.env.HOME, '.cache/tl-draw/web');
const { chromium } = createRequire(path.join(modules, 'package.json'))('playwright-core');
const goldens = path.join(here, 'golden');
fs.mkdirSync(out, { recursive: true });

const cases = [
  // GPT-2 small as transformers builds it by default attends with one fused
  // scaled_dot_product_attention op (no softmax op is recorded): search for it.
  { name: 'gpt2_small', trace: 'real/gpt2_small.json', args: [], explore: true, search: 'attention', timed: true },
  { name: 'convnet', trace: 'convnet.json', args: [], explore: true, search: 'conv2d' },
  { name: 'rolled', trace: 'real/lstm_gru.json', args: ['--rolled'], explore: true, rolled: true, search: 'lstm' },
  { name: 'backward', trace: 'backward.json', args: ['--graph', 'backward'], search: 'addmm' },
  { name: 'combined', trace: 'backward.json', args: ['--graph', 'combined'], search: 'relu' },
  { name: 'edited', trace: 'edited.json', args: ['--show-cone'], cone: true, search: 'relu' },
  { name: 'bundle_diff', trace: 'bundle.json', args: ['--graph', 'diff'], search: 'relu' },
  { name: 'view_speed', trace: 'convnet.json', args: ['--view', 'speed'], search: 'relu' },
];

let failures = 0;
function check(ok, what) {
  if (!ok) {
    failures += 1;
    console.error(`  FAIL ${what}`);
  }
}

function draw(trace, args, output) {
  execFileSync(tlDraw, ['draw', path.join(fixtures, trace), ...args, '-o', output], { stdio: ['ignore', 'ignore', 'inherit'] });
}

// Node ids of a static SVG, as Graphviz titles them.
function svgNodeIds(file) {
  const text = fs.readFileSync(file, 'utf8');
  const ids = [];
  const pattern = /class="node">\n<title>([^<]*)<\/title>/g;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) ids.push(unescapeXml(m[1]));
  return ids.sort();
}
function unescapeXml(s) {
  return s.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))
    .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
}

// Nodes of the static DOT drawn with `args` (the key not counted).
function dotNodeCount(trace, args) {
  const file = path.join(out, 'count.dot');
  draw(trace, args, file);
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*"[^"]*" \[/gm)].filter((m) => !m[0].includes('"tl_legend"')).length;
}

function scheduleCounts(trace) {
  const text = execFileSync(tlDraw, ['schedule', path.join(fixtures, trace)], { encoding: 'utf8' });
  return [...text.matchAll(/^t=([0-9.]+)\s+(\d+) nodes/gm)].map((m) => ({ level: Number(m[1]), nodes: Number(m[2]) }));
}

// A screenshot's structure: the share of ink (pixels unlike the page) in each cell of a
// 24 x 16 grid, measured in a blank page.
async function signature(browser, png) {
  const page = await browser.newPage();
  const grid = await page.evaluate(async (b64) => {
    const image = new Image();
    image.src = `data:image/png;base64,${b64}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0);
    const { data } = context.getImageData(0, 0, image.width, image.height);
    const cols = 24;
    const rows = 16;
    const ink = new Array(cols * rows).fill(0);
    const count = new Array(cols * rows).fill(0);
    for (let y = 0; y < image.height; y += 2) {
      for (let x = 0; x < image.width; x += 2) {
        const i = (y * image.width + x) * 4;
        const cell = Math.floor((y * rows) / image.height) * cols + Math.floor((x * cols) / image.width);
        count[cell] += 1;
        if (data[i] + data[i + 1] + data[i + 2] < 3 * 235) ink[cell] += 1;
      }
    }
    return ink.map((n, i) => Math.round((1000 * n) / count[i]) / 1000);
  }, png.toString('base64'));
  await page.close();
  return grid;
}

async function compareShot(browser, page, name) {
  const png = await page.screenshot({ path: path.join(out, `${name}.png`) });
  const grid = await signature(browser, png);
  const inked = grid.filter((v) => v > 0.01).length;
  check(inked >= 4, `${name}: the screenshot shows a drawing (${inked} inked cells)`);
  const file = path.join(goldens, `${name}.json`);
  if (update || !fs.existsSync(file)) {
    fs.mkdirSync(goldens, { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify(grid)}\n`);
    if (!update) check(false, `${name}: no reviewed signature yet; wrote ${file} (review ${name}.png, rerun)`);
    return;
  }
  const golden = JSON.parse(fs.readFileSync(file, 'utf8'));
  const diffs = grid.map((v, i) => Math.abs(v - golden[i]));
  const worst = Math.max(...diffs);
  const mean = diffs.reduce((a, b) => a + b, 0) / diffs.length;
  check(worst <= 0.2 && mean <= 0.02, `${name}: screenshot structure matches ${file} (worst cell ${worst.toFixed(3)}, mean ${mean.toFixed(4)})`);
}

const state = (page) => page.evaluate(() => ({
  state: Number(document.body.dataset.state),
  count: Number(document.body.dataset.count),
  nodes: document.querySelectorAll('#tl-canvas g.node').length,
  ids: [...document.querySelectorAll('#tl-canvas g.node')].map((g) => g.dataset.id).sort(),
}));

async function waitState(page, previous) {
  await page.waitForFunction((p) => document.body.dataset.state !== String(p), previous, { timeout: 10000 });
  return state(page);
}

// With TL_BROWSER_DEBUG set: what is under a point about to be clicked.
async function debug(page, what, point) {
  if (!process.env.TL_BROWSER_DEBUG) return;
  const under = await page.evaluate((p) => {
    const e = document.elementFromPoint(p.x, p.y);
    const g = e && e.closest('g');
    return [e && e.tagName, g && g.dataset.id, g && g.getAttribute('class')];
  }, point);
  console.log(`   ${what}`, point, under);
}

async function timed(label, action, log) {
  const start = Date.now();
  const result = await action();
  log.push(`${label}: ${Date.now() - start} ms`);
  return result;
}

// Clicks a box that opens, then the frame it opened into; returns to the first state.
async function openAndClose(page, name, browser, log) {
  const before = await state(page);
  const box = await page.evaluate(() => {
    const g = document.querySelector('#tl-canvas g.node.tl-openable');
    if (!g) return null;
    const r = g.getBoundingClientRect();
    return { id: g.dataset.id, x: r.left + r.width / 2, y: r.top + r.height / 2 };
  });
  check(box !== null, `${name}: some box can be opened`);
  if (!box) return;
  const opened = await timed(`open ${box.id}`, async () => {
    await debug(page, 'clicking', box);
    await page.mouse.click(box.x, box.y);
    return waitState(page, before.state);
  }, log);
  check(!opened.ids.includes(box.id), `${name}: the opened box ${box.id} is no longer drawn as a node`);
  const place = await page.evaluate((wasAt) => {
    const frames = [...document.querySelectorAll('#tl-canvas g.cluster.tl-closable')];
    // The frame the box opened into: the one whose middle is where the box was.
    let best = null;
    for (const g of frames) {
      const r = g.getBoundingClientRect();
      const d = Math.hypot(r.left + r.width / 2 - wasAt.x, r.top + r.height / 2 - wasAt.y);
      if (!best || d < best.d) best = { d, g, r };
    }
    if (!best) return null;
    // A point of the frame on the screen that no node covers.
    const v = document.getElementById('tl-view').getBoundingClientRect();
    const { r } = best;
    for (let fy = 0.01; fy < 1; fy += 0.07) {
      for (let fx = 0.01; fx < 1; fx += 0.07) {
        // Whole pixels: the browser reports the click's position rounded.
        const x = Math.round(r.left + fx * r.width);
        const y = Math.round(r.top + fy * r.height);
        if (x < v.left + 2 || x > v.right - 2 || y < v.top + 2 || y > v.bottom - 2) continue;
        const at = document.elementFromPoint(x, y);
        if (at && !at.closest('g.node') && at.closest('g.cluster') === best.g) return { d: best.d, x, y };
      }
    }
    return { d: best.d, x: null, y: null };
  }, box);
  check(place !== null && place.d < 2, `${name}: the box opened into a frame where it was (${place && place.d.toFixed(1)} px away)`);
  await compareShot(browser, page, `${name}.opened`);
  check(place !== null && place.x !== null, `${name}: some part of the frame is on the screen to click`);
  if (!place || place.x === null) return;
  await debug(page, 'closing at', place);
  const closed = await timed('close the frame', async () => {
    await page.mouse.click(place.x, place.y);
    return waitState(page, opened.state);
  }, log);
  check(closed.state === before.state, `${name}: closing the frame returns to the drawing before (${closed.state} vs ${before.state})`);
  check(closed.ids.includes(box.id), `${name}: the box is drawn again`);
}

async function run(browser, test) {
  const html = path.join(out, `${test.name}.html`);
  const svg = path.join(out, `${test.name}.svg`);
  draw(test.trace, test.args, html);
  const opensAtAuto = test.explore && !test.args.includes('--collapse');
  draw(test.trace, opensAtAuto ? [...test.args, '--collapse', 'auto'] : test.args, svg);
  const log = [];
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  const requests = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  if (process.env.TL_BROWSER_DEBUG) page.on('console', (m) => console.log('   page:', m.text()));
  page.on('request', (r) => requests.push(r.url()));
  const url = `file://${path.resolve(html)}`;
  await timed('load', async () => {
    await page.goto(url);
    await page.waitForSelector('body[data-ready="1"]', { timeout: 30000 });
  }, log);
  const first = await state(page);
  check(JSON.stringify(first.ids) === JSON.stringify(svgNodeIds(svg)), `${test.name}: the page opens on the static drawing (${first.ids.length} nodes vs ${svgNodeIds(svg).length})`);
  await compareShot(browser, page, test.name);

  if (test.explore) {
    // A rolled drawing draws fewer nodes than the schedule counts: ask the static drawing.
    const stops = scheduleCounts(test.trace).map((stop) => (test.rolled
      ? { ...stop, nodes: dotNodeCount(test.trace, [...test.args, '--collapse', String(stop.level)]) }
      : stop));
    const slider = await page.$('#tl-slider');
    check(stops.length >= 1, `${test.name}: the schedule has stops`);
    for (let i = 0; i < stops.length; i += 1) {
      const before = await state(page);
      await timed(`slide to level ${stops[i].level}`, async () => {
        await slider.evaluate((s, v) => { s.value = String(v); s.dispatchEvent(new Event('input')); }, i);
        await page.waitForFunction((n) => document.body.dataset.count === String(n) && document.querySelector('#tl-canvas svg'), stops[i].nodes, { timeout: 10000 }).catch(() => {});
      }, log);
      const now = await state(page);
      check(now.count === stops[i].nodes, `${test.name}: stop ${i} (level ${stops[i].level}) shows ${stops[i].nodes} nodes (shows ${now.count})`);
      check(now.nodes >= now.count && now.nodes <= now.count + 1, `${test.name}: stop ${i} draws its nodes (${now.nodes} drawn for ${now.count})`);
      if (!test.rolled && now.state === before.state && i > 0) check(false, `${test.name}: stop ${i} changes the drawing`);
      await compareShot(browser, page, `${test.name}.stop${i}`);
    }
    // Back to where it opened (or, when that draws every operation, to the most folded
    // stop), then open and close a box.
    const auto = await page.evaluate(() => {
      const stops = window.tlDraw.data.stops;
      const at = stops.findIndex((s) => s.auto);
      return stops[at].level > 0 ? at : stops.length - 1;
    });
    await slider.evaluate((s, v) => { s.value = String(v); s.dispatchEvent(new Event('input')); }, auto);
    await page.waitForFunction((v) => document.body.dataset.state === String(window.tlDraw.data.stops[v].state), auto);
    await openAndClose(page, test.name, browser, log);
  }

  if (test.timed) {
    // The walk-through of the issue: full detail and back, open one block, search, read.
    const full = 0;
    await slideTo(page, full, log, "to full detail");
    await slideTo(page, await page.evaluate(() => window.tlDraw.data.stops.findIndex((s) => s.auto)), log, 'back to auto');
    // gpt2, its transformer, the run of blocks, then one block.
    for (let depth = 0; depth < 4; depth += 1) {
      const before = await state(page);
      const target = await page.evaluate(() => {
        const open = [...document.querySelectorAll('#tl-canvas g.node.tl-openable')];
        const g = open.find((n) => n.dataset.id.includes('.h.0:')) || open[0];
        if (!g) return null;
        const r = g.getBoundingClientRect();
        return { id: g.dataset.id, x: r.left + r.width / 2, y: r.top + r.height / 2 };
      });
      if (!target) break;
      await timed(`open ${target.id}`, async () => {
        await page.mouse.click(target.x, target.y);
        await waitState(page, before.state);
      }, log);
    }
    await compareShot(browser, page, `${test.name}.block`);
  }

  // Search: matches highlighted, the first centred.
  await timed(`search ${test.search}`, async () => {
    await page.fill('#tl-search', test.search);
    await page.press('#tl-search', 'Enter');
    await page.waitForFunction(() => document.body.dataset.hit === '0', null, { timeout: 10000 }).catch(() => {});
  }, log);
  const found = await page.evaluate(() => {
    const current = document.querySelector('#tl-canvas .tl-current');
    const v = document.getElementById('tl-view').getBoundingClientRect();
    const r = current && current.getBoundingClientRect();
    return {
      matches: document.querySelectorAll('#tl-canvas .tl-match').length,
      text: document.getElementById('tl-found').textContent,
      off: r ? Math.hypot(r.left + r.width / 2 - (v.left + v.width / 2), r.top + r.height / 2 - (v.top + v.height / 2)) : null,
    };
  });
  check(found.matches > 0, `${test.name}: search '${test.search}' finds something (${found.text})`);
  check(found.off !== null && found.off < 3, `${test.name}: the first match is centred (${found.off} px off)`);
  await compareShot(browser, page, `${test.name}.search`);

  // Fields of a node and of an arrow.
  const fields = await timed('read a node\'s fields', async () => {
    const g = await page.$('#tl-canvas .tl-current');
    if (g) await g.hover({ force: true });
    return page.textContent('#tl-fields');
  }, log);
  check(fields.length > 20, `${test.name}: hovering a node shows its fields`);
  if (test.explore) check(/layer_type|class_name/.test(fields), `${test.name}: the fields are the recorded ones (${fields.slice(0, 80)})`);
  const edgeText = await page.evaluate(() => {
    const area = document.querySelector('#tl-canvas g.edge .tl-hit-area');
    if (!area) return null;
    area.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
    return document.getElementById('tl-fields').textContent;
  });
  if (test.explore) check(edgeText !== null && /shape/.test(edgeText) && /argument/.test(edgeText), `${test.name}: an arrow shows its tensor's shape and argument`);

  if (test.cone) {
    const shown = () => page.evaluate(() => {
      const cone = document.querySelector('#tl-canvas g.tl-cone');
      return cone ? getComputedStyle(cone).display !== 'none' : null;
    });
    check(await shown() === true, `${test.name}: the cone is shown as asked`);
    await page.click('#tl-cone');
    check(await shown() === false, `${test.name}: the cone toggles off`);
  }

  const outside = requests.filter((r) => r !== url);
  check(outside.length === 0, `${test.name}: no request but the file itself (${outside.slice(0, 3).join(', ')})`);
  check(errors.length === 0, `${test.name}: no console error (${errors.slice(0, 3).join(' | ')})`);
  await page.close();
  console.log(`${test.name}: ${log.join('; ')}`);
}

async function slideTo(page, value, log, label) {
  const before = await state(page);
  await timed(`slide ${label}`, async () => {
    await page.$eval('#tl-slider', (s, v) => { s.value = String(v); s.dispatchEvent(new Event('input')); }, value);
    await waitState(page, before.state);
  }, log);
}

const browser = await chromium.launch({ executablePath: process.env.TL_CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  for (const test of cases) await run(browser, test);
} finally {
  await browser.close();
}
if (failures) {
  console.error(`${failures} browser check(s) failed`);
  process.exit(1);
}
console.log('browser tests passed');
