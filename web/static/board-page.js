// The analysis board: moves for both sides, kept as a tree of variations as lichess's board
// keeps them. A move played where the line already goes on starts a variation instead of
// cutting the line; the cursor steps through it by keys (←/→, Home/End, ↑/↓), buttons,
// clicks and touch. The server judges one line at a time: the page sends the line from the
// start to the node it needs and gets back each move's SAN, the position after each, and the
// last position's legal moves. The engine's evaluation, best line, bar and arrow stream in
// while it is on.

import { Board } from './board.js';
import { t, languageSwitcher, showProblem, moveText, openingName, endingWords } from './i18n.js';

const $ = (id) => document.getElementById(id);
const start = JSON.parse($('start').textContent);
const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const SEVEN = [['Event', '?'], ['Site', '?'], ['Date', '????.??.??'], ['Round', '?'], ['White', '?'], ['Black', '?']];

/**
 * A node of the tree: the move that led to it (UCI, then its SAN once the server has said
 * it), the position after it, its children (the first is the main continuation), and, once
 * asked for, the server's answer for its position (legal moves, check, end).
 */
function makeNode(parent, uci) {
  return { parent, uci, san: null, fen: null, children: [], frame: null };
}

let root = null;
let cursor = null;
let tags = [];
let result = '*';
let startPly = 0; // plies before the start position, as the server counts them
let engineOn = false;
let socket = null;
let added = null; // a node just added by a move, until the server takes its line
let askTimer = null;

const board = new Board($('board'), {
  t,
  onMove: (from, to, promotion) => play(`${from}${to}${promotion || ''}`),
});

/** Starts the tree over: from `fen` (null: the normal start) along `moves` (UCI), the
 * cursor after `ply` of them; `tags` and `result` are the game's, for its PGN. */
function reset(fen, moves, ply, gameTags, gameResult) {
  root = makeNode(null, null);
  root.fen = fen || START_FEN;
  tags = gameTags || [];
  result = gameResult || '*';
  let node = root;
  const nodes = [root];
  for (const uci of moves) {
    const child = makeNode(node, uci);
    node.children.push(child);
    node = child;
    nodes.push(child);
  }
  cursor = nodes[Math.max(0, Math.min(nodes.length - 1, ply ?? moves.length))];
  draw();
}

function pathOf(node) {
  const path = [];
  for (let n = node; n.parent; n = n.parent) path.unshift(n.uci);
  return path;
}

function plyOf(node) {
  let k = 0;
  for (let n = node; n.parent; n = n.parent) k += 1;
  return startPly + k;
}

function send(frame) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
}

/** Asks for the cursor's position unless it is known: at once after a move, a moment after
 * the last of a run of steps (a held arrow key does not flood the server). */
function askForCursor(now) {
  clearTimeout(askTimer);
  if (cursor.frame) {
    if (engineOn) goEngine();
    return;
  }
  if (now) sendLine(cursor);
  else askTimer = setTimeout(() => sendLine(cursor), 120);
}

/** Sends the line from the start to `node`. */
function sendLine(node) {
  send({ t: 'line', d: { fen: root.fen === START_FEN ? undefined : root.fen, moves: pathOf(node) } });
}

/** The engine searches the cursor's position: its line is sent again (the server searches
 * the last line it was sent), then `go` when the answer comes. */
function goEngine() {
  $('eval-score').textContent = '…';
  $('eval-depth').textContent = '';
  $('eval-pv').textContent = '';
  sendLine(cursor);
}

/** A move on the board from the cursor: along the line when it goes that way, else a new
 * variation beside it. */
function play(uci) {
  let child = cursor.children.find((c) => c.uci === uci);
  if (!child) {
    child = makeNode(cursor, uci);
    cursor.children.push(child);
    added = child;
  }
  cursor = child;
  draw();
  askForCursor(true);
}

/** The server's answer for a line: every move's SAN and position, and the last one's moves. */
function onLine(d) {
  startPly = d.start_ply;
  let node = root;
  // Along the tree as far as it still has the line (a move deleted meanwhile ends it).
  for (const [i, uci] of d.moves.entries()) {
    const child = node.children.find((c) => c.uci === uci);
    if (!child) break;
    child.san = d.san[i];
    child.fen = d.fens[i];
    node = child;
  }
  if (pathOf(node).length === d.moves.length) {
    node.frame = d;
    if (node === added) added = null;
  }
  if (node === cursor && engineOn) send({ t: 'go' });
  draw();
}

