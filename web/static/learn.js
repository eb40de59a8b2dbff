// Learning from one's own mistakes: each mistake and blunder of a side, from the position
// before it, is an exercise — find a better move. The server's engine judges each move tried
// (the engine's move, a good one, the mistake again, or worse); the solution comes on
// request. A move is made on the board (drag, two clicks or taps, the keyboard) or typed.

import { Board } from './board.js';
import { t, showProblem, moveText } from './i18n.js';

const $ = (id) => document.getElementById(id);
const page = JSON.parse($('page').textContent);

let color = page.color || 'white';
let list = [];
let at = 0;
// 'trying' (a move is awaited), 'waiting' (the server judges one), 'failed', 'solved',
// 'shown' (the solution is on the board), 'done'.
let state = 'trying';

const board = new Board($('board'), {
  t,
  onMove: (from, to, promotion) => attempt(`${from}${to}${promotion || ''}`, [from, to]),
});

function showButtons(shown) {
  for (const [id, visible] of Object.entries(shown)) $(id).hidden = !visible;
}

function current() {
  return list[at];
}

function api(path, body) {
  const init = body === undefined
    ? { method: 'POST' }
    : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
  return fetch(`/api/games/${page.id}/exercises${path}?color=${color}`, init)
    .then(async (r) => ({ ok: r.ok, body: await r.json() }));
}

function drawProgress() {
  const solved = list.filter((e) => e.solved).length;
  $('learn-progress').textContent = list.length
    ? t('learn_progress', { n: Math.min(at + 1, list.length), total: list.length, solved })
    : '';
}

/** Sets the board to the exercise's position, `movable` or not, with a move marked. */
function setBoard(movable, lastMove = null) {
  const e = current();
  board.set({
    fen: e.fen,
    dests: e.moves.dests,
    promotions: e.moves.promotions,
    movable: movable ? color : null,
    lastMove,
  });
}

function show() {
  const e = current();
  $('learn-error').textContent = '';
  if (!e) {
    finish();
    return;
  }
  state = 'trying';
  board.setArrows([]);
  setBoard(true);
  const move = e.fen.split(' ')[5];
  $('learn-prompt').textContent = t('learn_prompt', {
    move,
    san: moveText(e.played),
    judgement: t(`judgement_${e.judgement}`).toLowerCase(),
    side: t(color),
  });
  $('learn-feedback').textContent = '';
  $('learn-move').value = '';
  $('learn-form').hidden = false;
  showButtons({ 'btn-retry': false, 'btn-solution': true, 'btn-skip': true, 'btn-next': false });
  drawProgress();
}

function finish() {
  state = 'done';
  const solved = list.filter((e) => e.solved).length;
  $('learn-prompt').textContent = list.length
    ? t('learn_done', { solved, total: list.length })
    : t('learn_none', { side: t(color) });
  $('learn-feedback').textContent = '';
  $('learn-form').hidden = true;
  showButtons({ 'btn-retry': false, 'btn-solution': false, 'btn-skip': false, 'btn-next': false });
  if (list.length) {
    board.set({ fen: list[list.length - 1].fen, movable: null });
    at = list.length;
  }
  drawProgress();
}

async function attempt(move, squares = null) {
  if (state !== 'trying' || !move) return;
  const e = current();
  state = 'waiting';
  setBoard(false, squares);
  $('learn-feedback').textContent = t('learn_checking');
  const { ok, body } = await api(`/${e.ply}`, { move });
  if (!ok) {
    state = 'trying';
    setBoard(true);
    $('learn-feedback').textContent = '';
    showProblem($('learn-error'), body);
    return;
  }
  const san = moveText(body.san);
  if (body.solved) {
    state = 'solved';
    if (!e.shown) e.solved = true;
    $('learn-feedback').textContent = t(body.verdict === 'best' ? 'learn_best' : 'learn_good', { san });
    $('learn-form').hidden = true;
    showButtons({ 'btn-retry': false, 'btn-solution': false, 'btn-skip': false, 'btn-next': true });
    $('btn-next').focus();
  } else {
    state = 'failed';
    $('learn-feedback').textContent = t(body.verdict === 'played' ? 'learn_played' : 'learn_worse', { san });
    showButtons({ 'btn-retry': true, 'btn-solution': true, 'btn-skip': true, 'btn-next': false });
    $('btn-retry').focus();
  }
  drawProgress();
}

async function solution() {
  const e = current();
  if (!e || state === 'waiting' || state === 'done') return;
  const { ok, body } = await api(`/${e.ply}/solution`);
  if (!ok) {
    showProblem($('learn-error'), body);
    return;
  }
  state = 'shown';
  e.shown = true;
  const from = body.uci.slice(0, 2);
  const to = body.uci.slice(2, 4);
  setBoard(false, [from, to]);
  board.setArrows([[from, to]]);
  $('learn-feedback').textContent = t('learn_solution', { san: moveText(body.san) });
  $('learn-form').hidden = true;
  showButtons({ 'btn-retry': false, 'btn-solution': false, 'btn-skip': false, 'btn-next': true });
  $('btn-next').focus();
}

function next() {
  if (state === 'waiting') return;
  at += 1;
  show();
}

async function load() {
  const query = page.color ? `?color=${page.color}` : '';
  const r = await fetch(`/api/games/${page.id}/exercises${query}`);
  const body = await r.json();
  if (!r.ok) {
    showProblem($('learn-error'), body);
    $('learn-form').hidden = true;
    showButtons({ 'btn-retry': false, 'btn-solution': false, 'btn-skip': false, 'btn-next': false });
    return;
  }
  color = body.color;
  list = body.exercises;
  $('learn-guest').hidden = body.kept;
  for (const side of ['white', 'black']) {
    if (side === color) $(`side-${side}`).setAttribute('aria-current', 'true');
    else $(`side-${side}`).removeAttribute('aria-current');
  }
  board.setOrientation(color);
  // Start at the first exercise not yet done (all done: from the first again).
  at = Math.max(0, list.findIndex((e) => !e.solved && !e.shown));
  if (list.length) show();
  else finish();
}

$('btn-retry').addEventListener('click', () => {
  if (state === 'failed') show();
});
$('btn-solution').addEventListener('click', solution);
$('btn-skip').addEventListener('click', next);
$('btn-next').addEventListener('click', next);
$('learn-form').addEventListener('submit', (event) => {
  event.preventDefault();
  attempt($('learn-move').value.trim());
});

load();
