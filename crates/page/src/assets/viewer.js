// tl-draw's interactive drawing: shows the precomputed drawings of one trace (schedule
// stops and opened/closed boxes), with pan and zoom (Panzoom), search and each node's
// recorded fields. Everything it needs is in the page: it makes no request.
(() => {
  'use strict';
  const data = JSON.parse(document.getElementById('tl-data').textContent);
  const $ = (id) => document.getElementById(id);
  const view = $('tl-view');
  const canvas = $('tl-canvas');
  const fields = $('tl-fields');
  const panzoom = Panzoom(canvas, {
    origin: '0 0', canvas: true, maxScale: 40, minScale: 0.002, step: 0.25, cursor: 'grab',
  });
  view.addEventListener('wheel', (event) => {
    event.preventDefault();
    panzoom.zoomWithWheel(event);
  }, { passive: false });

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
  // The middle of a drawn element in the drawing's own pixels (before pan and zoom):
  // Panzoom applies its transform at the next frame, so screen positions can lag.
  const local = (element) => {
    const box = element.getBBox();
    const point = new DOMPoint(box.x + box.width / 2, box.y + box.height / 2)
      .matrixTransform(element.getCTM());
    return { x: point.x, y: point.y };
  };
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
    const target = anchor && anchor.find();
    if (target) {
      // The frame a box opened into (or the box a frame closed into) takes the place the
      // clicked thing had on the screen; the zoom stays.
      const after = local(target);
      const pan = panzoom.getPan();
      panzoom.pan(pan.x + anchor.before.x - after.x, pan.y + anchor.before.y - after.y, { animate: false });
    } else {
      fit();
    }
    if ($('tl-search').value) search($('tl-search').value, false);
    await painted();
    document.body.dataset.state = String(index);
    document.body.dataset.count = String(state.count);
  }

  function describe(state, atStop) {
    $('tl-count').textContent = `${state.count} nodes`;
    if (!data.stops.length) {
      $('tl-folds').textContent = state.header.slice(1, 3).join(' · ');
      return;
    }
    const s = data.stops[stop];
    $('tl-slider').value = String(stop);
    $('tl-level').textContent = `level ${s.level.toFixed(2)}${s.auto ? ' (auto)' : ''}${atStop ? '' : ', boxes opened or closed'}`;
    $('tl-folds').textContent = atStop
      ? (s.folds.length ? `folds: ${s.folds.join('; ')}` : 'full detail: nothing folded')
      : 'click a frame to close it again; move the slider to go back to a stop';
  }

  function fit() {
    const svg = canvas.querySelector('svg');
    if (!svg) return;
    const r = { width: svg.width.baseVal.value, height: svg.height.baseVal.value };
    const v = view.getBoundingClientRect();
    if (!r.width || !r.height) return;
    const scale = Math.min(2, 0.96 * Math.min(v.width / r.width, v.height / r.height));
    panzoom.zoom(scale, { animate: false, force: true });
    panzoom.pan(v.width / (2 * scale) - r.width / 2, v.height / (2 * scale) - r.height / 2,
      { animate: false, force: true });
  }

  function zoomBy(factor) {
    const v = view.getBoundingClientRect();
    panzoom.zoomToPoint(panzoom.getScale() * factor,
      { clientX: v.left + v.width / 2, clientY: v.top + v.height / 2 }, { animate: false });
  }

  function panBy(dx, dy) {
    const scale = panzoom.getScale();
    panzoom.pan(dx / scale, dy / scale, { relative: true, animate: false });
  }

  // Brings `element` to the middle of the view, large enough to read.
  function centre(element) {
    const c = local(element);
    // Text is set at 10 to 14 pt: below 0.7 it cannot be read, so zoom to its own size.
    let scale = panzoom.getScale();
    if (scale < 0.7) scale = 1;
    const v = view.getBoundingClientRect();
    panzoom.zoom(scale, { animate: false, force: true });
    panzoom.pan(v.width / (2 * scale) - c.x, v.height / (2 * scale) - c.y, { animate: false, force: true });
  }

  // --- Opening and closing ---------------------------------------------------------
  let down = null;
  view.addEventListener('pointerdown', (e) => { down = { x: e.clientX, y: e.clientY }; });
  view.addEventListener('click', (event) => {
    if (down && Math.hypot(event.clientX - down.x, event.clientY - down.y) > 5) return;
    // Panzoom captures the pointer, so the event's target is the view: ask what is there.
    const hit = document.elementFromPoint(event.clientX, event.clientY);
    if (!hit || !canvas.contains(hit)) return;
    const nodeG = hit.closest('g.node');
    if (nodeG) {
      const node = info.nodes.get(nodeG.dataset.id);
      if (node && node.opens !== undefined) {
        const module = node.module;
        show(node.opens, {
          before: local(nodeG),
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
          before: local(clusterG),
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
  const text = (value) => (typeof value === 'string' ? value : JSON.stringify(value));
  function table(title, object) {
    const rows = Object.entries(object)
      .map(([k, v]) => `<tr><td>${esc(k)}</td><td>${esc(text(v))}</td></tr>`).join('');
    return `<h3>${esc(title)}</h3><table>${rows}</table>`;
  }
  function esc(s) {
    return String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
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
      html += `<h3>${ops.length} operations</h3><p>${ops.slice(0, 40).map((i) => esc(records.ops[i].label)).join(', ')}</p>`;
    }
    fields.innerHTML = html;
  }

  function showCluster(cluster) {
    let html = '';
    if (records && records.modules[cluster.module]) html += table(`@${cluster.module}`, records.modules[cluster.module]);
    if (records && records.calls[cluster.call]) html += table(`call ${cluster.call}`, records.calls[cluster.call]);
    fields.innerHTML = html || `<h3>@${esc(cluster.module)}</h3>`;
  }

  function showEdge(edge) {
    let html = `<h3>${esc(edge.from)} &rarr; ${esc(edge.to)}</h3>`;
    html += `<p>${edge.count} tensor${edge.count === 1 ? '' : 's'} passed</p>`;
    if (records) {
      for (const [parent, child] of edge.pairs) {
        const p = records.ops[parent];
        const c = records.ops[child];
        const slots = (c.arg_slots || []).filter((s) => s.parent === p.label)
          .map((s) => (s.kwarg ? `keyword ${s.kwarg}` : `arg ${(s.arg || []).join(', ')}`));
        html += table(`${p.label} → ${c.label}`, {
          shape: p.shape === undefined || p.shape === null ? 'not a tensor' : `(${p.shape.join(', ')})`,
          dtype: p.dtype || '',
          bytes: p.bytes === undefined ? '' : p.bytes,
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
    $('tl-title').textContent = `${data.title} (${data.kind})`;
    if (data.stops.length > 1) {
      $('tl-stops').hidden = false;
      $('tl-slider').max = String(data.stops.length - 1);
    }
    if (data.cone.present) {
      $('tl-cone-toggle').hidden = false;
      $('tl-cone').checked = data.cone.shown;
    }
    if (data.records) records = JSON.parse(await unpack(data.records));
    await show(data.start);
    document.body.dataset.ready = '1';
  }
  window.tlDraw = { data, show, fit, search: (q) => search(q, true), get state() { return current; } };
  start();
})();
