// What the browser tests of the page (browser-test.mjs) and of the notebook viewer
// (notebook-test.mjs) share: counted checks, Chromium's launch, and screenshots compared
// structurally with their reviewed signatures in web/golden.
import fs from 'node:fs';
import path from 'node:path';

// Checks that count their failures and say what failed.
export function checks() {
  let failed = 0;
  return {
    check(ok, what) {
      if (!ok) {
        failed += 1;
        console.error(`  FAIL ${what}`);
      }
    },
    failures: () => failed,
  };
}

// Debian's Chromium, headless, with nothing that reaches for the network.
export function launchChromium(chromium) {
  return chromium.launch({
    executablePath: process.env.TL_CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

// A screenshot's structure: the share of ink (pixels unlike the page) in each cell of a
// 24 x 16 grid, measured in a blank page.
export async function signature(browser, png) {
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

// `compareShot(browser, page, name, clip)`: writes the page's screenshot (of the region
// `clip` when given) to `out` and compares its structure with `goldens/<name>.json`
// (`update` rewrites it).
export function goldenShots({ out, goldens, update, check }) {
  return async function compareShot(browser, page, name, clip) {
    const png = await page.screenshot({ path: path.join(out, `${name}.png`), ...(clip ? { clip } : {}) });
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
  };
}
