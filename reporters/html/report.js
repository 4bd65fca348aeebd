// Lays out report.html from the JSON in #report-data. Every string in it
// may come from the server under test, so text only ever reaches the page
// through textContent and attributes set one by one: never innerHTML.
(function () {
  'use strict';
  var ROW = 22; // px: every timeline row has this height, so rows can be placed without measuring
  var D = JSON.parse(document.getElementById('report-data').textContent);
  var main = document.getElementById('main');

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function add(parent, child) { parent.appendChild(child); return child; }
  function section(title, id) {
    var s = add(main, el('section', null));
    s.id = id;
    add(s, el('h2', null, title));
    return s;
  }
  // A link only to the web pages the clauses cite: a server's string never
  // becomes a javascript: or data: URL.
  function link(url, text) {
    if (!/^https:\/\//.test(url)) return el('span', null, text);
    var a = el('a', null, text);
    a.href = url;
    a.rel = 'noreferrer noopener';
    a.target = '_blank';
    return a;
  }

  // pins[run][line] lists the findings a message carries.
  var pins = D.runs.map(function () { return {}; });
  function pinAll(list) {
    list.forEach(function (f) {
      if (!pins[f.run] || !f.line) return;
      (pins[f.run][f.line] = pins[f.run][f.line] || []).push(f);
    });
  }
  D.clauses.forEach(function (c) { pinAll(c.findings); });
  pinAll(D.contract);
  pinAll(D.wire);

  function header() {
    var h = add(main, el('header', 'verdict v-' + D.verdict));
    var h1 = add(h, el('h1', null, D.tool + ' ' + D.version + ': '));
    add(h1, el('span', null, D.verdict)).id = 'verdict';
    if (D.scope) add(h, el('p', 'scope', D.scope));
    var t = add(h, el('p', 'totals'));
    t.id = 'totals';
    [['pass', D.totals.pass], ['fail', D.totals.fail], ['warn', D.totals.warn], ['not observed', D.totals.not_observed],
      ['not applicable', D.totals.not_applicable], ['excluded', D.totals.excluded]].forEach(function (p) {
      add(t, el('span', 'total', p[0] + ' ' + p[1]));
    });
    if (D.ledger) {
      var l = add(h, el('p', 'ledger'));
      l.id = 'ledger';
      add(l, el('span', null, 'ledger head '));
      add(l, el('code', null, D.ledger.head));
      add(l, el('span', null, D.ledger.signed ? ' signed (' + D.ledger.bundle + '; ledger verify checks it)' : ' not signed'));
    }
  }

  function findingItem(f) {
    var li = el('li', 'finding');
    li.dataset.run = f.run;
    li.dataset.line = f.line;
    var b = add(li, el('button', 'goto', D.runs[f.run] ? 'line ' + f.line : 'no message'));
    b.type = 'button';
    b.addEventListener('click', function () { show(f.run, f.line); });
    add(li, el('span', 'party', f.party));
    add(li, el('span', 'message', f.message));
    return li;
  }

  function findings() {
    var s = section('Findings by clause', 'findings');
    if (D.clauses.length === 0 && D.wire.length === 0) add(s, el('p', 'none', 'No clause failed or warned.'));
    D.clauses.forEach(function (c) {
      var box = add(s, el('div', 'clause o-' + c.outcome));
      box.dataset.clause = c.id;
      var h = add(box, el('h3', null));
      add(h, link(c.url, c.id));
      add(h, el('span', 'level', ' ' + c.level + ' ' + c.outcome));
      add(box, el('blockquote', null, c.quote));
      if (c.reason) add(box, el('p', 'reason', c.reason));
      var ul = add(box, el('ul', null));
      c.findings.forEach(function (f) { add(ul, findingItem(f)); });
    });
    if (D.wire.length) {
      var w = add(s, el('div', 'clause o-fail'));
      add(w, el('h3', null, 'Messages the wire schema refuses'));
      var ul = add(w, el('ul', null));
      D.wire.forEach(function (f) { add(ul, findingItem(f)); });
    }
  }

  // The drift field by field when the run kept it, else the contract
  // clauses' findings, which say the same in one line each.
  function contract() {
    if (!D.drift.length && !D.contract.length) return;
    var s = section('Contract drift', 'contract');
    D.drift.forEach(function (d) {
      var box = add(s, el('div', 'drift'));
      add(box, el('h3', null, d.tool + ' · ' + d.check));
      add(box, el('p', null, d.detail));
      if (!d.changes.length) return;
      var table = add(box, el('table', null));
      var hr = add(table, el('tr', null));
      ['field', 'locked', 'served now'].forEach(function (x) { add(hr, el('th', null, x)); });
      d.changes.forEach(function (c) {
        var tr = add(table, el('tr', null));
        add(tr, el('td', null, c.field));
        add(add(tr, el('td', 'old')), el('pre', null, pretty(c.old)));
        add(add(tr, el('td', 'new')), el('pre', null, pretty(c.new)));
      });
    });
    if (D.drift.length) return;
    var ul = add(s, el('ul', null));
    D.contract.forEach(function (f) {
      var li = add(ul, el('li', 'finding'));
      add(li, el('code', null, f.clause));
      add(li, el('span', 'message', ' ' + f.message));
    });
  }

  // An extension's verdict stands beside the page's: its rows are listed
  // here when it was not asked for, and count in no total above.
  function extensions() {
    if (!D.extensions.length) return;
    var s = section('Extensions', 'extensions');
    D.extensions.forEach(function (x) {
      add(s, el('h3', 'verdict v-' + x.verdict, x.headline));
      x.clauses.forEach(function (c) {
        var box = add(s, el('div', 'clause o-' + c.outcome));
        add(box, el('h4', null, c.outcome.toUpperCase() + ' ' + c.id + ' (' + c.level + ')'));
        add(box, el('p', 'quote', c.quote));
        var ul = add(box, el('ul', null));
        c.findings.forEach(function (f) { add(ul, findingItem(f)); });
      });
    });
  }

  function probes() {
    if (!D.probes.length) return;
    var s = section('Probe verdicts', 'probes');
    D.probes.forEach(function (p) {
      add(s, el('h3', null, p.definition + ' (' + p.runs + ' runs, ' + p.attempts + ' concurrent attempts)'));
      p.tools.forEach(function (t) {
        var box = add(s, el('div', 'tool'));
        add(box, el('h4', null, t.tool));
        var table = add(box, el('table', null));
        var hr = add(table, el('tr', null));
        ['test', 'verdict', 'observed', 'detail'].forEach(function (x) { add(hr, el('th', null, x)); });
        t.tests.forEach(function (r) {
          var tr = add(table, el('tr', 'pv-' + r.verdict));
          [r.test, r.verdict, r.observed, r.detail].forEach(function (x) { add(tr, el('td', null, x)); });
        });
        var det = add(box, el('details', null));
        add(det, el('summary', null, 'evidence: deltas per run, errored calls'));
        add(det, el('pre', null, t.evidence));
      });
    });
  }

  // The timeline holds every event in memory and only the rows in view in
  // the page, so a trace of any length opens as fast as a short one.
  var tl = { run: -1, rows: [], selected: -1 };
  var tabs, info, filter, view, space, detail;

  function sessions() {
    var s = section('Sessions', 'sessions');
    tabs = add(s, el('div', 'tabs'));
    D.runs.forEach(function (r, i) {
      var b = add(tabs, el('button', 'tab', r.trace + ' (' + r.revision + (r.transport ? ', ' + r.transport : '') + ')'));
      b.type = 'button';
      b.addEventListener('click', function () { selectRun(i); });
    });
    info = add(s, el('p', 'runinfo'));
    filter = add(s, el('input', 'filter'));
    filter.type = 'search';
    filter.placeholder = 'filter: method, id, line, text';
    filter.id = 'filter';
    var timer = 0;
    filter.addEventListener('input', function () { clearTimeout(timer); timer = setTimeout(applyFilter, 120); });
    var cols = add(s, el('div', 'row cols'));
    ['line', 'ms', 'dir', 'kind', 'method', 'id', 'http / stream', 'findings'].forEach(function (c) { add(cols, el('span', null, c)); });
    view = add(s, el('div', 'timeline'));
    view.id = 'timeline';
    space = add(view, el('div', 'space'));
    view.addEventListener('scroll', function () { requestAnimationFrame(paint); });
    detail = add(s, el('div', 'detail'));
    detail.id = 'detail';
    if (D.runs.length) selectRun(0);
  }

  function selectRun(i) {
    tl.run = i;
    tl.selected = -1;
    var r = D.runs[i];
    Array.prototype.forEach.call(tabs.children, function (b, k) { b.classList.toggle('on', k === i); });
    var t0 = r.events.length ? r.events[0].t || 0 : 0;
    tl.t0 = t0;
    info.textContent = r.events.length + ' events' + (r.incomplete ? '; incomplete: ' + r.incomplete : '') +
      (r.unreadable ? '; timeline: ' + r.unreadable : '') + (r.notes && r.notes.length ? '; ' + r.notes.join('; ') : '');
    filter.value = '';
    applyFilter();
    detail.textContent = '';
  }

  function applyFilter() {
    var r = D.runs[tl.run], q = filter.value.toLowerCase(), rows = [];
    for (var i = 0; i < r.events.length; i++) {
      var e = r.events[i];
      if (!q || matches(e, q)) rows.push(i);
    }
    tl.rows = rows;
    space.style.height = rows.length * ROW + 'px';
    view.scrollTop = 0;
    paint();
  }

  function matches(e, q) {
    return String(e.l) === q || [e.m, e.i, e.h, e.k, e.s, e.p].some(function (x) { return x && String(x).toLowerCase().indexOf(q) >= 0; }) ||
      (pins[tl.run][e.l] || []).some(function (f) { return f.clause.toLowerCase().indexOf(q) >= 0 || f.message.toLowerCase().indexOf(q) >= 0; });
  }

  function paint() {
    var first = Math.max(0, Math.floor(view.scrollTop / ROW) - 5);
    var last = Math.min(tl.rows.length, first + Math.ceil(view.clientHeight / ROW) + 10);
    while (space.firstChild) space.removeChild(space.firstChild);
    for (var k = first; k < last; k++) space.appendChild(row(k));
  }

  function row(k) {
    var i = tl.rows[k], e = D.runs[tl.run].events[i], p = pins[tl.run][e.l];
    var div = el('div', 'row d-' + (e.d === 'client-to-server' ? 'c' : 's') + (p ? ' pinned' : '') + (i === tl.selected ? ' selected' : ''));
    div.style.top = k * ROW + 'px';
    div.dataset.line = e.l;
    var ms = e.t ? ((e.t - tl.t0) / 1e6).toFixed(1) : '';
    var http = (e.x ? '#' + e.x + ' ' : '') + (e.h || '') + (e.s ? ' ' + e.s : '');
    [e.l, ms, e.d === 'client-to-server' ? 'C→S' : 'S→C', e.k, e.m || '', e.i || '', http,
      p ? '⚑ ' + p.map(function (f) { return f.clause; }).join(' ') : ''].forEach(function (c) { add(div, el('span', null, c)); });
    div.addEventListener('click', function () { select(i); });
    return div;
  }

  function select(i) {
    tl.selected = i;
    paint();
    var e = D.runs[tl.run].events[i];
    detail.textContent = '';
    add(detail, el('h3', null, 'line ' + e.l + ' · seq ' + e.q + ' · ' + e.d + ' · ' + e.k + (e.m ? ' · ' + e.m : '') +
      (e.i ? ' · id ' + e.i : '') + (e.n ? ' · session ' + e.n : '')));
    (pins[tl.run][e.l] || []).forEach(function (f) {
      var p = add(detail, el('p', 'pin'));
      add(p, el('code', null, f.clause));
      add(p, el('span', null, ' ' + f.message));
    });
    add(detail, el('pre', 'json', pretty(e.p)));
  }

  function pretty(text) {
    if (!text) return '';
    try { return JSON.stringify(JSON.parse(text), null, 2); } catch (err) { return text; }
  }

  // show brings a finding's message into view and opens it.
  function show(run, line) {
    if (run !== tl.run) selectRun(run);
    if (filter.value) { filter.value = ''; applyFilter(); }
    var evs = D.runs[run].events, lo = 0, hi = evs.length - 1;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (evs[mid].l < line) lo = mid + 1; else hi = mid; }
    if (!evs.length || evs[lo].l !== line) return;
    view.scrollTop = Math.max(0, lo * ROW - view.clientHeight / 2);
    select(lo);
    document.getElementById('sessions').scrollIntoView();
  }

  header();
  findings();
  contract();
  extensions();
  probes();
  sessions();
  // A link into the page (#run=R&line=L, as serve's search and diff give)
  // opens that message.
  var at = /^#run=(\d+)&line=(\d+)$/.exec(location.hash);
  if (at && D.runs[+at[1]]) show(+at[1], +at[2]);
  document.body.dataset.ready = 'true';
})();
