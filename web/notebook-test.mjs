// Browser tests of the notebook viewer in a real JupyterLab (from PyPI, in the test
// environment), driven in Debian's Chromium by playwright-core; `cargo xtask test` runs it.
//
//   node web/notebook-test.mjs PYTHON FIXTURES OUT [--update] [--figures DIR]
//
// A notebook draws the guide's ConvNet and GPT-2 small (transformers' default, with its
// cache outputs) at full detail. Executed and saved unsigned, JupyterLab opens it untrusted:
// each output shows its picture, not the text repr. Signed (`jupyter trust`), or run live,
// each output is the interactive viewer inside the cell: a wheel step keeps the node under
// the cursor, search finds block 5's attention, its fields are shown. `jupyter nbconvert
// --to html` of it holds the pictures, and the viewer runs in the exported page. Screenshots
// of each state are compared structurally with their reviewed signatures in web/golden;
// `--figures DIR` also writes the screenshots docs/python.md shows.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { checks, goldenShots, launchChromium } from './shots.mjs';

const [python, fixtures, out] = process.argv.slice(2);
const update = process.argv.includes('--update');
const figuresAt = process.argv.indexOf('--figures');
const figures = figuresAt > 0 ? process.argv[figuresAt + 1] : null;
const here = path.dirname(fileURLToPath(import.meta.url));
const modules = process.env.TL_WEB_MODULES || path.join(process.env.HOME, '.cache/tl-draw/web');
const { chromium } = createRequire(path.join(modules, 'package.json'))('playwright-core');
fs.mkdirSync(out, { recursive: true });
const { check, failures } = checks();
const compareShot = goldenShots({ out, goldens: path.join(here, 'golden'), update, check });

// A private Jupyter: its own configuration, data (the trust database) and runtime folders.
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-draw-notebook-'));
// No news pop-up over the screenshots (JupyterLab would ask to fetch news).
const settings = path.join(work, 'settings', '@jupyterlab', 'apputils-extension');
fs.mkdirSync(settings, { recursive: true });
fs.writeFileSync(path.join(settings, 'notification.jupyterlab-settings'), JSON.stringify({ fetchNews: 'false' }));
const env = {
  ...process.env,
  JUPYTERLAB_SETTINGS_DIR: path.join(work, 'settings'),
  JUPYTER_CONFIG_DIR: path.join(work, 'config'),
  JUPYTER_DATA_DIR: path.join(work, 'data'),
  JUPYTER_RUNTIME_DIR: path.join(work, 'runtime'),
  IPYTHONDIR: path.join(work, 'ipython'),
  JUPYTER_PLATFORM_DIRS: '1',
};
const jupyter = (...args) => execFileSync(python, ['-m', 'jupyter', ...args], { cwd: work, env, stdio: ['ignore', 'ignore', 'inherit'] });

// The notebook, executed by nbclient and saved as it comes out: unsigned.
const cells = [
  'import tl_draw',
  `tl_draw.draw(${JSON.stringify(path.resolve(fixtures, 'convnet.json'))})`,
  `tl_draw.draw(${JSON.stringify(path.resolve(fixtures, 'real/gpt2_small.json'))})`,
];
execFileSync(python, ['-c', `
import json, sys, nbformat, nbclient
notebook = nbformat.v4.new_notebook()
notebook.cells = [nbformat.v4.new_code_cell(source) for source in json.loads(sys.argv[1])]
notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
nbclient.NotebookClient(notebook, timeout=600, kernel_name="python3").execute()
nbformat.write(notebook, sys.argv[2])
`, JSON.stringify(cells), path.join(work, 'untrusted.ipynb')], { cwd: work, env, stdio: ['ignore', 'ignore', 'inherit'] });
// Signatures are of the content: the copies differ by a title, so that signing one does
// not sign the others.
// A drawing of about a second (DenseNet-121's page), run live: its progress bar shows
// meanwhile. The bar is asked for at once: whether the page takes more than the second the
// bar waits by default depends on the machine, which is not what is tested.
fs.writeFileSync(path.join(work, 'progress.ipynb'), JSON.stringify({
  nbformat: 4,
  nbformat_minor: 5,
  metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } },
  cells: [
    'import tl_draw\nimport tl_draw._progress\n\ntl_draw._progress.SHOW_AFTER = 0  # the bar at once, not after a second',
    `tl_draw.draw(${JSON.stringify(path.resolve(fixtures, 'real/densenet121.json'))})`,
  ]
    .map((source, index) => ({ cell_type: 'code', id: `cell${index}`, metadata: {}, source, outputs: [], execution_count: null })),
}));
for (const name of ['trusted', 'live']) {
  const notebook = JSON.parse(fs.readFileSync(path.join(work, 'untrusted.ipynb'), 'utf8'));
  notebook.metadata.title = name;
  // The live copy starts as a user's unrun notebook: its viewers can only come from the run.
  if (name === 'live') for (const cell of notebook.cells) Object.assign(cell, { outputs: [], execution_count: null });
  fs.writeFileSync(path.join(work, `${name}.ipynb`), JSON.stringify(notebook));
}
jupyter('trust', 'trusted.ipynb');
jupyter('nbconvert', '--to', 'html', 'untrusted.ipynb', '--output', 'exported');

