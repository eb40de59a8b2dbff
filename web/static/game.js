// The game page: one WebSocket to the game's room (docs/PROTOCOL.md), the board, clocks,
// move list, controls and status. Everything the rules decide comes from the server: legal
// destinations, what a player may do (`can`), checks and results.

import { analysis, drawGraph, drawJudgement, initAnalysis, judgementOf, setMoves } from './analysis.js';
import { Board, parsePlacement } from './board.js';
import { pieceSvg } from './pieces.js';
import { t, languageSwitcher, problemText, prefs, savePrefs, formatClock, letters, moveText, playerName, openingName, endingWords } from './i18n.js';
import { play, isMuted, setMuted } from './sound.js';
import { addLine, initChat } from './chat.js';

const page = JSON.parse(document.getElementById('page').textContent);
const $ = (id) => document.getElementById(id);

const game = {
  v: 0,
  fens: [],
  san: [],
  uci: [],
  clocks: null,
  clocksAt: 0,
  running: null,
  check: null,
  offer: null,
  over: null,
  can: null,
  dests: null,
  promotions: null,
  material: [0],
  startPly: 0,
  turn: 'white',
  waiting: false, // nobody has taken the other seat yet
  you: page.you,
};
let viewPly = null; // null: the live position; else a ply shown read-only
let pendingOffer = false;
let ackId = 0;
let socket = null;
let retry = 0;
let opponentGone = null; // {since, claimAfter}
let rematchOffer = null;
// When the player's turn began on this page (the opponent's move arrived): the thinking
// time sent with each move, so the server counts the rest of its watch as lag (R6).
let turnSince = null;
// The connection's round trip as this page measures it (ping frames), for the lag bars.
let pingSent = null;
let roundTrip = null;

const board = new Board($('board'), {
  // One's own side at the bottom, unless the reader prefers White there always.
  orientation: prefs.orientation === 'white' ? 'white' : (page.you || 'white'),
  onMove: confirmOrSend,
  onPremove: () => redraw(),
  t,
});

// ---- socket ------------------------------------------------------------------------------

function connect() {
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  const since = game.v ? `?v=${game.v}` : '';
  socket = new WebSocket(`${proto}://${location.host}/game/${page.id}/socket${since}`);
  socket.addEventListener('open', () => {
    retry = 0;
    $('connection').hidden = true;
    pingSent = null;
  });
  socket.addEventListener('message', (e) => {
    let frame;
    try {
      frame = JSON.parse(e.data);
    } catch {
      return;
    }
    receive(frame);
  });
  socket.addEventListener('close', () => {
    socket = null;
    $('connection').hidden = false;
    const wait = Math.min(5000, 500 * 2 ** retry);
    retry += 1;
    setTimeout(connect, wait);
  });
}

function send(type, d = {}) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    flash(t('not_connected'));
    return false;
  }
  ackId += 1;
  socket.send(JSON.stringify({ t: type, d: { ...d, a: ackId } }));
  return true;
}

let flashTimer = null;
/** A short message under the status line (errors, confirmations). */
function flash(message) {
  const el = $('flash');
  el.textContent = message;
  clearTimeout(flashTimer);
  flashTimer = setTimeout(() => {
    el.textContent = '';
  }, 5000);
}

/** The opening played so far, as the server names it (lichess's tables). */
function showOpening(opening) {
  if (opening === undefined) return;
  const el = $('opening');
  el.hidden = !opening;
  el.textContent = opening ? `${opening.eco} ${openingName(opening.name)}` : '';
}

