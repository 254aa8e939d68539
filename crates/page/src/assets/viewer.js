// tl-draw's interactive drawing: shows the precomputed drawings of one trace (schedule
// stops and opened/closed boxes), with pan and zoom, an overview, search and each node's
// recorded fields. Everything it needs is in the page: it makes no request. The same page
// is the notebook's inline viewer (inside an iframe), so this is the one implementation.
(() => {
  'use strict';
  const data = JSON.parse(document.getElementById('tl-data').textContent);
  const $ = (id) => document.getElementById(id);
  const view = $('tl-view');
  const canvas = $('tl-canvas');
  const fields = $('tl-fields');
  const minimap = $('tl-minimap');

  // --- Camera ------------------------------------------------------------------------
  // The drawing is placed by one transform: a point p of the drawing (its own pixels) is
  // on the view at (x + p.x * s, y + p.y * s). Zooming about a view point keeps the drawing
  // point under it fixed, by construction.
  const camera = { x: 0, y: 0, s: 1 };
  const MIN_SCALE = 0.002;
  const MAX_SCALE = 40;
  // Text is set at 10 to 14 pt: below this scale it cannot be read.
  const READABLE = 0.55;
  function place() {
    canvas.style.transform = `translate(${camera.x}px, ${camera.y}px) scale(${camera.s})`;
    scheduleMinimap();
  }
  function viewSize() {
    const v = view.getBoundingClientRect();
    return { left: v.left, top: v.top, width: v.width, height: v.height };
  }
  // Zooms by `factor` about the view point (px, py), relative to the view's corner.
  function zoomAbout(px, py, factor) {
    const s = Math.min(MAX_SCALE, Math.max(MIN_SCALE, camera.s * factor));
    const k = s / camera.s;
    camera.x = px - (px - camera.x) * k;
    camera.y = py - (py - camera.y) * k;
    camera.s = s;
    place();
  }
  // Shows the drawing at scale `s` with its point (dx, dy) at view point (px, py).
  function lookAt(dx, dy, s, px, py) {
    camera.s = Math.min(MAX_SCALE, Math.max(MIN_SCALE, s));
    camera.x = px - dx * camera.s;
    camera.y = py - dy * camera.s;
    place();
  }
  view.addEventListener('wheel', (event) => {
    event.preventDefault();
    const v = viewSize();
    // Lines and pages are about 16 and 800 pixels; a pinch (ctrl) is finer, so stronger.
    const unit = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? 800 : 1;
    const rate = event.ctrlKey ? 0.01 : 0.0018;
    const factor = Math.exp(-event.deltaY * unit * rate);
    zoomAbout(event.clientX - v.left, event.clientY - v.top, Math.min(4, Math.max(0.25, factor)));
  }, { passive: false });

  // Drag to pan; a press that moves less than a few pixels is a click.
  let drag = null;
  view.addEventListener('pointerdown', (event) => {
    if (event.button !== 0) return;
    drag = { x: event.clientX, y: event.clientY, cx: camera.x, cy: camera.y, moved: false, id: event.pointerId };
  });
  window.addEventListener('pointermove', (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) > 5) {
      drag.moved = true;
      view.classList.add('tl-dragging');
    }
    if (drag.moved) {
      camera.x = drag.cx + dx;
      camera.y = drag.cy + dy;
      place();
    }
  });
  window.addEventListener('pointerup', () => {
    view.classList.remove('tl-dragging');
    if (drag) setTimeout(() => { drag = null; }, 0);
  });
  view.addEventListener('dblclick', (event) => {
    event.preventDefault();
    const v = viewSize();
    zoomAbout(event.clientX - v.left, event.clientY - v.top, event.shiftKey ? 0.5 : 2);
  });

  const unpacked = new Map();
  let records = null;
  let current = -1;
  let stop = 0;
  let info = { nodes: new Map(), clusters: new Map(), edges: new Map() };
  let pinned = null;
  let hits = [];
  let hitAt = -1;

  async function unpack(base64) {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    return new Response(stream).text();
  }

  // A state's drawing and what its nodes, frames and arrows stand for, unpacked once.
  async function stateOf(index) {
    if (!unpacked.has(index)) {
      const state = JSON.parse(await unpack(data.states[index].packed));
      state.svg = state.svg.slice(state.svg.indexOf('<svg'));
      state.count = data.states[index].count;
      // Each node's operations come as runs [start, end): expand them once.
      for (const node of state.nodes) {
        if (!node.ops) continue;
        const ops = [];
        for (const [start, end] of node.ops) for (let op = start; op < end; op += 1) ops.push(op);
        node.ops = ops;
      }
      unpacked.set(index, state);
    }
    return unpacked.get(index);
  }

  const titleOf = (g) => {
    const title = g.querySelector(':scope > title');
    return title ? title.textContent : '';
  };
  // A drawn element's box in the drawing's own pixels (before pan and zoom).
  const boxOf = (element) => {
    const box = element.getBBox();
    const m = element.getCTM();
    const a = new DOMPoint(box.x, box.y).matrixTransform(m);
    const b = new DOMPoint(box.x + box.width, box.y + box.height).matrixTransform(m);
    return { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), w: Math.abs(b.x - a.x), h: Math.abs(b.y - a.y) };
  };
  // Its middle.
  const local = (element) => {
    const r = boxOf(element);
    return { x: r.x + r.w / 2, y: r.y + r.h / 2 };
  };
  // A drawing point's place on the view.
  const onScreen = (p) => ({ x: camera.x + p.x * camera.s, y: camera.y + p.y * camera.s });
  const painted = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));

  // Shows state `index`; `anchor` = { before: screen point, find: () => element } keeps
  // the clicked thing where it was on the screen.
  async function show(index, anchor) {
    const state = await stateOf(index);
    canvas.innerHTML = state.svg;
    current = index;
    info = { nodes: new Map(), clusters: new Map(), edges: new Map() };
    for (const node of state.nodes) info.nodes.set(node.id, node);
    for (const cluster of state.clusters) info.clusters.set(cluster.id, cluster);
    for (const edge of state.edges) info.edges.set(`${edge.from}->${edge.to}`, edge);
    // Each group's title names its node, frame or arrow: kept as data-id, then removed
    // (browsers would pop titles up over the fields panel).
    for (const g of canvas.querySelectorAll('g.node, g.cluster, g.edge')) g.dataset.id = titleOf(g);
    for (const g of canvas.querySelectorAll('g.node')) {
      const node = info.nodes.get(g.dataset.id);
      if (node && node.opens !== undefined) g.classList.add('tl-openable');
    }
    for (const g of canvas.querySelectorAll('g.cluster')) {
      const cluster = info.clusters.get(g.dataset.id);
      if (cluster && cluster.closes !== undefined) g.classList.add('tl-closable');
    }
    for (const g of canvas.querySelectorAll('g.edge')) {
      const path = g.querySelector('path');
      if (!path) continue;
      const area = path.cloneNode(false);
      area.setAttribute('class', 'tl-hit-area');
      g.appendChild(area);
    }
    for (const title of canvas.querySelectorAll('g > title')) title.remove();
    const stopOfState = data.stops.findIndex((s) => s.state === index);
    if (stopOfState >= 0) stop = stopOfState;
    describe(state, stopOfState >= 0);
    applyCone();
    measureMinimap();
    const target = anchor && anchor.find();
    if (target) {
      // The frame a box opened into (or the box a frame closed into) takes the place the
      // clicked thing had on the screen; the zoom stays, unless it must change for the
      // whole of it to be seen.
      const after = local(target);
      lookAt(after.x, after.y, camera.s, anchor.before.x, anchor.before.y);
      keepInView(target);
    } else {
      openingView();
    }
    if ($('tl-search').value) search($('tl-search').value, false);
    await painted();
    document.body.dataset.state = String(index);
    document.body.dataset.count = String(state.count);
  }

  function describe(state, atStop) {
    $('tl-count').textContent = `${state.count} nodes`;
    if (!data.stops.length) {
      $('tl-folds').textContent = visible(state.header.slice(1, 3).join(' · '));
      return;
    }
    const s = data.stops[stop];
    $('tl-slider').value = String(stop);
    $('tl-level').textContent = `level ${s.level.toFixed(2)}${s.auto ? ' (auto)' : ''}${atStop ? '' : ', boxes opened or closed'}`;
    // Every fold drawn now, whatever led here (a stop, or boxes opened and closed).
    const folded = [];
    for (const node of state.nodes) {
      // A box's first row names it (`@features`, a run of repeats, a folded loop).
      if (node.module || node.kind === 'capsule') folded.push((node.rows && node.rows[0]) || `@${node.module}`);
    }
    const closing = atStop ? '' : ' (click a frame to close it again; move the slider to go back to a stop)';
    $('tl-folds').textContent = folded.length
      ? `${folded.length} folded: ${visible(folded.join(', '))}${closing}`
      : `full detail: nothing folded${closing}`;
  }

  // The drawing's size in its own pixels.
  function drawingSize() {
    const svg = canvas.querySelector('svg');
    if (!svg) return null;
    const size = { width: svg.width.baseVal.value, height: svg.height.baseVal.value };
    return size.width && size.height ? size : null;
  }

  // All of the drawing, centred (at most twice its size).
  function fit() {
    const r = drawingSize();
    if (!r) return;
    const v = viewSize();
    const s = Math.min(2, 0.96 * Math.min(v.width / r.width, v.height / r.height));
    lookAt(r.width / 2, r.height / 2, s, v.width / 2, v.height / 2);
  }

  // The first view of a drawing: all of it when its text can be read so; else its width,
  // at its start (the inputs' end); else a readable scale at its start. The overview shows
  // where that is in the whole.
  // A viewer not laid out yet (a notebook cell scrolled far away) opens when it is.
  let openingPending = false;
  function openingView() {
    const r = drawingSize();
    if (!r) return;
    const v = viewSize();
    openingPending = v.width < 10 || v.height < 10;
    if (openingPending) return;
    const all = 0.96 * Math.min(v.width / r.width, v.height / r.height);
    if (all >= READABLE) {
      fit();
      return;
    }
    const flow = data.flow || 'TB';
    const across = flow === 'LR' || flow === 'RL'
      ? Math.min(1, 0.96 * v.height / r.height)
      : Math.min(1, 0.96 * v.width / r.width);
    const s = Math.max(across, READABLE);
    const margin = 12;
    // The start edge of the drawing at the matching edge of the view; across the flow, the
    // drawing centred when it fits, else its first input in the middle.
    const input = firstInput();
    const vertical = flow === 'BT' || flow === 'TB';
    const startEdge = { BT: [null, r.height], TB: [null, 0], LR: [0, null], RL: [r.width, null] }[flow];
    const viewEdge = { BT: [null, v.height - margin], TB: [null, margin], LR: [margin, null], RL: [v.width - margin, null] }[flow];
    if (vertical) {
      const fits = r.width * s <= v.width;
      const dx = fits || !input ? r.width / 2 : input.x;
      lookAt(dx, startEdge[1], s, v.width / 2, viewEdge[1]);
      if (!fits) camera.x = Math.min(0, Math.max(v.width - r.width * s, camera.x));
    } else {
      const fits = r.height * s <= v.height;
      const dy = fits || !input ? r.height / 2 : input.y;
      lookAt(startEdge[0], dy, s, viewEdge[0], v.height / 2);
      if (!fits) camera.y = Math.min(0, Math.max(v.height - r.height * s, camera.y));
    }
    // An input drawn far from the start edge (a layout may rank nodes without inputs, a
    // rotary embedding's, below it) is brought into view, a quarter in from the start side.
    if (input) {
      const at = onScreen(input);
      const along = vertical ? at.y : at.x;
      const length = vertical ? v.height : v.width;
      if (along < margin || along > length - margin) {
        const share = flow === 'BT' || flow === 'RL' ? 0.75 : 0.25;
        if (vertical) camera.y = share * length - input.y * camera.s;
        else camera.x = share * length - input.x * camera.s;
      }
    }
    place();
  }

  // Where the drawing's first input is drawn (its own pixels), if it draws one.
  function firstInput() {
    if (!records) return null;
    for (const g of canvas.querySelectorAll('g.node')) {
      const node = info.nodes.get(g.dataset.id);
      if (node && !node.module && (node.ops || []).some((op) => records.ops[op].kind === 'input')) return local(g);
    }
    return null;
  }

  // Pans the least for `element` to be on screen whole. One larger than the view is zoomed
  // out to, but not below a readable scale: then it fills the view, centred.
  function keepInView(element) {
    const r = boxOf(element);
    const v = viewSize();
    const pad = 16;
    if (r.w * camera.s > v.width - 2 * pad || r.h * camera.s > v.height - 2 * pad) {
      const whole = Math.min((v.width - 2 * pad) / r.w, (v.height - 2 * pad) / r.h);
      const s = Math.min(camera.s, Math.max(whole, Math.min(camera.s, READABLE)));
      lookAt(r.x + r.w / 2, r.y + r.h / 2, s, v.width / 2, v.height / 2);
      return;
    }
    const left = camera.x + r.x * camera.s;
    const top = camera.y + r.y * camera.s;
    const right = left + r.w * camera.s;
    const bottom = top + r.h * camera.s;
    if (left < pad) camera.x += pad - left;
    else if (right > v.width - pad) camera.x -= right - (v.width - pad);
    if (top < pad) camera.y += pad - top;
    else if (bottom > v.height - pad) camera.y -= bottom - (v.height - pad);
    place();
  }

  function zoomBy(factor) {
    const v = viewSize();
    zoomAbout(v.width / 2, v.height / 2, factor);
  }

  function panBy(dx, dy) {
    camera.x += dx;
    camera.y += dy;
    place();
  }

  // Brings `element` to the middle of the view, large enough to read.
  function centre(element) {
    const c = local(element);
    const v = viewSize();
    lookAt(c.x, c.y, camera.s < 0.7 ? 1 : camera.s, v.width / 2, v.height / 2);
  }

  // --- Overview ------------------------------------------------------------------------
  // A small picture of the whole drawing (its nodes as filled boxes, its frames as
  // outlines) with the visible region marked; shown when the drawing is larger than the
  // view. Pressing or dragging in it moves the view there.
  let shapes = [];
  let minimapQueued = false;
  function measureMinimap() {
    shapes = [];
    for (const g of canvas.querySelectorAll('g.cluster, g.node')) {
      const shape = g.querySelector(':scope > polygon, :scope > ellipse, :scope > path');
      if (!shape) continue;
      const fill = shape.getAttribute('fill');
      shapes.push({
        frame: g.classList.contains('cluster'),
        ...boxOf(shape),
        fill: fill && fill !== 'none' ? fill : '#bbbbbb',
      });
    }
  }
  function minimapGeometry() {
    const r = drawingSize();
    if (!r) return null;
    const v = viewSize();
    const room = { width: Math.min(180, v.width * 0.25), height: Math.max(60, Math.min(320, v.height * 0.45)) };
    const k = Math.min(room.width / r.width, room.height / r.height);
    const width = Math.max(8, Math.round(r.width * k));
    const height = Math.max(8, Math.round(r.height * k));
    // The scales actually drawn at, once rounded to whole pixels.
    return { r, v, k, kx: width / r.width, ky: height / r.height, width, height };
  }
  function scheduleMinimap() {
    if (minimapQueued) return;
    minimapQueued = true;
    requestAnimationFrame(() => {
      minimapQueued = false;
      drawMinimap();
    });
  }
  function drawMinimap() {
    const g = minimapGeometry();
    const seenAll = g && g.r.width * camera.s <= g.v.width + 1 && g.r.height * camera.s <= g.v.height + 1
      && camera.x >= -1 && camera.y >= -1
      && camera.x + g.r.width * camera.s <= g.v.width + 1 && camera.y + g.r.height * camera.s <= g.v.height + 1;
    minimap.hidden = !g || seenAll;
    document.body.dataset.minimap = minimap.hidden ? '0' : '1';
    if (minimap.hidden) return;
    const ratio = window.devicePixelRatio || 1;
    minimap.style.width = `${g.width}px`;
    minimap.style.height = `${g.height}px`;
    minimap.width = Math.round(g.width * ratio);
    minimap.height = Math.round(g.height * ratio);
    const c = minimap.getContext('2d');
    c.setTransform(ratio * g.kx, 0, 0, ratio * g.ky, 0, 0);
    c.fillStyle = '#ffffff';
    c.fillRect(0, 0, g.r.width, g.r.height);
    c.lineWidth = 1 / g.k;
    for (const shape of shapes) {
      if (shape.frame) {
        c.strokeStyle = '#9a9a9a';
        c.strokeRect(shape.x, shape.y, shape.w, shape.h);
      } else {
        c.fillStyle = shape.fill;
        c.fillRect(shape.x, shape.y, Math.max(shape.w, 2 / g.k), Math.max(shape.h, 2 / g.k));
      }
    }
    // The visible region.
    const x = -camera.x / camera.s;
    const y = -camera.y / camera.s;
    c.fillStyle = 'rgba(31, 111, 235, 0.12)';
    c.fillRect(x, y, g.v.width / camera.s, g.v.height / camera.s);
    c.strokeStyle = '#1f6feb';
    c.lineWidth = 2 / g.k;
    c.strokeRect(x, y, g.v.width / camera.s, g.v.height / camera.s);
  }
  function minimapTo(event) {
    const g = minimapGeometry();
    if (!g) return;
    const m = minimap.getBoundingClientRect();
    const dx = ((event.clientX - m.left) / m.width) * g.r.width;
    const dy = ((event.clientY - m.top) / m.height) * g.r.height;
    lookAt(dx, dy, camera.s, g.v.width / 2, g.v.height / 2);
  }
  let minimapDrag = false;
  minimap.addEventListener('pointerdown', (event) => {
    event.stopPropagation();
    minimapDrag = true;
    minimap.setPointerCapture(event.pointerId);
    minimapTo(event);
  });
  minimap.addEventListener('pointermove', (event) => { if (minimapDrag) minimapTo(event); });
  minimap.addEventListener('pointerup', () => { minimapDrag = false; });
  minimap.addEventListener('wheel', (event) => event.stopPropagation(), { passive: true });
  minimap.addEventListener('click', (event) => event.stopPropagation());
  minimap.addEventListener('dblclick', (event) => event.stopPropagation());
  new ResizeObserver(() => {
    if (openingPending) {
      measureMinimap();
      openingView();
    }
    scheduleMinimap();
  }).observe(view);

  // --- Opening and closing ---------------------------------------------------------
  view.addEventListener('click', (event) => {
    if (drag && drag.moved) return;
    const hit = document.elementFromPoint(event.clientX, event.clientY);
    if (!hit || !canvas.contains(hit)) return;
    const nodeG = hit.closest('g.node');
    if (nodeG) {
      const node = info.nodes.get(nodeG.dataset.id);
      if (node && node.opens !== undefined) {
        const module = node.module;
        show(node.opens, {
          before: onScreen(local(nodeG)),
          find: () => module && gOfCluster((c) => c.module === module),
        });
        return;
      }
      pinned = node || null;
      if (node) showNode(node);
      return;
    }
    const clusterG = hit.closest('g.cluster');
    if (clusterG) {
      const cluster = info.clusters.get(clusterG.dataset.id);
      if (cluster && cluster.closes !== undefined) {
        show(cluster.closes, {
          before: onScreen(local(clusterG)),
          find: () => gOfNode((n) => n.module === cluster.module),
        });
      }
    }
  });

  function gOfNode(test) {
    for (const g of canvas.querySelectorAll('g.node')) {
      const node = info.nodes.get(g.dataset.id);
      if (node && test(node)) return g;
    }
    return null;
  }
  function gOfCluster(test) {
    for (const g of canvas.querySelectorAll('g.cluster')) {
      const cluster = info.clusters.get(g.dataset.id);
      if (cluster && test(cluster)) return g;
    }
    return null;
  }

  // --- Fields ------------------------------------------------------------------------
  // Recorded values as a reader wants them: shapes as (1, 768), bytes and durations with
  // units, counts with thousands separators, lists and records one per line.
  const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];
  function bytes(n) {
    if (n < 1024) return `${n} B`;
    let value = n;
    let unit = 0;
    while (value >= 1024 && unit < BYTE_UNITS.length - 1) { value /= 1024; unit += 1; }
    return `${value.toFixed(1)} ${BYTE_UNITS[unit]} (${n.toLocaleString('en-US')} bytes)`;
  }
  function duration(seconds) {
    const a = Math.abs(seconds);
    const [value, unit] = a >= 1 ? [seconds, 's'] : a >= 1e-3 ? [seconds * 1e3, 'ms']
      : a >= 1e-6 ? [seconds * 1e6, 'µs'] : [seconds * 1e9, 'ns'];
    return `${Number(value.toPrecision(4))} ${unit}`;
  }
  function number(n) {
    if (Number.isInteger(n)) return n.toLocaleString('en-US');
    if (n !== 0 && (Math.abs(n) < 1e-3 || Math.abs(n) >= 1e6)) return n.toExponential(3);
    return String(Number(n.toPrecision(5)));
  }
  const isBytes = (key) => key === 'bytes' || key.endsWith('_bytes') || key === 'memory';
  const isSeconds = (key) => key.endsWith('_s') || key === 'duration' || key.endsWith('_seconds');
  const LIST_SHOWN = 12;
  function formatted(key, value) {
    if (value === null || value === undefined) return '—';
    if (typeof value === 'boolean') return value ? 'True' : 'False';
    if (typeof value === 'number') {
      if (isBytes(key) && Number.isInteger(value) && value >= 0) return bytes(value);
      if (isSeconds(key)) return duration(value);
      return number(value);
    }
    if (typeof value === 'string') return value;
    if (Array.isArray(value)) {
      if (key.endsWith('shape') && value.every((v) => typeof v === 'number')) return `(${value.join(', ')}${value.length === 1 ? ',' : ''})`;
      if (!value.length) return '(none)';
      const shown = value.slice(0, LIST_SHOWN).map((v) => formatted(key, v));
      const more = value.length > LIST_SHOWN ? `\n… ${value.length} in all` : '';
      const oneLine = shown.join(', ');
      return (oneLine.length <= 60 && !oneLine.includes('\n') ? oneLine : shown.join('\n')) + more;
    }
    if (key === 'call_sites' || ('file' in value && 'line' in value)) {
      return `${value.file}:${value.line}${value.function ? ` in ${value.function}` : ''}`;
    }
    return Object.entries(value).map(([k, v]) => `${k}: ${formatted(k, v)}`).join(', ');
  }
  function table(title, object) {
    const rows = Object.entries(object)
      .map(([k, v]) => `<tr><td>${esc(k)}</td><td>${esc(formatted(k, v))}</td></tr>`).join('');
    return `<h3>${esc(title)}</h3><table>${rows}</table>`;
  }
  // Trace text with its hidden and bidirectional controls spelled as escapes (`\u202e`), as
  // the drawings spell them: a name is shown in the order it is written.
  const HIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffe\uffff\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
  function visible(s) {
    return String(s).replace(HIDDEN, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  }
  function esc(s) {
    return visible(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
  }
  function drawn(rows) {
    return rows.length ? `<div class="tl-drawn">${esc(rows.join('\n'))}</div>` : '';
  }

  function showNode(node) {
    let html = drawn(node.rows || []);
    const ops = node.ops || [];
    if (records && ops.length && !node.module && node.kind !== 'capsule') {
      // One operation, or one layer of a rolled drawing (each pass is one record).
      for (const op of ops.slice(0, 4)) html += table(records.ops[op].label, records.ops[op]);
      if (ops.length > 4) html += `<p>... and ${ops.length - 4} more passes</p>`;
    } else if (records && node.module) {
      const module = records.modules[node.module];
      if (module) html += table(`@${node.module}`, module);
      if (node.call && records.calls[node.call]) html += table(`call ${node.call}`, records.calls[node.call]);
      html += `<h3>${ops.length} operations inside</h3><p>${ops.slice(0, 40).map((i) => esc(records.ops[i].label)).join(', ')}${ops.length > 40 ? ', ...' : ''}</p>`;
    } else if (records && ops.length) {
      const what = ops.every((i) => records.ops[i].kind === 'output') ? 'outputs' : 'operations';
      html += `<h3>${ops.length} ${what}</h3><p>${ops.slice(0, 40).map((i) => esc(records.ops[i].label)).join(', ')}</p>`;
    }
    fields.innerHTML = html;
  }

  function showCluster(cluster) {
    let html = '';
    if (records && records.modules[cluster.module]) html += table(`@${cluster.module}`, records.modules[cluster.module]);
    if (records && records.calls[cluster.call]) html += table(`call ${cluster.call}`, records.calls[cluster.call]);
    fields.innerHTML = html || `<h3>@${esc(cluster.module)}</h3>`;
  }

  // A node's name as drawn (its first row), not the DOT id the layout knows it by.
  const drawnName = (id) => {
    const node = info.nodes.get(id);
    return node && node.rows && node.rows.length ? node.rows[0] : id;
  };

  function showEdge(edge) {
    let html = `<h3>${esc(drawnName(edge.from))} &rarr; ${esc(drawnName(edge.to))}</h3>`;
    html += `<p>${edge.count} tensor${edge.count === 1 ? '' : 's'} passed</p>`;
    if (records) {
      for (const [parent, child] of edge.pairs) {
        const p = records.ops[parent];
        const c = records.ops[child];
        const slots = (c.arg_slots || []).filter((s) => s.parent === p.label)
          .map((s) => (s.kwarg ? `keyword ${s.kwarg}` : `arg ${(s.arg || []).join(', ')}`));
        html += table(`${p.label} → ${c.label}`, {
          shape: p.shape === undefined || p.shape === null ? 'not a tensor' : p.shape,
          dtype: p.dtype || '',
          bytes: p.bytes === undefined ? null : p.bytes,
          argument: slots.join('; ') || 'not recorded',
        });
      }
      if (edge.count > edge.pairs.length) html += `<p>... and ${edge.count - edge.pairs.length} more</p>`;
    }
    fields.innerHTML = html;
  }

  view.addEventListener('mouseover', (event) => {
    for (const old of canvas.querySelectorAll('.tl-hover')) old.classList.remove('tl-hover');
    const g = event.target.closest('g.node, g.edge, g.cluster');
    if (!g) {
      if (pinned) showNode(pinned);
      return;
    }
    g.classList.add('tl-hover');
    if (g.classList.contains('node')) {
      const node = info.nodes.get(g.dataset.id);
      if (node) showNode(node);
    } else if (g.classList.contains('edge')) {
      const edge = info.edges.get(g.dataset.id);
      if (edge) showEdge(edge);
    } else {
      const cluster = info.clusters.get(g.dataset.id);
      if (cluster) showCluster(cluster);
    }
  });

  // --- Search --------------------------------------------------------------------------
  function matchesOp(op, q) {
    return [op.label, op.layer_label, op.layer_type, op.func_name]
      .some((s) => s && s.toLowerCase().includes(q));
  }
  function matchesModule(address, q) {
    if (!address) return false;
    if (address.toLowerCase().includes(q)) return true;
    const module = records && records.modules[address];
    return !!module && module.class_name.toLowerCase().includes(q);
  }

  function search(query, move) {
    for (const g of canvas.querySelectorAll('.tl-match, .tl-current')) g.classList.remove('tl-match', 'tl-current');
    const q = query.trim().toLowerCase().replace(/^@/, '');
    hits = [];
    hitAt = -1;
    if (!q) {
      $('tl-found').textContent = '';
      return;
    }
    let opCount = 0;
    for (const g of canvas.querySelectorAll('g.node')) {
      const node = info.nodes.get(g.dataset.id);
      if (!node) continue;
      const inside = records ? (node.ops || []).filter((i) => matchesOp(records.ops[i], q)).length : 0;
      opCount += inside;
      // What the node says counts too (backward steps and bundle nodes have no op record).
      const says = (node.rows || []).some((row) => row.toLowerCase().includes(q));
      if (inside > 0 || matchesModule(node.module, q) || says) hits.push(g);
    }
    for (const g of canvas.querySelectorAll('g.cluster')) {
      const cluster = info.clusters.get(g.dataset.id);
      if (cluster && matchesModule(cluster.module, q)) hits.push(g);
    }
    for (const g of hits) g.classList.add('tl-match');
    const ops = opCount ? `${opCount} operation${opCount === 1 ? '' : 's'} in ` : '';
    $('tl-found').textContent = hits.length ? `${ops}${hits.length} drawn` : 'no match';
    if (move && hits.length) nextHit();
    painted().then(() => { document.body.dataset.searched = query; });
  }

  function nextHit() {
    if (!hits.length) return;
    if (hitAt >= 0) hits[hitAt].classList.remove('tl-current');
    hitAt = (hitAt + 1) % hits.length;
    hits[hitAt].classList.add('tl-current');
    centre(hits[hitAt]);
    $('tl-found').textContent = $('tl-found').textContent.replace(/^\(\d+\/\d+\) /, '');
    $('tl-found').textContent = `(${hitAt + 1}/${hits.length}) ${$('tl-found').textContent}`;
    const g = hits[hitAt];
    const node = info.nodes.get(g.dataset.id);
    if (node) showNode(node);
    painted().then(() => { document.body.dataset.hit = String(hitAt); });
  }

  $('tl-search').addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      if (hits.length && hitAt >= 0) nextHit();
      else search(event.target.value, true);
    } else if (event.key === 'Escape') {
      event.target.value = '';
      search('', false);
      event.target.blur();
    }
  });
  $('tl-search').addEventListener('input', (event) => search(event.target.value, false));

  // --- Keyboard, slider, cone ------------------------------------------------------
  document.addEventListener('keydown', (event) => {
    if (event.target instanceof HTMLInputElement && event.target.type !== 'range' && event.target.type !== 'checkbox') return;
    const step = 80;
    const keys = {
      '+': () => zoomBy(1.25), '=': () => zoomBy(1.25), '-': () => zoomBy(0.8),
      '0': fit, f: fit,
      ArrowLeft: () => panBy(step, 0), ArrowRight: () => panBy(-step, 0),
      ArrowUp: () => panBy(0, step), ArrowDown: () => panBy(0, -step),
      '/': () => $('tl-search').focus(),
      Escape: () => { pinned = null; fields.innerHTML = ''; },
    };
    if (event.target.type === 'range' && event.key.startsWith('Arrow')) return;
    const action = keys[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  });
  $('tl-fit').addEventListener('click', fit);
  $('tl-slider').addEventListener('input', (event) => {
    const s = data.stops[Number(event.target.value)];
    if (!s) return;
    if (s.state === null) {
      // Not laid out when the page was written (over the layout guard).
      $('tl-level').textContent = `level ${s.level.toFixed(2)}: ${s.nodes} nodes`;
      $('tl-folds').textContent = 'too large to lay out in this page: draw this level on its own (collapse=, or force=True), or pick a more folded stop';
      return;
    }
    if (s.state !== current) show(s.state);
  });
  function applyCone() {
    canvas.classList.toggle('tl-hide-cone', !$('tl-cone').checked);
  }
  $('tl-cone').addEventListener('change', applyCone);

  // --- Start -------------------------------------------------------------------------
  async function start() {
    $('tl-title').textContent = `${visible(data.title)} (${data.kind})`;
    if (data.stops.length > 1) {
      $('tl-stops').hidden = false;
      $('tl-slider').max = String(data.stops.length - 1);
    }
    if (data.thinned) {
      // A notebook output holds fewer stops than the schedule has (its size is bounded).
      const note = $('tl-thinned');
      note.hidden = false;
      note.textContent = `· ${data.thinned.held} of ${data.thinned.of} stops`;
      note.title = `This output holds ${data.thinned.held} of the collapse schedule's ${data.thinned.of} stops, to stay small; draw(trace, "model.html") writes a page holding every one.`;
    }
    if (data.cone.present) {
      $('tl-cone-toggle').hidden = false;
      $('tl-cone').checked = data.cone.shown;
    }
    if (data.records) records = JSON.parse(await unpack(data.records));
    await show(data.start);
    document.body.dataset.ready = '1';
  }
  window.tlDraw = {
    data, show, fit, search: (q) => search(q, true),
    get state() { return current; },
    get camera() { return { ...camera }; },
  };
  start();
})();