// ---- drawing ------------------------------------------------------------------------------

function draw() {
  const f = cursor.frame;
  const last = cursor.uci;
  board.set({
    fen: cursor.fen || (f && f.fen) || root.fen,
    dests: f && !f.over ? f.dests || {} : {},
    promotions: (f && f.promotions) || {},
    movable: f && !f.over ? f.turn : null,
    lastMove: last ? [last.slice(0, 2), last.slice(2, 4)] : null,
    check: f ? f.check : null,
  });
  // An arrow belongs to the position it was found in.
  board.setArrows([]);
  drawTree();
  const fen = cursor.fen || root.fen;
  $('fen-out').value = fen;
  $('pgn-out').value = pgnText();
  const turn = fen.split(' ')[1] === 'b' ? 'black' : 'white';
  $('status').textContent = f && f.over ? overText(f.over) : t('to_move', { color: t(turn) });
  // Continue from here: the lobby's form with this position, against a bot or a friend.
  $('continue').hidden = !!(f && f.over);
  for (const opponent of ['bot', 'friend']) {
    $(`continue-${opponent}`).href = `/?${new URLSearchParams({ fen, opponent })}#create-title`;
  }
  const opening = f && f.opening;
  $('board-opening').hidden = !opening;
  $('board-opening').textContent = opening ? `${opening.eco} ${openingName(opening.name)}` : '';
  explore(fen);
  $('btn-prev').disabled = !cursor.parent;
  $('btn-first').disabled = !cursor.parent;
  $('btn-next').disabled = !cursor.children.length;
  $('btn-last').disabled = !cursor.children.length;
  $('btn-delete').disabled = !cursor.parent;
  $('btn-promote').disabled = !variationHead(cursor);
}

/** How the line ended, as the game page says it: "Checkmate — White wins". */
function overText(over) {
  const winner = { '1-0': t('white_wins'), '0-1': t('black_wins') }[over.result];
  const how = endingWords(over.termination);
  return winner ? `${how} — ${winner}` : how;
}

/** "12." before White's move, "12…" before Black's where a number is needed. */
function moveNumber(node) {
  const ply = plyOf(node) - 1;
  return ply % 2 === 0 ? `${ply / 2 + 1}.` : `${(ply - 1) / 2 + 1}…`;
}

function moveButton(node, numbered, into) {
  if (numbered || (plyOf(node) - 1) % 2 === 0) {
    const num = document.createElement('span');
    num.className = 'num';
    num.textContent = moveNumber(node);
    into.append(num);
  }
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'move';
  button.textContent = node.san ? moveText(node.san) : '…';
  if (node === cursor) button.setAttribute('aria-current', 'true');
  button.addEventListener('click', () => {
    cursor = node;
    draw();
    askForCursor(true);
  });
  into.append(button);
}

/** Writes the moves from `node` on into `into`: each main move, then its alternatives as
 * variations in brackets, then the line goes on. */
function drawLine(node, into, numbered) {
  let n = node;
  let number = numbered;
  while (n.children.length) {
    const [main, ...others] = n.children;
    moveButton(main, number, into);
    number = false;
    for (const other of others) {
      const box = document.createElement('span');
      box.className = 'variation';
      box.setAttribute('role', 'group');
      box.setAttribute('aria-label', t('variation'));
      moveButton(other, true, box);
      drawLine(other, box, false);
      into.append(box);
      number = true;
    }
    n = main;
  }
}

function drawTree() {
  const box = $('line');
  box.textContent = '';
  drawLine(root, box, true);
  const current = box.querySelector('[aria-current]');
  if (current) current.scrollIntoView({ block: 'nearest', inline: 'nearest' });
}

// ---- the PGN, with the game's tags and every variation -----------------------------------