function receive(f) {
  if (typeof f.v === 'number') {
    if (f.t !== 'state' && f.v <= game.v) return;
    game.v = Math.max(game.v, f.v);
  }
  const d = f.d || {};
  switch (f.t) {
    case 'pong':
      if (pingSent !== null) {
        roundTrip = performance.now() - pingSent;
        pingSent = null;
        drawLag();
      }
      break;
    case 'state':
      game.v = f.v;
      game.fens = [d.start_fen, ...d.fens];
      game.san = d.san;
      game.uci = d.uci;
      setClocks(d.clocks, d.running);
      game.check = d.check;
      game.offer = d.offer;
      game.over = d.over;
      game.can = d.can;
      game.dests = d.dests;
      game.promotions = d.promotions;
      game.material = d.material;
      game.startPly = d.start_ply;
      game.turn = d.turn;
      game.waiting = !!d.waiting;
      if (d.you) game.you = d.you;
      game.berserk = d.berserk || [];
      showOpening(d.opening);
      if (game.you && game.turn === game.you && turnSince === null) turnSince = performance.now();
      redraw();
      break;
    case 'move': {
      game.fens.push(d.fen);
      game.san.push(d.san);
      if (d.by === game.you) lastTyped = null;
      game.uci.push(d.uci);
      game.turn = d.by === 'white' ? 'black' : 'white';
      game.check = d.check;
      game.dests = d.dests;
      game.promotions = d.promotions;
      game.material.push(d.material);
      if (d.can !== undefined) game.can = d.can;
      game.offer = null;
      setClocks(d.clocks, d.running === undefined ? game.turn : d.running);
      play(d.check ? 'check' : d.capture ? 'capture' : 'move');
      announce(t('sr_move', { color: t(d.by), move: sanWords(d.san) })
        + (game.you && game.turn === game.you ? ` ${t('sr_your_move')}` : ''));
      showOpening(d.opening);
      turnSince = game.you && game.turn === game.you ? performance.now() : null;
      redraw();
      if (turnSince !== null) {
        playPremove();
        yourTurnAlert();
      }
      break;
    }
    case 'draw-offered':
      if (d.can !== undefined) game.can = d.can;
      game.offer = d.by;
      redraw();
      break;
    case 'draw-declined':
      if (d.can !== undefined) game.can = d.can;
      game.offer = null;
      flash(t('draw_declined'));
      redraw();
      break;
    case 'end':
      game.over = { result: d.result, termination: d.termination };
      // The clocks as the game ended (a fallen flag reads 0:00).
      if (d.clocks) setClocks(d.clocks, null);
      if (d.can !== undefined) game.can = d.can;
      game.dests = null;
      game.running = null;
      game.offer = null;
      pendingOffer = false;
      board.premove = null;
      play('end');
      redraw();
      break;
    case 'moretime':
      // Time given: the clocks as they are now, and who got it said.
      setClocks(d.clocks, game.running);
      flash(d.by === game.you ? t('moretime_given') : t('moretime_received'));
      announce(d.by === game.you ? t('moretime_given') : t('moretime_received'));
      redraw();
      break;
    case 'berserk':
      // Half the berserker's time gone: the clocks as they are now.
      if (d.clocks) setClocks(d.clocks, game.running);
      game.berserk = [...(game.berserk || []), d.by];
      if (d.by === game.you && game.can) game.can.berserk = false;
      if (d.by !== game.you) flash(t('opponent_berserk'));
      redraw();
      break;
    case 'presence':
      // Correspondence players come and go for days: no countdown for them.
      if (game.you && d.color !== game.you && !page.correspondence) {
        opponentGone = d.connected ? null : { since: performance.now(), claimAfter: d.claim_after_ms };
        redraw();
      }
      break;
    case 'seated': {
      // The open seat was taken: show the name; the challenge link is no longer needed, and
      // the game can begin (what the player may now do comes with the event).
      const name = $(`name-${d.color}`);
      name.textContent = playerName(d.name);
      name.href = `/@/${encodeURIComponent(d.name)}`;
      name.classList.remove('waiting');
      if (d.title) {
        const title = document.createElement('span');
        title.className = 'title';
        title.textContent = d.title;
        name.before(title, ' ');
      }
      if (page.rated) showSeatRating(d.color);
      for (const id of ['share', 'join-box']) {
        if ($(id)) $(id).hidden = true;
      }
      game.waiting = false;
      if (d.dests !== undefined) game.dests = d.dests;
      if (d.promotions !== undefined) game.promotions = d.promotions;
      if (d.can !== undefined) game.can = d.can;
      redraw();
      break;
    }
    case 'chat':
      addLine(d);
      break;
    case 'watchers': {
      // Names for accounts, a count for everyone else.
      const names = d.names || [];
      const anonymous = d.n - names.length;
      let text = t('watchers', { n: d.n });
      if (names.length) {
        text += `: ${names.join(', ')}`;
        if (anonymous > 0) text += ` ${t('watchers_anonymous', { n: anonymous })}`;
      }
      $('watchers').textContent = text;
      break;
    }
    case 'rematch-offered':
      rematchOffer = d.by;
      redraw();
      break;
    case 'rematch-declined':
      rematchOffer = null;
      redraw();
      break;
    case 'rematch':
      if (game.you) {
        requestRematch();
      } else {
        const link = $('rematch-link');
        link.href = `/game/${d.id}`;
        link.hidden = false;
      }
      break;
    case 'error':
      flash(problemText(d));
      // A typed move refused: back in the box, to be mended.
      if (lastTyped !== null) {
        $('move-input').value = lastTyped;
        lastTyped = null;
      }
      // A refused move: put the board back as the server has it.
      redraw();
      break;
    default:
      break;
  }
}

