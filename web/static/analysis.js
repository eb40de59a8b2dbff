// Computer analysis on the game page: request it, show its progress, then the evaluation
// graph (click a point to see that move), the judgements in the move list (the server's
// symbols and better moves) and each side's summary. Every figure comes from the server.

import { t, problemText, moveText } from './i18n.js';

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 600;
const HEIGHT = 120;

/** The analysis as the server last said it (`status`, then `wins`, `moves`, sides). */
export let analysis = null;

function svg(name, attrs) {
  const el = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

/** Draws White's Win% along the game; `shown` is the ply on the board; `go(ply)` shows one. */
export function drawGraph(shown, go) {
  const box = $('eval-graph');
  if (!analysis || analysis.status !== 'done') return;
  const wins = analysis.wins;
  const x = (i) => (wins.length > 1 ? (i * WIDTH) / (wins.length - 1) : WIDTH / 2);
  const y = (w) => HEIGHT - (w / 100) * HEIGHT;
  const graph = svg('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-label': t('eval_graph') });
  graph.appendChild(svg('rect', { x: 0, y: 0, width: WIDTH, height: HEIGHT, class: 'black-side' }));
  const points = wins.map((w, i) => `${x(i).toFixed(1)},${y(w).toFixed(1)}`);
  graph.appendChild(svg('polygon', { points: `0,${HEIGHT} ${points.join(' ')} ${WIDTH},${HEIGHT}`, class: 'white-side' }));
  graph.appendChild(svg('line', { x1: 0, x2: WIDTH, y1: HEIGHT / 2, y2: HEIGHT / 2, class: 'middle' }));
  wins.forEach((w, i) => {
    const judged = i > 0 && analysis.moves[i - 1];
    if (!judged) return;
    graph.appendChild(svg('circle', { cx: x(i), cy: y(w), r: 4, class: `mark ${judged.judgement.toLowerCase()}` }));
  });
  graph.appendChild(svg('line', { x1: x(shown), x2: x(shown), y1: 0, y2: HEIGHT, class: 'now' }));
  const plyAt = (e) => {
    const rect = graph.getBoundingClientRect();
    const at = ((e.clientX - rect.left) / rect.width) * (wins.length - 1);
    return Math.max(0, Math.min(wins.length - 1, Math.round(at)));
  };
  graph.addEventListener('click', (e) => go(plyAt(e)));
  // Hovering says which move a point is and how the engine judged the position after it.
  const hover = document.createElement('p');
  hover.className = 'graph-hover muted';
  hover.id = 'graph-hover';
  graph.addEventListener('pointermove', (e) => {
    hover.textContent = pointText(plyAt(e));
  });
  graph.addEventListener('pointerleave', () => {
    hover.textContent = '';
  });
  box.replaceChildren(graph, hover);
  box.hidden = false;
}

/** "12. Nf3 +0.35" (or "#-3"): the move that reached ply `ply` and the evaluation after it. */
function pointText(ply) {
  const e = analysis.evals && analysis.evals[ply];
  const score = !e ? '' : e.mate !== undefined ? `#${e.mate}` : `${e.cp > 0 ? '+' : ''}${(e.cp / 100).toFixed(2)}`;
  if (ply === 0) return `${t('graph_start')} ${score}`;
  const san = analysis.sans ? analysis.sans[ply - 1] : '';
  const num = analysis.startPly + ply - 1;
  const label = num % 2 === 0 ? `${num / 2 + 1}.` : `${(num - 1) / 2 + 1}…`;
  return `${label} ${moveText(san || '')} ${score}`.trim();
}

/** Says under the board how the move at `ply` was judged ("Blunder. Qxf3 was best."), so a
 * touch screen, which has no tooltips, shows it too. */
export function drawJudgement(ply) {
  const note = $('judgement-note');
  if (!note) return;
  const judged = ply > 0 ? judgementOf(ply) : null;
  note.hidden = !judged;
  note.className = judged ? `judgement-note ${judged.kind}` : 'judgement-note';
  note.textContent = judged ? judged.title : '';
}

/** The moves' SAN and the start's ply, for the graph's words. */
export function setMoves(sans, startPly) {
  if (analysis) {
    analysis.sans = sans;
    analysis.startPly = startPly;
  }
}

/** The judgement of ply `ply` (1-based), for the move list: `{symbol, title}` or null. */
export function judgementOf(ply) {
  const m = analysis && analysis.moves && analysis.moves[ply - 1];
  if (!m) return null;
  const judgement = t(`judgement_${m.judgement}`);
  return { symbol: m.symbol, kind: m.judgement.toLowerCase(), title: m.best ? t('was_best', { judgement, best: moveText(m.best) }) : judgement };
}

function fillSummary() {
  for (const color of ['white', 'black']) {
    const s = analysis[color];
    for (const key of ['inaccuracies', 'mistakes', 'blunders', 'acpl']) $(`s-${color}-${key}`).textContent = s[key];
    $(`s-${color}-accuracy`).textContent = s.accuracy === null ? '–' : `${s.accuracy}%`;
  }
  $('analysis-summary').hidden = false;
  // The mistakes and blunders to learn from: the link, where there are any.
  const link = $('learn-link');
  if (link) link.hidden = !['white', 'black'].some((c) => analysis[c].mistakes + analysis[c].blunders > 0);
}

function showState(redraw) {
  const status = analysis ? analysis.status : 'none';
  $('btn-analysis').hidden = status !== 'none';
  const progress = $('analysis-progress');
  progress.hidden = status !== 'queued' && status !== 'running';
  if (status === 'queued') progress.textContent = t('analysis_queued');
  if (status === 'running') {
    progress.textContent = analysis.total ? t('analysis_running', { done: analysis.done, total: analysis.total }) : t('analysis_queued');
  }
  if (status === 'done') {
    fillSummary();
    redraw();
  }
}

async function poll(id, redraw) {
  while (analysis && analysis.status !== 'done' && analysis.status !== 'none') {
    await new Promise((r) => setTimeout(r, 1000));
    try {
      analysis = await (await fetch(`/api/games/${id}/analysis`)).json();
    } catch {
      // Try again in a second.
    }
    showState(redraw);
  }
}

/** Shows the analysis section of finished game `id`; `redraw` redraws the page. */
export async function initAnalysis(id, redraw) {
  const section = $('analysis');
  if (!section.hidden) return;
  section.hidden = false;
  try {
    analysis = await (await fetch(`/api/games/${id}/analysis`)).json();
  } catch {
    analysis = { status: 'none' };
  }
  showState(redraw);
  poll(id, redraw);
  $('btn-analysis').addEventListener('click', async () => {
    $('btn-analysis').disabled = true;
    const res = await fetch(`/api/games/${id}/analysis`, { method: 'POST', credentials: 'same-origin' });
    const reply = await res.json().catch(() => ({}));
    $('btn-analysis').disabled = false;
    if (!res.ok) {
      $('analysis-progress').hidden = false;
      $('analysis-progress').textContent = problemText(reply) || res.statusText;
      return;
    }
    analysis = reply;
    showState(redraw);
    poll(id, redraw);
  });
}
