// The analysis board: moves for both sides, each judged by the server (the line goes to the
// board's socket whole and comes back as a position with its legal moves); the engine's
// evaluation and best line stream in while it is on.

import { Board } from './board.js';
import { t, languageSwitcher, problemText } from './i18n.js';

const $ = (id) => document.getElementById(id);
const start = JSON.parse($('start').textContent);

/** The line being looked at: the start FEN (null: the normal start) and its moves (UCI). */
const line = { fen: start.fen, moves: start.moves || [] };
let engineOn = false;
let socket = null;
let shown = null; // the server's last `line` answer

const board = new Board($('board'), {
  t,
  onMove: (from, to, promotion) => {
    line.moves.push(`${from}${to}${promotion || ''}`);
    sendLine();
  },
});

function send(frame) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
}

function sendLine() {
  send({ t: 'line', d: { fen: line.fen || undefined, moves: line.moves } });
  $('engine').hidden = !engineOn;
  $('eval-pv').textContent = '';
  $('eval-score').textContent = '…';
  $('eval-depth').textContent = '';
}

function drawLine(d) {
  shown = d;
  board.set({
    fen: d.fen,
    dests: d.over ? {} : d.dests || {},
    promotions: d.promotions || {},
    movable: d.over ? null : d.turn,
    lastMove: d.last ? [d.last.slice(0, 2), d.last.slice(2, 4)] : null,
    check: d.check,
  });
  const list = $('line');
  list.textContent = '';
  d.san.forEach((san, i) => {
    const item = document.createElement('li');
    // Move numbers as the server counts them from the start position.
    const ply = d.start_ply + i;
    if (ply % 2 === 0 || i === 0) {
      const num = document.createElement('span');
      num.className = 'num';
      num.textContent = ply % 2 === 0 ? `${ply / 2 + 1}.` : `${(ply - 1) / 2 + 1}…`;
      item.append(num);
    }
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = san;
    button.dataset.ply = i + 1;
    // Going back to a move drops what followed it.
    button.addEventListener('click', () => {
      line.moves = line.moves.slice(0, i + 1);
      sendLine();
    });
    item.append(button);
    list.append(item);
  });
  $('fen-out').value = d.fen;
  $('pgn-out').value = d.pgn;
  $('status').textContent = d.over ? overText(d.over) : t('to_move', { color: t(d.turn) });
  if (engineOn) send({ t: 'go' });
}

/** How the line ended, as the game page says it: "Checkmate — White wins". */
function overText(over) {
  const winner = { '1-0': t('white_wins'), '0-1': t('black_wins') }[over.result];
  const how = t(`end_${over.termination}`);
  return winner ? `${how} — ${winner}` : how;
}

function drawEval(d) {
  const score = d.mate !== null && d.mate !== undefined ? `#${d.mate}` : `${d.cp > 0 ? '+' : ''}${(d.cp / 100).toFixed(2)}`;
  $('eval-score').textContent = score;
  $('eval-depth').textContent = t('depth', { n: d.depth });
  $('eval-pv').textContent = d.pv.join(' ');
}

function connect() {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  socket = new WebSocket(`${scheme}://${location.host}/analysis/socket`);
  socket.addEventListener('open', () => {
    $('board-error').textContent = '';
    sendLine();
  });
  socket.addEventListener('message', (e) => {
    const f = JSON.parse(e.data);
    if (f.t === 'loaded') {
      line.fen = f.d.fen;
      line.moves = f.d.moves;
    }
    if (f.t === 'line') drawLine(f.d);
    if (f.t === 'eval' && engineOn) drawEval(f.d);
    if (f.t === 'error') {
      $('board-error').textContent = problemText(f.d);
      // A refused move comes off the line again.
      if (f.d.code === 'illegal_move' && line.moves.length) {
        line.moves.pop();
        sendLine();
      }
    }
  });
  socket.addEventListener('close', () => setTimeout(connect, 1000));
}

function copy(id) {
  const el = $(id);
  el.select();
  navigator.clipboard?.writeText(el.value).catch(() => {});
}

/** A pasted FEN or PGN: the server reads it and the board starts over from it. */
function load() {
  const text = $('load-text').value.trim();
  if (text) send({ t: 'load', d: { text } });
}

$('btn-engine').addEventListener('click', () => {
  engineOn = !engineOn;
  $('btn-engine').setAttribute('aria-pressed', String(engineOn));
  $('btn-engine').textContent = engineOn ? t('engine_off') : t('engine_on');
  $('engine').hidden = !engineOn;
  send({ t: engineOn ? 'go' : 'stop' });
});
$('btn-back').addEventListener('click', () => {
  line.moves.pop();
  sendLine();
});
$('btn-reset').addEventListener('click', () => {
  line.fen = start.fen;
  line.moves = [];
  sendLine();
});
$('btn-flip').addEventListener('click', () => board.flip());
$('btn-copy-fen').addEventListener('click', () => copy('fen-out'));
$('btn-copy-pgn').addEventListener('click', () => copy('pgn-out'));
$('btn-load').addEventListener('click', load);
languageSwitcher();
connect();