// ---- moves and commands --------------------------------------------------------------------

/** The premove set on the opponent's turn, now that it is ours: sent at once if the
 * server's destinations allow it, else dropped without a word. */
function playPremove() {
  const premove = board.premove;
  if (!premove) return;
  board.premove = null;
  const [from, to] = premove;
  if (game.over || viewPly !== null || !(game.dests && (game.dests[from] || []).includes(to))) {
    redraw();
    return;
  }
  const roles = (game.promotions || {})[from + to] || [];
  sendMove(from, to, roles.length ? (roles.includes('q') ? 'q' : roles[0]) : '');
}

/** Move confirmation (a preference): the move is shown and waits for a tick or a cross. */
function confirmOrSend(from, to, promotion) {
  const mode = prefs.confirm_move || 'never';
  const touch = window.matchMedia('(pointer: coarse)').matches;
  const confirm = mode === 'always' || (mode === 'correspondence' && page.correspondence)
    || (mode === 'touch' && touch);
  if (!confirm) {
    sendMove(from, to, promotion);
    return;
  }
  showMoveOnBoard(from, to);
  const box = $('confirm-move');
  box.hidden = false;
  $('btn-confirm-move').onclick = () => {
    box.hidden = true;
    sendMove(from, to, promotion);
  };
  $('btn-cancel-move').onclick = () => {
    box.hidden = true;
    redraw();
  };
  $('btn-confirm-move').focus();
}

function showMoveOnBoard(from, to) {
  const pieces = parsePlacement(game.fens[game.fens.length - 1]);
  board.pieces = pieces;
  board.pieces.set(to, pieces.get(from));
  board.pieces.delete(from);
  board.movable = null;
  board.render();
}

// ---- play without a mouse or without sight -------------------------------------------------

/** Says `text` to a screen reader (a live region no one sees). */
function announce(text) {
  const el = $('announce');
  el.textContent = '';
  // A fresh node each time, so the same words twice are said twice.
  requestAnimationFrame(() => {
    el.textContent = text;
  });
}

const ROLE_WORDS = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight' };

