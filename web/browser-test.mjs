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
// node or an arrow shows its recorded fields; the edit cone toggles; each stop of a 4-layer
// Llama opens with its input in view. Pages of ConvNet whose class and module carry hostile
// names (template syntax, `<!--<script>`, entities, a backslash, a reversing control)
// start, and every node, search and box works. A screenshot of each
// state is written to OUT and compared structurally with its reviewed signature in
// web/golden (a coarse grid of where the ink is, with a tolerance; `--update` rewrites
// them). Prints how long each action of the GPT-2 small walk-through took;
// TL_BROWSER_DEBUG=1 also prints the pages' console and what each click lands on.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { checks, goldenShots, launchChromium } from './shots.mjs';

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
  // GPT-2 small at full detail: 73,000 px tall, opened at a readable scale with the overview.
  { name: 'gpt2_full', trace: 'real/gpt2_small.json', args: ['--collapse', 'none'], navigate: true, search: 'attention' },
  { name: 'convnet', trace: 'convnet.json', args: [], explore: true, navigate: true, search: 'conv2d' },
  { name: 'rolled', trace: 'real/lstm_gru.json', args: ['--rolled'], explore: true, rolled: true, search: 'lstm' },
  // An LSTMCell stepped 64 times: auto draws its first call and the later steps as one node,
  // which opens into one box per call.
  { name: 'cell_loop', trace: 'real/lstmcell_64.json', args: [], explore: true, loop: true, search: 'getitem' },
  // A 4-layer Llama: the layout ranks the rotary embedding's operations (no input of their
  // own) below the input ids, far from the drawing's start edge at some stops.
  { name: 'llama_4', trace: 'real/llama_4.json', args: ['--collapse', 'auto'], starts: true, search: 'rotary' },
  { name: 'backward', trace: 'backward.json', args: ['--graph', 'backward'], search: 'addmm' },
  { name: 'combined', trace: 'backward.json', args: ['--graph', 'combined'], search: 'relu' },
  { name: 'edited', trace: 'edited.json', args: ['--show-cone'], cone: true, search: 'relu' },
  { name: 'bundle_diff', trace: 'bundle.json', args: ['--graph', 'diff'], search: 'relu' },
  { name: 'view_speed', trace: 'convnet.json', args: ['--view', 'speed'], search: 'relu' },
];

const { check, failures } = checks();
const compareShot = goldenShots({ out, goldens, update, check });

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
// Screenshots independent of where the pointer last passed: the pointer rests in an empty
// corner of the view and the fields panel is cleared (Escape), as after a reader looks away.
async function rest(page) {
  const v = await page.evaluate(() => {
    const r = document.getElementById('tl-view').getBoundingClientRect();
    return { x: r.left + 3, y: r.bottom - 3 };
  });
  await page.mouse.move(v.x, v.y);
  await page.keyboard.press('Escape');
}

// Clicks the node of a loop's later steps: it opens into every step drawn; the slider's
// stop brings the folded drawing back.
async function openLoop(page, name, browser, log) {
  const before = await state(page);
  await page.keyboard.press('0');
  const node = await page.evaluate(() => {
    const g = [...document.querySelectorAll('#tl-canvas g.node.tl-openable')].find((n) => n.dataset.id.startsWith('loop:'));
    if (!g) return null;
    const r = g.getBoundingClientRect();
    return { id: g.dataset.id, x: r.left + r.width / 2, y: r.top + r.height / 2 };
  });
  check(node !== null, `${name}: the loop's later steps are one node that opens`);
  if (!node) return;
  const opened = await timed(`open ${node.id}`, async () => {
    await page.mouse.click(node.x, node.y);
    return waitState(page, before.state);
  }, log);
  const calls = opened.ids.filter((id) => id.startsWith('box:cell:')).length;
  check(!opened.ids.includes(node.id) && calls === 64, `${name}: opening the loop draws each of its 64 calls (${calls} boxes)`);
  await rest(page);
  await compareShot(browser, page, `${name}.opened`);
  const auto = await page.evaluate(() => window.tlDraw.data.stops.findIndex((s) => s.auto));
  await slideTo(page, auto, log, 'back to auto');
  const back = await state(page);
  check(back.state === before.state && back.ids.includes(node.id), `${name}: the slider folds the loop again`);
}