const freePort = () => new Promise((resolve) => {
  const server = net.createServer();
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    server.close(() => resolve(port));
  });
});
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const lab = spawn(python, ['-m', 'jupyter', 'lab', '--no-browser', '--allow-root', `--port=${port}`, '--ip=127.0.0.1',
  "--IdentityProvider.token=", '--ServerApp.password=', `--ServerApp.root_dir=${work}`,
  '--LabApp.news_url=', '--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate'], { cwd: work, env, stdio: ['ignore', 'ignore', 'pipe'] });
let labLog = '';
lab.stderr.on('data', (chunk) => { labLog += chunk; });

async function serverUp() {
  for (let tries = 0; tries < 240; tries += 1) {
    try {
      if ((await fetch(`${base}/api/status`)).ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

// Opens `name` in JupyterLab, with a fresh layout.
async function openNotebook(page, name) {
  await page.goto(`${base}/lab/tree/${name}?reset`);
  await page.waitForSelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook', { timeout: 120000 });
}

// The viewers of the open notebook.
const OPEN_VIEWERS = '.jp-NotebookPanel:not(.lm-mod-hidden) iframe.tl-draw-viewer';

// The viewers of the notebook shown, each ready (its drawing on screen).
async function viewers(page, count) {
  await page.waitForFunction(([selector, n]) => document.querySelectorAll(selector).length >= n, [OPEN_VIEWERS, count], { timeout: 300000 });
  const frames = [];
  for (const element of await page.$$(OPEN_VIEWERS)) {
    // As a reader does: scrolled to, the viewer is drawn (off screen, frames are not).
    await element.scrollIntoViewIfNeeded();
    const frame = await element.contentFrame();
    await frame.waitForFunction(() => document.body && document.body.dataset.ready === '1', null, { timeout: 120000 });
    frames.push({ element, frame });
  }
  return frames;
}

// Reads GPT-2 small as the issue asks, inside its cell: zoom with the wheel at a node (it
// stays under the cursor), search block 5's attention, read a node's fields.
async function readGpt2(page, { element, frame }, name) {
  await element.scrollIntoViewIfNeeded();
  const box = await element.boundingBox();
  check(box && box.width > 300 && box.height >= 320 && box.height <= 900, `${name}: the viewer fits the cell with a bounded height (${box && `${Math.round(box.width)} x ${Math.round(box.height)}`})`);
  const count = await frame.evaluate(() => Number(document.body.dataset.count));
  check(count > 500, `${name}: GPT-2 small opens at full detail (${count} nodes)`);
  const inFrame = (id) => frame.evaluate((id) => {
    const g = [...document.querySelectorAll('#tl-canvas g.node')].find((n) => n.dataset.id === id);
    const r = g.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  }, id);
  // Block 5's attention, found by search: centred in the viewer.
  await frame.fill('#tl-search', 'h.5.attn');
  await frame.press('#tl-search', 'Enter');
  await frame.waitForFunction(() => document.body.dataset.hit === '0', null, { timeout: 10000 }).catch(() => {});
  const found = await frame.evaluate(() => document.getElementById('tl-found').textContent);
  check(/drawn/.test(found), `${name}: search finds block 5's attention (${found})`);
  // Then its attention operation (the sixth scaled_dot_product_attention): Enter moves
  // to the next match until it is the current one.
  await frame.fill('#tl-search', 'attention');
  await frame.press('#tl-search', 'Enter');
  let target = null;
  for (let press = 0; press < 30 && !target; press += 1) {
    await frame.waitForFunction(() => document.querySelector('#tl-canvas .tl-current'), null, { timeout: 10000 }).catch(() => {});
    target = await frame.evaluate(() => {
      const current = document.querySelector('#tl-canvas g.node.tl-current');
      return current && current.dataset.id.startsWith('scaleddotproductattention_6_') ? current.dataset.id : null;
    });
    if (!target) await frame.press('#tl-search', 'Enter');
  }
  check(target !== null, `${name}: search 'attention' reaches block 5's attention operation`);
  if (!target) return;
  // Three wheel steps over the operation: it stays under the cursor.
  for (let step = 0; step < 3; step += 1) {
    const at = await inFrame(target);
    const view = await frame.evaluate(() => {
      const v = document.getElementById('tl-view').getBoundingClientRect();
      return { left: v.left, right: v.right, top: v.top, bottom: v.bottom };
    });
    if (at.x < view.left || at.x > view.right || at.y < view.top || at.y > view.bottom) {
      await frame.evaluate(() => window.tlDraw.search('attention'));
      continue;
    }
    const outer = await element.boundingBox();
    await page.mouse.move(outer.x + at.x, outer.y + at.y);
    const scale = await frame.evaluate(() => window.tlDraw.camera.s);
    await page.mouse.wheel(0, -120);
    await frame.waitForFunction((s) => window.tlDraw.camera.s !== s, scale, { timeout: 5000 }).catch(() => {});
    const after = await inFrame(target);
    const moved = Math.hypot(after.x - at.x, after.y - at.y);
    const zoomed = (await frame.evaluate(() => window.tlDraw.camera.s)) / scale;
    check(zoomed > 1.05 && moved <= 2, `${name}: a wheel step over ${target} zooms in (x${zoomed.toFixed(2)}) and keeps it under the cursor (moved ${moved.toFixed(2)} px)`);
  }
  const at = await inFrame(target);
  const outer = await element.boundingBox();
  await page.mouse.move(outer.x + at.x, outer.y + at.y);
  await frame.waitForFunction(() => /layer_type/.test(document.getElementById('tl-fields').textContent), null, { timeout: 5000 }).catch(() => {});
  const fields = await frame.evaluate(() => document.getElementById('tl-fields').textContent);
  check(/layer_type/.test(fields) && /scaleddotproductattention|scaled_dot_product_attention/.test(fields), `${name}: hovering the operation shows its recorded fields (${fields.slice(0, 60)})`);
  check(/\(1, 12, 16, 64\)/.test(fields) && /KB \(/.test(fields), `${name}: the fields are formatted for reading (shapes, bytes)`);
}

// The open notebook's kernel, started: JupyterLab starts the notebook's kernel itself, but
// on a loaded machine it may open the notebook before it knows the kernels and leave it
// with none ("No Kernel"); then the kernel is chosen as a user would, from the Kernel menu.
async function ensureKernel(page) {
  const kernelName = () => page.evaluate(() => {
    const name = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Toolbar-kernelName');
    return name ? name.textContent.trim() : '';
  });
  const started = async (tries) => {
    for (let i = 0; i < tries; i += 1) {
      if (/Python/.test(await kernelName())) return true;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return false;
  };
  if (await started(40)) return true;
  // A kernel dialog JupyterLab opened by itself, or the menu's.
  if (!(await page.$('.jp-Dialog'))) {
    await page.click('.lm-MenuBar-itemLabel:text-is("Kernel")');
    await page.click('.lm-Menu-itemLabel:text-is("Change Kernel…")');
    await page.waitForSelector('.jp-Dialog select', { timeout: 10000 }).catch(() => {});
  }
  await page.evaluate(() => {
    const select = document.querySelector('.jp-Dialog select');
    const python = select && [...select.options].find((o) => /Python 3/.test(o.textContent));
    if (python) {
      select.value = python.value;
      select.dispatchEvent(new Event('change', { bubbles: true }));
    }
  });
  await page.click('.jp-Dialog .jp-mod-accept').catch(() => {});
  return started(120);
}

// What the open notebook shows of its run: each cell's prompt, the kernel's name and any
// dialog, so that a failed live run says where it stopped.
const notebookState = (page) => page.evaluate(() => {
  const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
  const prompts = [...panel.querySelectorAll('.jp-InputPrompt')].map((p) => p.textContent.trim()).join(' ');
  const kernel = panel.querySelector('.jp-Toolbar-kernelName');
  const dialog = document.querySelector('.jp-Dialog');
  return `prompts ${prompts}; kernel ${kernel ? kernel.textContent.trim() : 'none'}${dialog ? `; dialog: ${dialog.textContent.trim().slice(0, 120)}` : ''}`;
});

// How many viewers the open notebook shows.
const viewersShown = (page) => page.$$eval(OPEN_VIEWERS, (f) => f.length);

// Runs every cell from the Run menu, as a user does, until `count` viewers show; `clicked`
// runs after each click of the menu. On a loaded machine the click can land while
// JupyterLab is still connecting the kernel and run nothing (every prompt still empty): then
// a dialog it opened is answered and the menu is used again.
async function runAll(page, count, clicked = async () => {}) {
  const nothingRan = () => page.evaluate(() => [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-InputPrompt')]
    .every((p) => /^\[\s*\]:?$/.test(p.textContent.trim())));
  for (let attempt = 0; attempt < 3; attempt += 1) {
    await page.click('.jp-Dialog .jp-mod-accept', { timeout: 1000 }).catch(() => {});
    await page.click('.lm-MenuBar-itemLabel:text-is("Run")');
    await page.click('.lm-Menu-itemLabel:text-is("Run All Cells")');
    await clicked();
    for (let waited = 0; waited < 300; waited += 5) {
      if ((await viewersShown(page)) >= count) return viewersShown(page);
      if (waited >= 30 && (await nothingRan())) break;
      await new Promise((resolve) => setTimeout(resolve, 5000));
    }
  }
  return viewersShown(page);
}

// The open notebook's cells: what the screenshots compare. JupyterLab's own chrome around
// them (the file browser's selection and times, the kernel's status) changes from run to run.
const notebookArea = (page) => page.evaluate(() => {
  const r = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook').getBoundingClientRect();
  return { x: r.left, y: r.top, width: r.width, height: r.height };
});

const browser = await launchChromium(chromium);
try {
  check(await serverUp(), `JupyterLab starts (${labLog.split('\n').slice(-3).join(' | ')})`);
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error' && process.env.TL_BROWSER_DEBUG) console.log('   console:', m.text()); });

  // Untrusted: a picture in each output, no script run.
  await openNotebook(page, 'untrusted.ipynb');
  await page.waitForFunction(() => document.querySelectorAll('.jp-OutputArea-output img[src^="data:image/png"]').length >= 2, null, { timeout: 120000 }).catch(() => {});
  const pictures = await page.evaluate(() => [...document.querySelectorAll('.jp-OutputArea-output img[src^="data:image/png"]')]
    .map((img) => ({ width: img.naturalWidth, height: img.naturalHeight, shown: img.getBoundingClientRect().width })));
  check(pictures.length === 2, `untrusted: each drawing shows a picture (${pictures.length})`);
  check(pictures.every((p) => p.width >= 200 && p.shown > 100), `untrusted: the pictures are drawn (${JSON.stringify(pictures)})`);
  check(await page.$$eval('iframe.tl-draw-viewer', (f) => f.length) === 0, 'untrusted: no script ran (no viewer)');
  const text = await page.evaluate(() => document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook').textContent);
  check(!text.includes('<tl_draw.Drawing'), 'untrusted: the outputs are not the text repr');
  check(text.includes('folded picture'), 'untrusted: GPT-2 small, too large for one picture, says its picture is folded');
  await compareShot(browser, page, 'notebook.untrusted', await notebookArea(page));
  if (figures) await page.screenshot({ path: path.join(figures, 'notebook_untrusted.png') });

  // Trusted: the interactive viewer in each output.
  await openNotebook(page, 'trusted.ipynb');
  const trusted = await viewers(page, 2);
  check(trusted.length === 2, `trusted: each drawing is an interactive viewer (${trusted.length})`);
  check(await page.$$eval('.jp-NotebookPanel:not(.lm-mod-hidden) .tl-draw-output img', (i) => i.length) === 0, 'trusted: the viewer replaced the picture');
  const convnet = await trusted[0].frame.evaluate(() => ({ count: Number(document.body.dataset.count), title: document.getElementById('tl-title').textContent }));
  check(convnet.count === 12 && /ConvNet/.test(convnet.title), `trusted: the first viewer is ConvNet at full detail (${JSON.stringify(convnet)})`);
  if (trusted[1]) await readGpt2(page, trusted[1], 'trusted');
  await compareShot(browser, page, 'notebook.trusted', await notebookArea(page));
  if (figures) await page.screenshot({ path: path.join(figures, 'notebook_viewer.png') });

  // Run live: outputs made in this session are trusted, so the viewers appear.
  await openNotebook(page, 'live.ipynb');
  check(await ensureKernel(page), 'live: the notebook has a running Python kernel');
  const live = await runAll(page, 2);
  check(live === 2, `live: running the notebook shows both viewers (${live}; ${await notebookState(page)}; the page then: ${path.join(out, 'live.failed.png')})`);
  if (live !== 2) await page.screenshot({ path: path.join(out, 'live.failed.png') });

  // A long drawing shows its progress in the cell while it runs, and removes it when done.
  await openNotebook(page, 'progress.ipynb');
  check(await ensureKernel(page), 'progress: the notebook has a running Python kernel');
  // Every bar the output area shows is recorded as it is added: the bar is there for about
  // a second, which a poll for it can miss on a busy machine, while it was shown all along.
  await page.evaluate(() => {
    window.tlDrawBars = [];
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (node.nodeType !== Node.ELEMENT_NODE) continue;
          const bars = node.matches('.tl-draw-progress') ? [node] : [...node.querySelectorAll('.tl-draw-progress')];
          for (const bar of bars) if (bar.querySelector('progress')) window.tlDrawBars.push(bar.textContent);
        }
      }
    }).observe(document.body, { childList: true, subtree: true });
  });
  // The screenshot, when the bar is caught on screen (not waiting past the viewer's coming);
  // the check below does not depend on it.
  let bar = null;
  const caught = async () => {
    const shown = await page.waitForSelector(`.jp-NotebookPanel:not(.lm-mod-hidden) .tl-draw-progress progress, ${OPEN_VIEWERS}`, { timeout: 120000 }).catch(() => null);
    bar = shown && (await shown.evaluate((element) => element.tagName === 'PROGRESS')) ? shown : null;
    if (bar) await page.screenshot({ path: path.join(out, 'progress.png') });
    if (figures && bar) await page.screenshot({ path: path.join(figures, 'notebook_progress.png') });
  };
  const progressed = await runAll(page, 1, async () => { if (!bar) await caught(); });
  check(progressed === 1, `progress: running the notebook shows the viewer (${progressed}; ${await notebookState(page)})`);
  const bars = await page.evaluate(() => window.tlDrawBars);
  const laidOut = bars.filter((text) => /% laying out the page's drawings: \d+ of \d+ done/.test(text));
  check(laidOut.length > 0, `progress: a bar shows while DenseNet-121's page is laid out (${bars.length} bars shown: ${bars.slice(0, 2).join(' | ')})`);
  check(!figures || bar !== null, 'progress: the figure of the bar was taken (--figures)');
  const left = await page.$$eval('.jp-NotebookPanel:not(.lm-mod-hidden) .tl-draw-progress', (b) => b.length);
  check(left === 0, `progress: the bar is gone once the viewer shows (${left} left; ${await notebookState(page)})`);
  check(errors.length === 0, `JupyterLab: no page error (${errors.slice(0, 3).join(' | ')})`);
  await page.close();

  // nbconvert --to html: the pictures are in the file, and its script shows the viewer.
  const exported = fs.readFileSync(path.join(work, 'exported.html'), 'utf8');
  check((exported.match(/<img [^>]*src="data:image\/png;base64,/g) || []).length === 2, 'nbconvert: the exported HTML holds both pictures');
  const page2 = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page2.goto(`file://${path.join(work, 'exported.html')}`);
  await page2.waitForFunction(() => document.querySelectorAll('iframe.tl-draw-viewer').length === 2, null, { timeout: 60000 }).catch(() => {});
  check(await page2.$$eval('iframe.tl-draw-viewer', (f) => f.length) === 2, 'nbconvert: the exported page shows both viewers');
  await page2.close();
} finally {
  await browser.close();
  lab.kill('SIGTERM');
  if (!process.env.TL_BROWSER_DEBUG) fs.rmSync(work, { recursive: true, force: true });
  else console.log(`kept ${work}`);
}
if (failures()) {
  console.error(`${failures()} notebook check(s) failed`);
  process.exit(1);
}
console.log('notebook tests passed');