/** A move in words, for the ear: "knight takes f3, check"; castling and promotion named. */
function sanWords(san) {
  const end = san.endsWith('#') ? `, ${t('sr_mate')}` : san.endsWith('+') ? `, ${t('sr_check')}` : '';
  const body = san.replace(/[+#]$/, '');
  if (body === 'O-O') return t('sr_castles_short') + end;
  if (body === 'O-O-O') return t('sr_castles_long') + end;
  const m = /^([KQRBN]?)([a-h]?[1-8]?)(x?)([a-h][1-8])(?:=([QRBN]))?$/.exec(body);
  if (!m) return san;
  const words = [t(m[1] ? ROLE_WORDS[m[1]] : 'pawn')];
  if (m[2]) words.push(m[2]);
  if (m[3]) words.push(t('sr_takes'));
  words.push(m[4]);
  if (m[5]) words.push(t('sr_promotes', { role: t(ROLE_WORDS[m[5]]) }));
  return words.join(' ') + end;
}

/** Both clocks in words. */
function sayClocks() {
  const words = (color) => {
    const ms = clockMs(color);
    if (ms === null) return '–';
    if (ms >= 3600000) return formatClock(ms);
    const total = Math.floor(ms / 1000);
    return t('sr_time', { m: Math.floor(total / 60), s: total % 60 });
  };
  announce(t('sr_clocks', { white: words('white'), black: words('black') }));
}

/**
 * The moves the box offers while one types, in SAN as the board's legal moves (`dests`, from
 * the server) name them: the piece, the file or rank that tells two alike apart, a capture
 * where a piece (or a pawn going sideways) lands, castling, promotion. Only a list to pick
 * from: what is typed goes to the server, whose reader judges it.
 */
function typedOptions() {
  const dests = game.dests || {};
  const pieces = parsePlacement(game.fens[game.fens.length - 1] || '8/8/8/8/8/8/8/8');
  const names = new Set();
  for (const [from, tos] of Object.entries(dests)) {
    const letter = pieces.get(from) || '';
    const role = letter.toUpperCase();
    for (const to of tos) {
      const target = pieces.get(to) || '';
      const own = target && (target === target.toUpperCase()) === (letter === letter.toUpperCase());
      if (role === 'K' && (own || Math.abs(from.charCodeAt(0) - to.charCodeAt(0)) > 1)) {
        names.add(to[0] > from[0] ? 'O-O' : 'O-O-O');
        continue;
      }
      if (role === 'P') {
        const sideways = from[0] !== to[0];
        const base = sideways ? `${from[0]}x${to}` : to;
        const roles = (game.promotions || {})[from + to] || [];
        if (roles.length) roles.forEach((r) => names.add(`${base}=${r.toUpperCase()}`));
        else names.add(base);
        continue;
      }
      const alike = Object.entries(dests).filter(([sq, ts]) => sq !== from && pieces.get(sq) === letter && ts.includes(to)).map(([sq]) => sq);
      let which = '';
      if (alike.length) {
        if (!alike.some((sq) => sq[0] === from[0])) which = from[0];
        else if (!alike.some((sq) => sq[1] === from[1])) which = from[1];
        else which = from;
      }
      names.add(`${role}${which}${target ? 'x' : ''}${to}`);
    }
  }
  return [...names].sort();
}

function fillTypedOptions() {
  const list = $('move-options');
  const options = typedOptions();
  if (list.dataset.key === options.join(' ')) return;
  list.dataset.key = options.join(' ');
  list.replaceChildren(...options.map((name) => {
    const option = document.createElement('option');
    option.value = name;
    return option;
  }));
}

let lastTyped = null; // a typed move until the server takes it

/** A move typed in the box: sent as typed, the server's reader names any fault. */
function playTyped(event) {
  event.preventDefault();
  const input = $('move-input');
  const text = input.value.trim();
  if (!text) return;
  if (game.over || game.turn !== game.you) {
    flash(t('err_not_your_turn'));
    return;
  }
  const d = { s: text };
  if (pendingOffer) d.draw = true;
  if (turnSince !== null) d.think = Math.max(0, Math.round(performance.now() - turnSince));
  if (!send('move', d)) return;
  pendingOffer = false;
  turnSince = null;
  lastTyped = text;
  input.value = '';
}

function sendMove(from, to, promotion) {
  const d = { u: from + to + (promotion || '') };
  if (pendingOffer) d.draw = true;
  if (turnSince !== null) d.think = Math.max(0, Math.round(performance.now() - turnSince));
  if (!send('move', d)) {
    redraw();
    return;
  }
  pendingOffer = false;
  turnSince = null;
  // Show the piece on its new square at once; the server's move event confirms it.
  showMoveOnBoard(from, to);
}

/** Measures the round trip with a ping frame every few seconds (the server answers `pong`). */
function pingNow() {
  if (!game.you || !socket || socket.readyState !== WebSocket.OPEN || pingSent !== null) return;
  pingSent = performance.now();
  socket.send('{"t":"ping"}');
}

/** The connection's quality as lichess shows it: four bars, fewer as the round trip grows. */
function drawLag() {
  const el = $('lag');
  if (!el || roundTrip === null) return;
  const bars = roundTrip < 150 ? 4 : roundTrip < 300 ? 3 : roundTrip < 500 ? 2 : 1;
  el.hidden = false;
  el.dataset.bars = String(bars);
  el.title = t('lag_ms', { ms: Math.round(roundTrip) });
  el.setAttribute('aria-label', el.title);
}

// ---- your turn, away from the page ----------------------------------------------------------

let blink = null;
/** The opponent moved while the page is in the background: the tab's title blinks, and a
 * notification says so if the player allowed them. */
function yourTurnAlert() {
  if (!document.hidden || game.over) return;
  if (!blink) {
    let on = false;
    blink = setInterval(() => {
      on = !on;
      document.title = on ? `♟ ${t('your_turn')}` : `${statusText()} · Rookery`;
    }, 1000);
  }
  if (prefs.notify && 'Notification' in window && Notification.permission === 'granted') {
    const last = game.san[game.san.length - 1] || '';
    try {
      new Notification(t('your_turn'), { body: last, tag: `rookery-${page.id}` });
    } catch {
      // Some browsers allow notifications only from a service worker: the title still blinks.
    }
  }
}

document.addEventListener('visibilitychange', () => {
  if (!document.hidden && blink) {
    clearInterval(blink);
    blink = null;
    if (!blink) document.title = `${statusText()} · Rookery`;
  }
});

async function post(path) {
  const res = await fetch(path, { method: 'POST', credentials: 'same-origin' });
  let body = {};
  try {
    body = await res.json();
  } catch {
    body = {};
  }
  if (!res.ok) throw new Error(problemText(body) || res.statusText);
  return body;
}

async function requestRematch() {
  try {
    const body = await post(`/api/games/${page.id}/rematch`);
    if (body.id) {
      location.href = `/game/${body.id}`;
    } else {
      rematchOffer = game.you;
      redraw();
    }
  } catch (e) {
    flash(e.message);
  }
}

let resignArmed = null;
function resign() {
  const button = $('btn-resign');
  if (prefs.confirm_resign === false) {
    send('resign');
    return;
  }
  if (resignArmed) {
    clearTimeout(resignArmed);
    resignArmed = null;
    button.textContent = t('resign');
    button.classList.remove('confirm');
    send('resign');
    return;
  }
  button.textContent = t('resign_confirm');
  button.classList.add('confirm');
  resignArmed = setTimeout(() => {
    resignArmed = null;
    button.textContent = t('resign');
    button.classList.remove('confirm');
  }, 4000);
}

function wireControls() {
  $('btn-flip').addEventListener('click', () => {
    board.flip();
    // The bars follow the board: the side at the bottom of the board has the bottom bar.
    $('game').classList.toggle('flipped');
  });
  $('btn-offer-draw').addEventListener('click', () => {
    pendingOffer = !pendingOffer;
    redraw();
  });
  $('btn-accept-draw').addEventListener('click', () => send('accept-draw'));
  $('btn-decline-draw').addEventListener('click', () => send('decline-draw'));
  $('btn-claim-draw').addEventListener('click', () => send('claim-draw'));
  $('btn-abort').addEventListener('click', () => send('abort'));
  $('btn-resign').addEventListener('click', resign);
  $('btn-berserk').addEventListener('click', () => send('berserk'));
  $('btn-moretime').addEventListener('click', () => send('moretime'));
  $('btn-claim-victory').addEventListener('click', () => send('claim-victory'));
  $('btn-rematch').addEventListener('click', requestRematch);
  $('btn-decline-rematch').addEventListener('click', async () => {
    try {
      await post(`/api/games/${page.id}/decline-rematch`);
    } catch (e) {
      flash(e.message);
    }
  });
  const join = $('btn-join');
  if (join) {
    join.addEventListener('click', async () => {
      try {
        await post(`/api/games/${page.id}/join`);
        location.reload();
      } catch (e) {
        flash(e.message);
      }
    });
  }
  const copy = $('btn-copy-link');
  if (copy) {
    copy.addEventListener('click', async () => {
      const input = $('share-link');
      input.select();
      try {
        await navigator.clipboard.writeText(input.value);
        flash(t('link_copied'));
      } catch {
        flash(t('copy_by_hand'));
      }
    });
  }
  $('btn-zen').addEventListener('click', () => {
    savePrefs({ zen: !prefs.zen });
    redrawToggles();
  });
  $('btn-sound').addEventListener('click', () => {
    setMuted(!isMuted());
    redrawToggles();
  });
  $('btn-letters').addEventListener('click', () => {
    savePrefs({ letters: letters() === 'zh' ? 'latin' : 'zh' });
    redrawToggles();
    redrawMoves();
  });
  $('moves').addEventListener('click', (e) => {
    const button = e.target.closest('[data-ply]');
    if (button) view(Number(button.dataset.ply));
  });
  $('move-form').addEventListener('submit', playTyped);
  $('btn-say-clocks').addEventListener('click', sayClocks);
  document.addEventListener('keydown', (e) => {
    if (e.target.closest && e.target.closest('input, select, textarea')) return;
    if (e.key === 'c' && !e.ctrlKey && !e.metaKey && !e.altKey) {
      sayClocks();
      return;
    }
    if (e.key === 'z' || (e.key === 'Escape' && prefs.zen)) {
      savePrefs({ zen: e.key === 'z' ? !prefs.zen : false });
      redrawToggles();
      return;
    }
    const last = game.san.length;
    const current = viewPly === null ? last : viewPly;
    const steps = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: last };
    if (e.key in steps) {
      e.preventDefault();
      view(Math.max(0, Math.min(last, steps[e.key])));
    }
  });
  $('btn-live').addEventListener('click', () => view(game.san.length));
}

/** Shows the position after `ply` moves (the live one when it is the last). */
function view(ply) {
  viewPly = ply >= game.san.length ? null : ply;
  redraw();
}

// ---- drawing ------------------------------------------------------------------------------

function setClocks(clocks, running) {
  game.clocks = clocks;
  game.clocksAt = performance.now();
  game.running = running;
}

function clockMs(color) {
  if (!game.clocks || game.clocks[color] === null || game.clocks[color] === undefined) return null;
  let ms = game.clocks[color];
  if (game.running === color && !game.over) ms -= performance.now() - game.clocksAt;
  return Math.max(0, ms);
}

function drawClocks() {
  for (const color of ['white', 'black']) {
    const el = $(`clock-${color}`);
    const ms = clockMs(color);
    if (ms === null) {
      el.hidden = true;
      continue;
    }
    el.hidden = false;
    el.textContent = formatClock(ms);
    el.classList.toggle('running', game.running === color && !game.over);
    el.classList.toggle('low', ms < 20000);
  }
  requestAnimationFrame(drawClocks);
}


function redrawMoves() {
  const list = $('moves');
  list.textContent = '';
  // Rows by move number as the server counts from the start position: a game from a FEN
  // with Black to move opens with "N. …".
  const first = game.startPly % 2;
  for (let i = -first; i < game.san.length; i += 2) {
    const row = document.createElement('li');
    row.innerHTML = `<span class="num">${Math.floor((game.startPly + i) / 2) + 1}.</span>`;
    for (const ply of [i, i + 1]) {
      if (ply >= game.san.length) break;
      if (ply < 0) {
        row.insertAdjacentHTML('beforeend', '<span class="skip">…</span>');
        continue;
      }
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.ply = ply + 1;
      button.textContent = moveText(game.san[ply]);
      const judged = judgementOf(ply + 1);
      if (judged) {
        const mark = document.createElement('span');
        mark.className = `judgement ${judged.kind}`;
        mark.textContent = judged.symbol;
        button.append(mark);
        button.title = judged.title;
      }
      const shown = viewPly === null ? game.san.length : viewPly;
      if (shown === ply + 1) button.setAttribute('aria-current', 'true');
      row.appendChild(button);
    }
    list.appendChild(row);
  }
  // Keep the last move in sight by scrolling the list itself (never the page): down in a
  // column, sideways in a phone's one-line strip.
  const current = list.querySelector('[aria-current]');
  if (current && viewPly === null) {
    const panel = $('moves-panel');
    panel.scrollTop = panel.scrollHeight;
    panel.scrollLeft = panel.scrollWidth;
  }
}

/** Each side's captures on balance, as small pieces of the other colour (counted from the
 * position shown), and the material difference the server counted (R7 values). */
function drawMaterial(ply) {
  const diff = game.material[ply] || 0;
  const count = { w: {}, b: {} };
  for (const letter of parsePlacement(game.fens[ply] || '8/8/8/8/8/8/8/8').values()) {
    const side = letter === letter.toUpperCase() ? 'w' : 'b';
    const role = letter.toLowerCase();
    count[side][role] = (count[side][role] || 0) + 1;
  }
  for (const [color, side, other] of [['white', 'w', 'b'], ['black', 'b', 'w']]) {
    let html = '';
    for (const role of ['q', 'r', 'b', 'n', 'p']) {
      const up = (count[side][role] || 0) - (count[other][role] || 0);
      for (let i = 0; i < up; i++) html += pieceSvg(other, role).replace('class="piece', 'class="piece mini');
    }
    const points = color === 'white' ? diff : -diff;
    $(`material-${color}`).innerHTML = html + (points > 0 ? `<span class="points">+${points}</span>` : '');
  }
}

function resultText(over) {
  const how = endingWords(over.termination);
  // "Draw by agreement" says it already; "Stalemate — Draw" needs it said.
  const draw = over.termination === 'agreement' ? null : t('draw');
  const winner = { '1-0': t('white_wins'), '0-1': t('black_wins'), '1/2-1/2': draw }[over.result];
  return winner ? `${how} — ${winner}` : how;
}

const SCORES = { '1-0': '1–0', '0-1': '0–1', '1/2-1/2': '½–½' };

/** The result panel: the score, how the game ended, and what to do next. */
function drawResult() {
  const over = game.over;
  show('result', !!over);
  if (!over) return;
  $('result-score').textContent = SCORES[over.result] || '–';
  $('result-reason').textContent = resultText(over);
  if (page.rated && !ratingsShown) {
    ratingsShown = true;
    showRatingChanges();
  }
}

let ratingsShown = false;

/** The rating of a player who just took the seat of a rated game, by their name. */
async function showSeatRating(color) {
  try {
    const state = await (await fetch(`/api/games/${page.id}`)).json();
    const seat = state.ratings && state.ratings[color];
    if (!seat || $(`rating-${color}`)) return;
    const span = document.createElement('span');
    span.className = 'rating';
    span.id = `rating-${color}`;
    span.textContent = seat.rating;
    $(`name-${color}`).after(' ', span);
  } catch {
    // The name stands alone; a reload shows the rating.
  }
}

/** A rated game's rating changes, once it has counted (written with its end): each player's
 * bar shows the new rating and the change beside the name, lichess-style, and the result
 * panel says each player's on a line of its own. */
async function showRatingChanges() {
  try {
    const r = await fetch(`/api/games/${page.id}`);
    const state = await r.json();
    const lines = [];
    for (const color of ['white', 'black']) {
      const seat = state.ratings && state.ratings[color];
      if (!seat || !seat.diff) continue;
      const rating = seat.after || seat.rating;
      let span = $(`rating-${color}`);
      if (!span) {
        span = document.createElement('span');
        span.className = 'rating';
        span.id = `rating-${color}`;
        $(`name-${color}`).after(' ', span);
      }
      const diff = document.createElement('span');
      diff.className = `rating-diff ${seat.diff.startsWith('-') ? 'down' : 'up'}`;
      diff.textContent = seat.diff;
      span.replaceChildren(`${rating} `, diff);
      const line = document.createElement('span');
      line.className = 'rating-line';
      line.textContent = t('rating_change', {
        name: playerName(state[color]),
        rating,
        diff: seat.diff,
        ladder: seat.ladder || '+0',
      });
      lines.push(line);
    }
    if (lines.length) {
      $('result-ratings').replaceChildren(...lines);
      show('result-ratings', true);
    }
  } catch {
    // The panel stays as it is; the player page has the figures.
  }
}

function statusText() {
  if (game.over) return resultText(game.over);
  if (game.waiting) return t('waiting_for_opponent');
  // A bot's turn: say it is thinking (it answers through the server like a person).
  if ((page.bots || []).includes(game.turn) && game.you && game.turn !== game.you) {
    return t('bot_thinking');
  }
  if (game.offer && game.offer !== game.you) {
    return t('draw_offered_by', { color: t(game.offer) });
  }
  if (game.you) return game.turn === game.you ? t('your_turn') : t('their_turn');
  return t('to_move', { color: t(game.turn) });
}

function show(id, visible) {
  $(id).hidden = !visible;
}

function redrawToggles() {
  const sound = $('btn-sound');
  sound.textContent = isMuted() ? t('sound_off') : t('sound_on');
  sound.setAttribute('aria-pressed', String(!isMuted()));
  $('btn-letters').textContent = letters() === 'zh' ? t('letters_zh') : t('letters_latin');
  // Zen mode: only the board, the players and the clocks (Escape or the button leaves it).
  document.body.classList.toggle('zen', !!prefs.zen);
  $('btn-zen').setAttribute('aria-pressed', String(!!prefs.zen));
}

function redraw() {
  const live = viewPly === null;
  const ply = live ? game.san.length : viewPly;
  const fen = game.fens[ply];
  if (!fen) return;
  const uci = ply > 0 ? game.uci[ply - 1] : null;
  board.set({
    fen,
    dests: live ? game.dests || {} : {},
    promotions: live ? game.promotions || {} : {},
    movable: live && game.you && !game.over && !game.waiting && game.turn === game.you ? game.you : null,
    premovable: live && game.you && !game.over && !game.waiting && game.turn !== game.you ? game.you : null,
    lastMove: uci ? [uci.slice(0, 2), uci.slice(2, 4)] : null,
    check: live ? game.check : null,
  });
  $('status').textContent = statusText();
  // Once the game is over the result panel says it, larger.
  show('status', !game.over);
  document.title = `${statusText()} · Rookery`;
  drawResult();
  show('replay-note', !live);
  drawMaterial(ply);
  redrawMoves();
  const can = game.can || {};
  const playing = !!game.you && !game.over;
  show('btn-offer-draw', playing && (can.offer_draw || pendingOffer));
  const offer = $('btn-offer-draw');
  offer.textContent = pendingOffer ? t('draw_with_move') : t('offer_draw');
  offer.setAttribute('aria-pressed', String(pendingOffer));
  // R5.4: say why the offer button is gone, rather than let it vanish.
  show('offer-note', playing && !!can.offer_barred && !pendingOffer);
  show('btn-accept-draw', playing && !!can.answer_draw);
  show('btn-decline-draw', playing && !!can.answer_draw);
  show('btn-claim-draw', playing && !!can.claim_draw);
  show('btn-abort', playing && !!can.abort);
  show('btn-resign', playing && !!can.resign);
  show('btn-berserk', playing && !!can.berserk);
  show('btn-moretime', playing && !!can.moretime);
  for (const color of ['white', 'black']) {
    const mark = $(`berserk-${color}`);
    if (mark) mark.hidden = !(game.berserk || []).includes(color);
  }
  const gone = playing && opponentGone;
  const claimable = gone && performance.now() - opponentGone.since >= opponentGone.claimAfter;
  show('btn-claim-victory', !!claimable);
  $('opponent-gone').hidden = !gone;
  if (gone) {
    const left = Math.max(0, Math.ceil((opponentGone.claimAfter - (performance.now() - opponentGone.since)) / 1000));
    $('opponent-gone').textContent = claimable ? t('opponent_gone_claim') : t('opponent_gone', { s: left });
  }
  // The challenge link serves only while the seat is open and the game on.
  if ($('share')) $('share').hidden = !!game.over || !game.waiting;
  if ($('join-box')) $('join-box').hidden = !!game.over || !game.waiting;
  // A game that ended before anyone took the other seat has nobody to offer a rematch to.
  const rematchable = !!game.you && !!game.over && !game.waiting;
  show('rematch-box', rematchable);
  if (rematchable) {
    const theirs = rematchOffer && rematchOffer !== game.you;
    const mine = rematchOffer === game.you;
    $('btn-rematch').textContent = theirs ? t('accept_rematch') : mine ? t('rematch_offered') : t('rematch');
    $('btn-rematch').disabled = mine;
    show('btn-decline-rematch', !!rematchOffer);
  }
  // The move box, for a player in a game under way.
  const typing = !!game.you && !game.over && !game.waiting;
  $('move-form').hidden = !typing;
  if (typing && game.turn === game.you) fillTypedOptions();
  $('pgn-link').hidden = game.san.length === 0;
  $('sheet-link').hidden = game.san.length === 0;
  // The analysis board opens at the move on the board.
  $('board-link').href = `/analysis?game=${page.id}&ply=${ply}`;
  // A finished game with moves can be analysed by the engine.
  if (game.over && game.san.length > 0) initAnalysis(page.id, redraw);
  if (analysis && analysis.status === 'done') {
    setMoves(game.san, game.startPly);
    drawGraph(ply, view);
    drawJudgement(ply);
  }
}

// A phone turned on its side lays the moves out anew: keep the last one in sight.
addEventListener('resize', () => redrawMoves());

// Re-check the abandonment countdown each second.
setInterval(() => {
  if (opponentGone) redraw();
}, 1000);

languageSwitcher();
$('watchers').textContent = t('watchers', { n: 0 });
wireControls();
redrawToggles();
requestAnimationFrame(drawClocks);
connect();
setInterval(pingNow, 3000);
// A game against the site's bot has nobody to talk to: no chat there, as on lichess.
if ((page.bots || []).length) {
  $('chat').hidden = true;
  $('btn-chat').hidden = true;
} else {
  initChat(page);
}