async function openAndClose(page, name, browser, log) {
  const before = await state(page);
  // As a reader would: the whole drawing first, to see what to open.
  await page.keyboard.press('0');
  const box = await page.evaluate(() => {
    // A module box (it opens into a frame); else any box that opens.
    const open = [...document.querySelectorAll('#tl-canvas g.node.tl-openable')];
    const g = open.find((n) => n.dataset.id.startsWith('box:')) || open[0];
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
  const inView = await page.evaluate((wasAt) => {
    const v = document.getElementById('tl-view').getBoundingClientRect();
    let best = null;
    for (const g of document.querySelectorAll('#tl-canvas g.cluster.tl-closable')) {
      const r = g.getBoundingClientRect();
      const d = Math.hypot(r.left + r.width / 2 - wasAt.x, r.top + r.height / 2 - wasAt.y);
      if (!best || d < best.d) best = { d, r };
    }
    if (!best) return false;
    const { r } = best;
    const whole = r.left >= v.left - 2 && r.right <= v.right + 2 && r.top >= v.top - 2 && r.bottom <= v.bottom + 2;
    // One too large to be read whole fills the view across (or along), centred.
    const fills = (r.left <= v.left + 2 && r.right >= v.right - 2) || (r.top <= v.top + 2 && r.bottom >= v.bottom - 2);
    const centred = Math.abs(r.left + r.width / 2 - (v.left + v.width / 2)) < 3 && Math.abs(r.top + r.height / 2 - (v.top + v.height / 2)) < 3;
    return whole || (fills && centred);
  }, box);
  check(inView, `${name}: the opened frame is on the screen whole, or fills the view`);
  // Where the box was, unless it had to move to be seen whole.
  check(place !== null && (place.d < 2 || inView), `${name}: the box opened into a frame where it was (${place && place.d.toFixed(1)} px away)`);
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
  if (test.navigate) {
    await navigation(page, test.name, browser);
    await page.keyboard.press('0');
  }

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
    await (test.loop ? openLoop : openAndClose)(page, test.name, browser, log);
  }

  if (test.starts) await inputsInView(page, test.name, browser);

  if (test.timed) {
    // The walk-through of the issue: full detail and back, open one block, search, read.
    const full = 0;
    await slideTo(page, full, log, "to full detail");
    await slideTo(page, await page.evaluate(() => window.tlDraw.data.stops.findIndex((s) => s.auto)), log, 'back to auto');
    // From auto: the run of blocks, then block 0 (or, from a drawing of the model's box,
    // gpt2 and its transformer first).
    for (let depth = 0; depth < 4; depth += 1) {
      const before = await state(page);
      await page.keyboard.press('0');
      const target = await page.evaluate(() => {
        const open = [...document.querySelectorAll('#tl-canvas g.node.tl-openable')];
        // Block 0's box, else the capsule holding it, else the model's boxes.
        const g = open.find((n) => n.dataset.id.includes('.h.0:'))
          || open.find((n) => n.dataset.id.startsWith('segment:') && n.dataset.id.includes('transformer.h.0'))
          || open.find((n) => n.dataset.id.startsWith('box:'));
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
    await rest(page);
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

// Where the view is and how it is scaled, and the view's box on the screen.
const camera = (page) => page.evaluate(() => {
  const v = document.getElementById('tl-view').getBoundingClientRect();
  return { ...window.tlDraw.camera, view: { left: v.left, top: v.top, width: v.width, height: v.height } };
});

// The screen middle of the drawn node `id`.
const nodeAt = (page, id) => page.evaluate((id) => {
  const g = [...document.querySelectorAll('#tl-canvas g.node')].find((n) => n.dataset.id === id);
  if (!g) return null;
  const r = g.getBoundingClientRect();
  return { id, x: r.left + r.width / 2, y: r.top + r.height / 2 };
}, id);

// The node drawn nearest to the view point (fx, fy) (fractions of the view), off the overview.
const nodeNear = (page, fx, fy) => page.evaluate(([fx, fy]) => {
  const v = document.getElementById('tl-view').getBoundingClientRect();
  const map = document.getElementById('tl-minimap');
  const m = map.hidden ? null : map.getBoundingClientRect();
  const want = { x: v.left + fx * v.width, y: v.top + fy * v.height };
  let best = null;
  for (const g of document.querySelectorAll('#tl-canvas g.node')) {
    const r = g.getBoundingClientRect();
    const p = { x: r.left + r.width / 2, y: r.top + r.height / 2 };
    if (p.x < v.left + 4 || p.x > v.right - 4 || p.y < v.top + 4 || p.y > v.bottom - 4) continue;
    if (m && p.x >= m.left - 4 && p.x <= m.right + 4 && p.y >= m.top - 4 && p.y <= m.bottom + 4) continue;
    const d = Math.hypot(p.x - want.x, p.y - want.y);
    if (!best || d < best.d) best = { d, id: g.dataset.id, x: p.x, y: p.y };
  }
  return best;
}, [fx, fy]);

// Zoom keeps the point under the cursor (wheel, double-click) or the middle (keys) where it
// is; the opening view is readable or shows the overview; the overview moves the view.
async function navigation(page, name, browser) {
  const opening = await camera(page);
  const minimap = await page.evaluate(() => document.body.dataset.minimap === '1');
  check(opening.s >= 0.5 || minimap, `${name}: the opening view is readable (scale ${opening.s.toFixed(3)}) or shows the overview`);
  for (const [fx, fy] of [[0.2, 0.3], [0.5, 0.5], [0.75, 0.8]]) {
    const near = await nodeNear(page, fx, fy);
    check(near !== null, `${name}: a node is drawn near (${fx}, ${fy}) of the view`);
    if (!near) continue;
    const before = await camera(page);
    await page.mouse.move(near.x, near.y);
    await page.mouse.wheel(0, -120);
    await page.waitForFunction((s) => window.tlDraw.camera.s !== s, before.s, { timeout: 5000 }).catch(() => {});
    const after = await nodeAt(page, near.id);
    const moved = Math.hypot(after.x - near.x, after.y - near.y);
    const zoomed = (await camera(page)).s / before.s;
    check(zoomed > 1.05, `${name}: a wheel step zooms in (x${zoomed.toFixed(3)})`);
    check(moved <= 2, `${name}: a wheel step over ${near.id} keeps it under the cursor (moved ${moved.toFixed(2)} px)`);
  }
  // Keys zoom about the middle of the view.
  for (const key of ['+', '-']) {
    const before = await camera(page);
    const middle = { x: (before.view.width / 2 - before.x) / before.s, y: (before.view.height / 2 - before.y) / before.s };
    await page.mouse.move(before.view.left + 5, before.view.top + 5);
    await page.keyboard.press(key);
    const after = await camera(page);
    const off = Math.hypot(after.x + middle.x * after.s - before.view.width / 2, after.y + middle.y * after.s - before.view.height / 2);
    check(after.s !== before.s && off <= 1, `${name}: '${key}' zooms about the middle (scale ${before.s.toFixed(3)} -> ${after.s.toFixed(3)}, middle moved ${off.toFixed(2)} px)`);
  }
  // Double-click zooms in about the cursor.
  const near = await nodeNear(page, 0.5, 0.5);
  if (near) {
    const before = await camera(page);
    await page.mouse.dblclick(near.x + 1, near.y + 1);
    const after = await camera(page);
    const moved = await nodeAt(page, near.id);
    const off = moved ? Math.hypot(moved.x - near.x, moved.y - near.y) : Infinity;
    check(after.s > before.s * 1.5 && off <= 3, `${name}: double-click zooms in where clicked (x${(after.s / before.s).toFixed(2)}, moved ${off.toFixed(2)} px)`);
  }
  await page.keyboard.press('0');
  await page.keyboard.press('+');
  await page.keyboard.press('+');
  await page.keyboard.press('+');
  // The overview: pressing in it brings that part of the drawing to the middle.
  const map = await page.evaluate(() => {
    const m = document.getElementById('tl-minimap');
    if (m.hidden) return null;
    const r = m.getBoundingClientRect();
    return { left: r.left, top: r.top, width: r.width, height: r.height };
  });
  if (map) {
    await page.mouse.click(map.left + map.width * 0.5, map.top + map.height * 0.25);
    const after = await camera(page);
    const size = await page.evaluate(() => { const svg = document.querySelector('#tl-canvas svg'); return { w: svg.width.baseVal.value, h: svg.height.baseVal.value }; });
    const middle = { x: (after.view.width / 2 - after.x) / after.s, y: (after.view.height / 2 - after.y) / after.s };
    const off = Math.hypot(middle.x / size.w - 0.5, middle.y / size.h - 0.25);
    check(off < 0.03, `${name}: pressing the overview moves the view there (${(off * 100).toFixed(1)}% off)`);
    await compareShot(browser, page, `${name}.overview`);
  }
  await page.keyboard.press('Escape');
}

// Every stop opens with the drawing's first input in view (the opening view is taken at
// the inputs' end: that edge of the drawing may be far from the input itself).
async function inputsInView(page, name, browser) {
  const size = page.viewportSize();
  await page.setViewportSize({ width: 1200, height: 800 });
  const stops = await page.evaluate(() => window.tlDraw.data.stops.length);
  for (let i = 0; i < stops; i += 1) {
    const before = await state(page);
    await page.$eval('#tl-slider', (s, v) => { s.value = String(v); s.dispatchEvent(new Event('input')); }, i);
    await waitState(page, before.state).catch(() => {});
    const seen = await page.evaluate(() => {
      const v = document.getElementById('tl-view').getBoundingClientRect();
      const g = [...document.querySelectorAll('#tl-canvas g.node')].find((n) => /^input_/.test(n.dataset.id || ''));
      if (!g) return null;
      const b = g.getBoundingClientRect();
      const inView = b.left >= v.left && b.right <= v.right && b.top >= v.top && b.bottom <= v.bottom;
      return { id: g.dataset.id, count: document.body.dataset.count, inView, at: [b.left, b.top, b.right, b.bottom].map(Math.round) };
    });
    check(seen !== null, `${name}: stop ${i} draws an input`);
    if (seen) check(seen.inView, `${name}: stop ${i} (${seen.count} nodes) opens with ${seen.id} whole in view (at ${seen.at})`);
    if (i === 1) await compareShot(browser, page, `${name}.stop1`);
  }
  await page.setViewportSize(size);
}

async function slideTo(page, value, log, label) {
  const before = await state(page);
  await timed(`slide ${label}`, async () => {
    await page.$eval('#tl-slider', (s, v) => { s.value = String(v); s.dispatchEvent(new Event('input')); }, value);
    await waitState(page, before.state);
  }, log);
}

// Names a model may hold (an nn.ModuleDict key, a class name) that must stay text: template
// syntax, a comment or script opened or closed, entities, a backslash, a reversing control.
const HOSTILE_NAMES = ['{{data}}', '<!--<script>', '</script><b>', '&lt;b&gt;', '&#60;x&#x3c;', 'a\\b', '\u202eevil', '"q\''];

// The guide's ConvNet with its class and its `features` module named `name`: the page
// starts, every node answers hover with its fields, search finds the module by its name,
// its box opens, and the page is no larger than it should be.
async function hostile(browser, name, index, plainSize) {
  const text = fs.readFileSync(path.join(fixtures, 'convnet.json'), 'utf8');
  const spelled = JSON.stringify(name).slice(1, -1);
  const trace = path.join(out, `hostile${index}.json`);
  fs.writeFileSync(trace, text.replaceAll('"features', `"${spelled}`).replace('"ConvNet"', JSON.stringify(`${name}Net`)));
  const html = path.join(out, `hostile${index}.html`);
  execFileSync(tlDraw, ['draw', trace, '-o', html], { stdio: ['ignore', 'ignore', 'inherit'] });
  const what = `hostile name ${JSON.stringify(name)}`;
  const size = fs.statSync(html).size;
  check(size < plainSize * 1.2, `${what}: the page is ${size} bytes (ConvNet's is ${plainSize})`);
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(`file://${path.resolve(html)}`);
  const ready = await page.waitForSelector('body[data-ready="1"]', { timeout: 15000 }).then(() => true, () => false);
  check(ready, `${what}: the page starts`);
  if (!ready) { await page.close(); return; }
  const dead = await page.evaluate(() => {
    const fields = document.getElementById('tl-fields');
    const silent = [];
    for (const g of document.querySelectorAll('#tl-canvas g.node')) {
      fields.innerHTML = '';
      g.querySelector('text, polygon, ellipse, path').dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
      if (!fields.textContent.trim()) silent.push(g.dataset.id);
    }
    return silent;
  });
  check(dead.length === 0, `${what}: every node shows its fields on hover (silent: ${dead.join(', ')})`);
  await page.fill('#tl-search', name);
  await page.press('#tl-search', 'Enter');
  const matches = await page.evaluate(() => document.querySelectorAll('#tl-canvas .tl-match').length);
  check(matches > 0, `${what}: search finds the module by its name`);
  await page.keyboard.press('Escape');
  // The most folded stop draws the module as a box.
  const folded = await page.evaluate(() => {
    const before = document.body.dataset.state;
    const slider = document.getElementById('tl-slider');
    slider.value = String(window.tlDraw.data.stops.length - 1);
    slider.dispatchEvent(new Event('input'));
    return before;
  });
  await page.waitForFunction((p) => document.body.dataset.state !== p, folded, { timeout: 5000 }).catch(() => {});
  await page.keyboard.press('0');
  const box = await page.evaluate(() => {
    const g = [...document.querySelectorAll('#tl-canvas g.node.tl-openable')].find((n) => n.dataset.id.startsWith('box:'));
    if (!g) return null;
    const r = g.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  });
  check(box !== null, `${what}: the module's box can be opened`);
  if (box) {
    const before = await state(page);
    await page.mouse.click(box.x, box.y);
    const opened = await page.waitForFunction((p) => document.body.dataset.state !== String(p), before.state, { timeout: 5000 }).then(() => true, () => false);
    check(opened, `${what}: clicking the module's box opens it`);
  }
  const title = await page.title();
  check(title.startsWith('tl-draw: ') && !title.includes('tl-data'), `${what}: the title is the name as text (${title.slice(0, 60)})`);
  check(errors.length === 0, `${what}: no console error (${errors.slice(0, 3).join(' | ')})`);
  await page.close();
}

const browser = await launchChromium(chromium);
try {
  for (const test of cases) await run(browser, test);
  const plainSize = fs.statSync(path.join(out, 'convnet.html')).size;
  for (const [i, name] of HOSTILE_NAMES.entries()) await hostile(browser, name, i, plainSize);
} finally {
  await browser.close();
}
if (failures()) {
  console.error(`${failures()} browser check(s) failed`);
  process.exit(1);
}
console.log('browser tests passed');
