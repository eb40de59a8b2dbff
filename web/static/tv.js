// TV: follows the game `/api/tv` picks (the highest-rated players, else the largest audience)
// over the game's socket as a spectator; when it ends, the result shows a moment and the next
// pick follows. The lobby shows a small one, `/tv` a large one.

import { Board } from './board.js';
import { formatClock, playerName, t } from './i18n.js';

const NEXT_AFTER_END_MS = 3000;
const RETRY_EMPTY_MS = 5000;

/** The site's pick: `/api/tv`, after the game `after` if given. */
async function sitePick(after) {
  try {
    const res = await fetch(`/api/tv${after ? `?after=${encodeURIComponent(after)}` : ''}`);
    return res.ok ? await res.json() : null;
  } catch {
    return null;
  }
}

/**
 * Builds a TV in `root` and starts following the pick: the site's, or `source(after)`'s (an
 * arena's best games), a promise of `{id, white, black, white_rating, black_rating,
 * time_control}` or null.
 */
export function mountTv(root, { small = false, source = sitePick } = {}) {
  root.textContent = '';
  const bar = (side) => {
    const el = document.createElement('div');
    el.className = `tv-player ${side}`;
    el.innerHTML = '<a class="name"></a> <span class="rating"></span> <time class="clock"></time>';
    return el;
  };
  const top = bar('tv-top');
  const bottom = bar('tv-bottom');
  const boardEl = document.createElement('div');
  boardEl.className = 'tv-board';
  const status = document.createElement('p');
  status.className = 'tv-status muted';
  status.setAttribute('role', 'status');
  root.append(top, boardEl, bottom, status);
  const board = new Board(boardEl, { t });
  const tv = { root, small, source, top, bottom, board, status, socket: null, game: null, timer: null };
  root.tv = tv;
  next(tv, null);
  setInterval(() => drawClocks(tv), 200);
  return tv;
}

async function next(tv, after) {
  clearTimeout(tv.timer);
  if (tv.socket) {
    tv.socket.onclose = null;
    tv.socket.close();
    tv.socket = null;
  }
  const pick = await tv.source(after);
  if (!pick) {
    tv.game = null;
    tv.root.dataset.game = '';
    tv.status.textContent = t('tv_nothing');
    tv.timer = setTimeout(() => next(tv, after), RETRY_EMPTY_MS);
    return;
  }
  follow(tv, pick);
}

function follow(tv, pick) {
  tv.game = { pick, fen: null, lastMove: null, clocks: null, clocksAt: 0, running: null, over: false };
  tv.root.dataset.game = pick.id;
  for (const [el, color] of [[tv.top, 'black'], [tv.bottom, 'white']]) {
    const name = el.querySelector('.name');
    name.textContent = playerName(pick[color]);
    name.href = `/game/${pick.id}`;
    const rating = pick[`${color}_rating`];
    // A provisional rating carries its "?", as on the game page.
    el.querySelector('.rating').textContent = rating ? `${rating}${pick[`${color}_provisional`] ? '?' : ''}` : '';
  }
  tv.status.innerHTML = '';
  const link = document.createElement('a');
  link.href = `/game/${pick.id}`;
  link.textContent = `${pick.time_control} · ${t('tv_watch')}`;
  tv.status.append(link);
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  const socket = new WebSocket(`${proto}://${location.host}/game/${pick.id}/socket`);
  tv.socket = socket;
  socket.onmessage = (e) => {
    let f;
    try {
      f = JSON.parse(e.data);
    } catch {
      return;
    }
    receive(tv, f);
  };
  // A dropped connection: pick again (the game may have moved on).
  socket.onclose = () => {
    tv.timer = setTimeout(() => next(tv, null), RETRY_EMPTY_MS);
  };
}

function receive(tv, f) {
  const g = tv.game;
  const d = f.d || {};
  if (f.t === 'state') {
    g.fen = d.fens.length ? d.fens[d.fens.length - 1] : d.start_fen;
    const last = d.uci[d.uci.length - 1];
    g.lastMove = last ? [last.slice(0, 2), last.slice(2, 4)] : null;
    setClocks(g, d.clocks, d.running);
    g.over = !!d.over;
    g.check = d.check;
  } else if (f.t === 'move') {
    g.fen = d.fen;
    g.lastMove = [d.uci.slice(0, 2), d.uci.slice(2, 4)];
    g.check = d.check;
    setClocks(g, d.clocks, d.running === undefined ? (d.by === 'white' ? 'black' : 'white') : d.running);
  } else if (f.t === 'end') {
    g.over = true;
    if (d.clocks) setClocks(g, d.clocks, null);
    g.running = null;
    tv.status.textContent = `${d.result} · ${t('tv_next')}`;
    tv.timer = setTimeout(() => next(tv, g.pick.id), NEXT_AFTER_END_MS);
  } else {
    return;
  }
  tv.board.set({ fen: g.fen, lastMove: g.lastMove, check: g.check });
  drawClocks(tv);
}

function setClocks(g, clocks, running) {
  g.clocks = clocks;
  g.clocksAt = performance.now();
  g.running = running;
}

function drawClocks(tv) {
  const g = tv.game;
  for (const [el, color] of [[tv.top, 'black'], [tv.bottom, 'white']]) {
    const clock = el.querySelector('.clock');
    const ms0 = g && g.clocks ? g.clocks[color] : null;
    if (ms0 === null || ms0 === undefined) {
      clock.textContent = '';
      continue;
    }
    let ms = ms0;
    if (g.running === color && !g.over) ms -= performance.now() - g.clocksAt;
    ms = Math.max(0, ms);
    clock.textContent = formatClock(ms);
    clock.classList.toggle('running', g.running === color && !g.over);
  }
}
