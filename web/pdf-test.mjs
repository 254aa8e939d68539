// The PDF files tl-draw writes itself (crates/render-cairo/src/pdf), opened in pdf.js, the
// PDF reader of Firefox and of many web pages, in Debian's Chromium driven by playwright-core
// (all installed by `cargo xtask setup`; `cargo xtask test` runs this).
//
//   node web/pdf-test.mjs TL_DRAW FIXTURES OUT
//
// For each case it writes the PDF with the tl-draw program and checks that pdf.js and poppler
// read it without a warning or an error (an embedded font they cannot use, a font file of
// another type than declared, a broken object), that the text pdf.js extracts holds the
// drawing's labels (the fonts' Unicode maps), and that its picture is poppler's
// (`pdftocairo`): at most 2% of 4 x 4-pixel blocks differ by more than a quarter in some
// channel (a font pdf.js replaced, a shading it reads otherwise, a page scaled differently
// would). The pictures go to OUT.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { checks, launchChromium } from './shots.mjs';

const [tlDraw, fixtures, out] = process.argv.slice(2);
const modules = process.env.TL_WEB_MODULES || path.join(process.env.HOME, '.cache/tl-draw/web');
const { chromium } = createRequire(path.join(modules, 'package.json'))('playwright-core');
const pdfjs = path.join(modules, 'node_modules/pdfjs-dist/build');
fs.mkdirSync(out, { recursive: true });

const cases = [
  { name: 'convnet', trace: 'convnet.json', args: [], text: ['conv2d_1_1', '@features.0', '1.61K parameters'] },
  // Partly frozen parameters fill their node with a two-colour gradient.
  { name: 'frozen', trace: 'frozen.json', args: [], text: ['linear_2_3', 'params: weight [4, 8] · bias (4,)'] },
  // The edit cone: translucent shapes over the drawing.
  { name: 'edited', trace: 'edited.json', args: ['--show-cone'], text: ['relu'] },
  { name: 'dark', trace: 'convnet.json', args: ['--theme', 'dark'], text: ['softmax_1_12'] },
  // A real model at full detail: a page scaled down to PDF's 14,400-point limit.
  { name: 'gpt2_small', trace: 'real/gpt2_small.json', args: ['--collapse', 'none'], text: ['layernorm_25_538', '@gpt2.transformer.h.11.mlp'] },
];

const { check, failures } = checks();
const origin = 'http://tl-draw.test';
const viewer = `<!doctype html><html><body style="margin:0"><script type="module">
import * as pdfjsLib from '/pdf.mjs';
pdfjsLib.GlobalWorkerOptions.workerSrc = '/pdf.worker.mjs';
window.read = async () => {
  const pdf = await pdfjsLib.getDocument({ url: '/drawing.pdf', verbosity: 1 }).promise;
  const page = await pdf.getPage(1);
  const viewport = page.getViewport({ scale: 1 });
  const canvas = document.createElement('canvas');
  canvas.width = Math.ceil(viewport.width);
  canvas.height = Math.ceil(viewport.height);
  const context = canvas.getContext('2d', { willReadFrequently: true });
  context.fillStyle = 'white';
  context.fillRect(0, 0, canvas.width, canvas.height);
  await page.render({ canvasContext: context, viewport }).promise;
  const text = (await page.getTextContent()).items.map((item) => item.str).join('\\n');
  const image = new Image();
  image.src = '/poppler.png';
  await image.decode();
  const width = Math.min(canvas.width, image.width);
  const height = Math.min(canvas.height, image.height);
  const theirs = document.createElement('canvas');
  theirs.width = width;
  theirs.height = height;
  const other = theirs.getContext('2d', { willReadFrequently: true });
  other.drawImage(image, 0, 0);
  const a = context.getImageData(0, 0, width, height).data;
  const b = other.getImageData(0, 0, width, height).data;
  let blocks = 0;
  let differ = 0;
  for (let y = 0; y + 4 <= height; y += 4) {
    for (let x = 0; x + 4 <= width; x += 4) {
      blocks += 1;
      let apart = false;
      for (let channel = 0; channel < 3 && !apart; channel += 1) {
        let sa = 0;
        let sb = 0;
        for (let dy = 0; dy < 4; dy += 1) {
          for (let dx = 0; dx < 4; dx += 1) {
            const i = ((y + dy) * width + x + dx) * 4 + channel;
            sa += a[i];
            sb += b[i];
          }
        }
        apart = Math.abs(sa - sb) / 16 > 64;
      }
      if (apart) differ += 1;
    }
  }
  return { text, sizes: [canvas.width, canvas.height, image.width, image.height], share: differ / blocks };
};
window.ready = true;
</script></body></html>`;

const browser = await launchChromium(chromium);
for (const { name, trace, args, text } of cases) {
  const pdf = path.join(out, `${name}.pdf`);
  execFileSync(tlDraw, ['draw', path.join(fixtures, trace), ...args, '--force', '-o', pdf], { stdio: ['ignore', 'ignore', 'ignore'] });
  const written = fs.readFileSync(pdf);
  check(written.includes('/Producer (tl-draw)'), `${name}: written by tl-draw's PDF writer`);
  const poppler = path.join(out, `${name}.poppler`);
  const rasterised = spawnSync('pdftocairo', ['-png', '-singlefile', '-r', '72', pdf, poppler], { encoding: 'utf8' });
  check(rasterised.status === 0 && rasterised.stderr === '', `${name}: poppler read it without a message (${rasterised.stderr})`);
  const files = {
    '/viewer.html': ['text/html', Buffer.from(viewer)],
    '/pdf.mjs': ['text/javascript', fs.readFileSync(path.join(pdfjs, 'pdf.mjs'))],
    '/pdf.worker.mjs': ['text/javascript', fs.readFileSync(path.join(pdfjs, 'pdf.worker.mjs'))],
    '/drawing.pdf': ['application/pdf', written],
    '/poppler.png': ['image/png', fs.readFileSync(`${poppler}.png`)],
  };
  const page = await browser.newPage();
  const messages = [];
  page.on('console', (message) => {
    if (['warning', 'error'].includes(message.type()) || /warning|error/i.test(message.text())) {
      messages.push(`${message.type()}: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => messages.push(`page error: ${error}`));
  await page.route(`${origin}/**`, (route) => {
    const file = files[new URL(route.request().url()).pathname];
    return file ? route.fulfill({ contentType: file[0], body: file[1] }) : route.fulfill({ status: 404, body: '' });
  });
  await page.goto(`${origin}/viewer.html`);
  await page.waitForFunction(() => window.ready);
  const result = await page.evaluate(() => window.read());
  check(messages.length === 0, `${name}: pdf.js read it without a message (${messages.join('; ')})`);
  for (const words of text) {
    check(result.text.includes(words), `${name}: pdf.js finds the text ${JSON.stringify(words)}`);
  }
  const [w, h, pw, ph] = result.sizes;
  check(Math.abs(w - pw) <= 1 && Math.abs(h - ph) <= 1, `${name}: pdf.js's page is poppler's size (${w}x${h} against ${pw}x${ph})`);
  check(result.share < 0.02, `${name}: pdf.js draws what poppler draws (${(100 * result.share).toFixed(3)}% of blocks differ)`);
  console.log(`pdf-test: ${name}: ${w}x${h}, ${(100 * result.share).toFixed(3)}% of blocks unlike poppler's`);
  await page.close();
}
await browser.close();
if (failures() > 0) {
  console.error(`pdf-test: ${failures()} check(s) failed`);
  process.exit(1);
}
console.log(`pdf-test: ${cases.length} PDFs read by pdf.js as poppler reads them`);