function escapeTag(value) {
  return String(value).replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

function movetext(node, numbered, out) {
  let n = node;
  let number = numbered;
  while (n.children.length) {
    const [main, ...others] = n.children;
    const token = (x, forced) => {
      const ply = plyOf(x) - 1;
      if (ply % 2 === 0) out.push(`${ply / 2 + 1}.`);
      else if (forced) out.push(`${(ply - 1) / 2 + 1}...`);
      out.push(x.san || x.uci);
    };
    token(main, number);
    number = false;
    for (const other of others) {
      out.push('(');
      token(other, true);
      movetext(other, false, out);
      out.push(')');
      number = true;
    }
    n = main;
  }
}

function pgnText() {
  const lines = [];
  const have = new Map(tags);
  for (const [name, fallback] of SEVEN) lines.push(`[${name} "${escapeTag(have.get(name) ?? fallback)}"]`);
  lines.push(`[Result "${result}"]`);
  for (const [name, value] of tags) {
    if (!SEVEN.some(([n]) => n === name) && name !== 'Result') lines.push(`[${name} "${escapeTag(value)}"]`);
  }
  if (root.fen !== START_FEN) {
    lines.push('[SetUp "1"]');
    lines.push(`[FEN "${root.fen}"]`);
  }
  const tokens = [];
  movetext(root, true, tokens);
  tokens.push(result);
  // Lines of at most 80 characters; no space after "(" or before ")".
  let text = '';
  let width = 0;
  for (const token of tokens.join(' ').replace(/\( /g, '(').replace(/ \)/g, ')').split(' ')) {
    if (width && width + 1 + token.length > 80) {
      text += '\n';
      width = 0;
    } else if (width) {
      text += ' ';
      width += 1;
    }
    text += token;
    width += token.length;
  }
  return `${lines.join('\n')}\n\n${text}\n`;
}

// ---- the tree's tools ----------------------------------------------------------------------

/** The first move of the variation the node is in (the nearest node that is not its
 * parent's main continuation), or null on the main line. */
function variationHead(node) {
  for (let n = node; n.parent; n = n.parent) {
    if (n.parent.children[0] !== n) return n;
  }
  return null;
}

/** Makes the cursor's variation the main line from where it branches. */
function promote() {
  const head = variationHead(cursor);
  if (!head) return;
  const siblings = head.parent.children;
  siblings.splice(siblings.indexOf(head), 1);
  siblings.unshift(head);
  draw();
}

/** Deletes the cursor's move and everything after it; the cursor goes back one move. */
function deleteHere() {
  if (!cursor.parent) return;
  const parent = cursor.parent;
  parent.children.splice(parent.children.indexOf(cursor), 1);
  cursor = parent;
  draw();
  askForCursor(true);
}

function go(node) {
  if (!node || node === cursor) return;
  cursor = node;
  draw();
  askForCursor(false);
}

function lastOf(node) {
  let n = node;
  while (n.children.length) [n] = n.children;
  return n;
}

// ---- the explorer: Rookery's own games from this position ----------------------------------

const explored = new Map();
let exploring = null;

/** Shows the moves played from `fen` in the site's finished games and how they scored. */
async function explore(fen) {
  exploring = fen;
  let data = explored.get(fen);
  if (!data) {
    try {
      const res = await fetch(`/api/explorer?${new URLSearchParams({ fen })}`);
      data = res.ok ? await res.json() : { moves: [] };
    } catch {
      return;
    }
    explored.set(fen, data);
  }
  if (exploring !== fen) return;
  const rows = data.moves.map((m) => {
    const total = m.white + m.draws + m.black;
    const pct = (n) => `${Math.round((100 * n) / total)}%`;
    const row = document.createElement('tr');
    const cell = document.createElement('td');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'move';
    button.textContent = moveText(m.san);
    button.addEventListener('click', () => play(m.uci));
    cell.append(button);
    const games = document.createElement('td');
    games.textContent = String(total);
    const score = document.createElement('td');
    score.textContent = `${pct(m.white)} / ${pct(m.draws)} / ${pct(m.black)}`;
    row.append(cell, games, score);
    return row;
  });
  $('explorer-moves').querySelector('tbody').replaceChildren(...rows);
  $('explorer-moves').hidden = rows.length === 0;
  $('explorer-empty').hidden = rows.length > 0;
}

// ---- the engine ---------------------------------------------------------------------------

/** White's winning chances (0-100) of an evaluation, as lichess's bar shows them. */
function whiteShare(d) {
  if (d.mate !== null && d.mate !== undefined) return d.mate > 0 ? 100 : 0;
  const cp = Math.max(-1000, Math.min(1000, d.cp));
  return 50 + 50 * (2 / (1 + Math.exp(-0.00368208 * cp)) - 1);
}

function drawEval(d) {
  const score = d.mate !== null && d.mate !== undefined ? `#${d.mate}` : `${d.cp > 0 ? '+' : ''}${(d.cp / 100).toFixed(2)}`;
  $('eval-score').textContent = score;
  $('eval-depth').textContent = t('depth', { n: d.depth });
  $('eval-pv').textContent = d.pv.map(moveText).join(' ');
  $('eval-white').style.height = `${whiteShare(d).toFixed(1)}%`;
  $('eval-bar').title = `${t('eval_bar')}: ${score}`;
  board.setArrows(d.best ? [[d.best.slice(0, 2), d.best.slice(2, 4)]] : []);
}

function setEngine(on) {
  engineOn = on;
  $('btn-engine').setAttribute('aria-pressed', String(on));
  $('btn-engine').textContent = on ? t('engine_off') : t('engine_on');
  $('engine').hidden = !on;
  $('eval-bar').hidden = !on;
  $('eval-pv').textContent = '';
  $('eval-score').textContent = on ? '…' : '';
  $('eval-depth').textContent = '';
  board.setArrows([]);
  if (on) goEngine();
  else send({ t: 'stop' });
}

// ---- the connection -----------------------------------------------------------------------

function connect() {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  socket = new WebSocket(`${scheme}://${location.host}/analysis/socket`);
  socket.addEventListener('open', () => {
    showProblem($('board-error'), null);
    // The whole main line, for every move's SAN; then the cursor's position.
    sendLine(lastOf(root));
    if (lastOf(root) !== cursor) askForCursor(true);
  });
  socket.addEventListener('message', (e) => {
    const f = JSON.parse(e.data);
    if (f.t === 'loaded') {
      showProblem($('board-error'), null);
      reset(f.d.fen, f.d.moves, f.d.moves.length, f.d.tags, f.d.result);
      $('load-text').value = '';
    }
    if (f.t === 'line') onLine(f.d);
    if (f.t === 'eval' && engineOn) drawEval(f.d);
    if (f.t === 'error') {
      showProblem($('board-error'), f.d);
      // A refused move comes off the tree again.
      if (f.d.code === 'illegal_move' && added) {
        const parent = added.parent;
        parent.children.splice(parent.children.indexOf(added), 1);
        if (cursor === added) cursor = parent;
        added = null;
        draw();
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

$('btn-engine').addEventListener('click', () => setEngine(!engineOn));
$('btn-first').addEventListener('click', () => go(root));
$('btn-prev').addEventListener('click', () => go(cursor.parent));
$('btn-next').addEventListener('click', () => go(cursor.children[0]));
$('btn-last').addEventListener('click', () => go(lastOf(cursor)));
$('btn-promote').addEventListener('click', promote);
$('btn-delete').addEventListener('click', deleteHere);
$('btn-reset').addEventListener('click', () => {
  showProblem($('board-error'), null);
  reset(start.fen, [], 0, [], '*');
  askForCursor(true);
});
$('btn-flip').addEventListener('click', () => board.flip());
$('btn-copy-fen').addEventListener('click', () => copy('fen-out'));
$('btn-copy-pgn').addEventListener('click', () => copy('pgn-out'));
$('btn-load').addEventListener('click', load);
document.addEventListener('keydown', (e) => {
  if (e.target.closest && e.target.closest('input, select, textarea, [role=dialog]')) return;
  const steps = {
    ArrowLeft: () => cursor.parent,
    ArrowRight: () => cursor.children[0],
    Home: () => root,
    ArrowUp: () => root,
    End: () => lastOf(cursor),
    ArrowDown: () => lastOf(cursor),
  };
  if (e.key in steps && !e.altKey && !e.ctrlKey && !e.metaKey) {
    e.preventDefault();
    go(steps[e.key]());
  }
});
languageSwitcher();
reset(start.fen, start.moves || [], start.ply, start.tags, start.result || '*');
connect();
