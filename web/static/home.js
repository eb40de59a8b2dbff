// The lobby: create a game (against a person or a bot), join an open seek, watch a live game.

import { t, languageSwitcher, problemText, showProblem, playerName, openingName, formatClock } from './i18n.js';
import { mountTv } from './tv.js';

const $ = (id) => document.getElementById(id);

/**
 * Posts `body` (of `type`) to `path` and opens the page the answer names (`url`); a refusal
 * is shown in `errorBox` and the `button` may be pressed again.
 */
async function postAndOpen(path, type, body, button, errorBox) {
  button.disabled = true;
  showProblem(errorBox, null);
  try {
    const res = await fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': type },
      body,
      credentials: 'same-origin',
    });
    const reply = await res.json().catch(() => ({}));
    if (!res.ok) {
      showProblem(errorBox, reply.code ? reply : { error: res.statusText });
      button.disabled = false;
      return;
    }
    location.href = reply.url;
  } catch (e) {
    showProblem(errorBox, { error: e.message });
    button.disabled = false;
  }
}

async function createGame(event) {
  event.preventDefault();
  const form = event.target;
  const data = new FormData(form);
  let control = data.get('time_control');
  if (control === 'custom') control = data.get('custom_time_control') || '';
  if (control === 'days') control = data.get('days');
  const body = { time_control: control, color: data.get('color') };
  const fen = (data.get('fen') || '').trim();
  if (fen) body.fen = fen;
  // For club play: what the score sheet and the PGN name.
  for (const field of ['event', 'round', 'table']) {
    const value = (data.get(field) || '').trim();
    if (value) body[field] = value;
  }
  if (data.get('opponent') === 'bot') body.bot = Number(data.get('level'));
  // An open challenge is listed here for anyone; a friend's game is reached by its link only.
  if (data.get('opponent') === 'seek') body.seek = true;
  // Rated: only for a logged-in player against a person (the server says why otherwise).
  if (data.get('rated') && data.get('opponent') !== 'bot') body.rated = true;
  const low = (data.get('rating_min') || '').trim();
  const high = (data.get('rating_max') || '').trim();
  if (data.get('opponent') === 'seek' && (low || high)) body.rating_range = `${low || 0}-${high || 4000}`;
  const button = form.querySelector('button[type=submit]');
  await postAndOpen('/api/games', 'application/json', JSON.stringify(body), button, $('create-error'));
}

/** Sends the pasted PGN to the import API and opens the stored game, or says why not. */
async function importGame(event) {
  event.preventDefault();
  await postAndOpen('/api/import', 'application/x-chess-pgn', $('import-pgn').value, $('import-button'), $('import-error'));
}

/** A player's name with their title before it and rating after it ("GM Anna (2310)"). */
function titled(game, color) {
  const title = game[`${color}_title`];
  const name = title ? `${title} ${playerName(game[color])}` : playerName(game[color]);
  const rating = game[`${color}_rating`];
  return rating ? `${name} (${rating})` : name;
}

function row(game) {
  const li = document.createElement('li');
  const link = document.createElement('a');
  link.href = `/game/${game.id}`;
  if (game.open_color) {
    // A challenge: who waits, and the color they play.
    const creator = game.open_color === 'white' ? 'black' : 'white';
    link.textContent = `${titled(game, creator)} (${t(creator)})`;
  } else {
    link.textContent = `${titled(game, 'white')} – ${titled(game, 'black')}`;
  }
  const tc = document.createElement('span');
  tc.className = 'tc';
  tc.textContent = game.time_control_words;
  if (game.rated) tc.textContent += ` · ${t('rated')}`;
  if (game.rating_range) tc.textContent += ` · ${t('rating_range_short', { range: game.rating_range })}`;
  if (game.opening) tc.textContent += ` · ${game.opening.eco} ${openingName(game.opening.name)}`;
  li.append(link, ' ', tc);
  return li;
}

async function refreshLists() {
  try {
    const res = await fetch('/api/games');
    if (!res.ok) return;
    const games = await res.json();
    const seeks = $('seeks');
    const live = $('live');
    seeks.textContent = '';
    live.textContent = '';
    for (const game of games) {
      if (game.open) {
        const li = row(game);
        const join = document.createElement('a');
        join.className = 'button small';
        join.href = `/game/${game.id}`;
        join.textContent = t('join');
        li.append(' ', join);
        seeks.appendChild(li);
      } else {
        live.appendChild(row(game));
      }
    }
    $('seeks-empty').hidden = seeks.children.length > 0;
    $('live-empty').hidden = live.children.length > 0;
  } catch {
    // The next refresh will try again.
  }
}

// ---- quick pairing ------------------------------------------------------------------------

/** The ticket of the pool this page waits in, if any. */
let poolTicket = null;

/** Leaves the pool (the page is closing, or the player cancelled). */
function leavePool() {
  if (!poolTicket) return;
  fetch(`/api/pool/${poolTicket}`, { method: 'DELETE', keepalive: true, credentials: 'same-origin' }).catch(() => {});
  poolTicket = null;
}

function showSearching(button) {
  for (const b of document.querySelectorAll('.pool')) b.classList.toggle('searching', b === button);
  $('pool-status').hidden = !button;
}

/** Joins the pool of the clicked button and waits (long polls) until paired. */
async function joinPool(button) {
  const tc = button.dataset.tc;
  leavePool();
  $('pool-error').textContent = '';
  try {
    const res = await fetch('/api/pool', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ time_control: tc }),
      credentials: 'same-origin',
    });
    const reply = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(problemText(reply) || res.statusText);
    const ticket = reply.ticket;
    poolTicket = ticket;
    showSearching(button);
    const started = Date.now();
    const say = () => {
      $('pool-searching').textContent = t('pool_searching', { tc, s: Math.round((Date.now() - started) / 1000) });
    };
    say();
    const timer = setInterval(say, 1000);
    try {
      while (poolTicket === ticket) {
        const answer = await fetch(`/api/pool/${ticket}`, { credentials: 'same-origin' });
        const body = await answer.json().catch(() => ({}));
        if (poolTicket !== ticket) return;
        if (answer.status === 503 && body.code === 'unavailable') {
          // Another server takes over the pairing: the ticket waits on; ask again.
          await new Promise((r) => setTimeout(r, 1000));
          continue;
        }
        if (!answer.ok) throw new Error(problemText(body) || answer.statusText);
        if (body.url) {
          poolTicket = null;
          location.href = body.url;
          return;
        }
      }
    } finally {
      clearInterval(timer);
    }
  } catch (e) {
    poolTicket = null;
    showSearching(null);
    $('pool-error').textContent = e.message;
  }
}

/** How many wait in each pool, on its button. */
async function refreshPools() {
  try {
    const res = await fetch('/api/pools');
    if (!res.ok) return;
    const rated = Boolean(document.getElementById('me'));
    for (const pool of await res.json()) {
      const button = document.querySelector(`.pool[data-tc="${CSS.escape(pool.time_control)}"]`);
      if (!button) continue;
      const n = rated ? pool.rated_waiting : pool.casual_waiting;
      button.querySelector('[data-waiting]').textContent = n > 0 ? t('pool_waiting', { n }) : '';
      button.title = pool.time_control_words;
    }
  } catch {
    // The next refresh will try again.
  }
}

for (const button of document.querySelectorAll('.pool')) {
  button.addEventListener('click', () => joinPool(button));
}
$('pool-cancel').addEventListener('click', () => {
  leavePool();
  showSearching(null);
});
window.addEventListener('pagehide', leavePool);

// ---- BOT accounts (lichess's Bot API) ----------------------------------------------------------

/** The clock the create form has chosen, as a challenge's fields (none: no clock). */
function chosenClock() {
  const form = $('create');
  let value = form.elements.time_control.value;
  if (value === 'custom') value = ($('custom_time_control').value || '').trim();
  const m = /^(\d+(?:\.\d+)?)\+(\d+)$/.exec(value);
  return m ? { 'clock.limit': Math.round(Number(m[1]) * 60), 'clock.increment': Number(m[2]) } : {};
}

/** Challenges a BOT account, then opens the game once it has accepted. */
async function challengeBot(bot) {
  const status = $('bot-status');
  status.textContent = t('bot_challenging', { name: bot.username });
  try {
    const res = await fetch(`/api/challenge/${encodeURIComponent(bot.id)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...chosenClock(), color: 'random', rated: false }),
      credentials: 'same-origin',
    });
    const reply = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(problemText(reply) || res.statusText);
    for (let i = 0; i < 60; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      const playing = await (await fetch('/api/account/playing', { credentials: 'same-origin' })).json();
      const game = (playing.nowPlaying || []).find((g) => g.opponent && g.opponent.id === bot.id);
      if (game) {
        location.href = `/game/${game.gameId}`;
        return;
      }
    }
    status.textContent = t('bot_no_answer', { name: bot.username });
  } catch (e) {
    status.textContent = e.message;
  }
}

/** The BOT accounts online (an event stream open), each with a challenge button. */
async function refreshBots() {
  try {
    const res = await fetch('/api/bot/online');
    if (!res.ok) return;
    const bots = (await res.text()).split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
    const list = $('bots');
    list.textContent = '';
    const loggedIn = Boolean(document.getElementById('me'));
    for (const bot of bots) {
      const li = document.createElement('li');
      const link = document.createElement('a');
      link.href = `/@/${encodeURIComponent(bot.username)}`;
      link.textContent = `BOT ${bot.username}`;
      li.append(link);
      if (loggedIn) {
        const button = document.createElement('button');
        button.type = 'button';
        button.className = 'small';
        button.dataset.bot = bot.id;
        button.textContent = t('challenge');
        button.addEventListener('click', () => challengeBot(bot));
        li.append(' ', button);
      }
      list.append(li);
    }
    $('bots-empty').hidden = bots.length > 0;
  } catch {
    // The next refresh will try again.
  }
}

function syncForm() {
  const form = $('create');
  const custom = form.elements.time_control.value === 'custom';
  $('custom-tc').hidden = !custom;
  $('days-row').hidden = form.elements.time_control.value !== 'days';
  $('level-row').hidden = form.elements.opponent.value !== 'bot';
  const range = $('range-row');
  if (range) range.hidden = form.elements.opponent.value !== 'seek';
}

/** "New game" on a finished game's page opens the lobby with its clock (and bot) chosen. */
function prefill() {
  const params = new URLSearchParams(location.search);
  const form = $('create');
  const tc = params.get('tc');
  if (tc) {
    const preset = [...form.elements.time_control].find((input) => input.value === tc);
    if (preset) {
      preset.checked = true;
    } else if (/^\d+d$/.test(tc) && [...$('days').options].some((o) => o.value === tc)) {
      form.querySelector('input[name=time_control][value=days]').checked = true;
      $('days').value = tc;
    } else {
      form.querySelector('input[name=time_control][value=custom]').checked = true;
      $('custom_time_control').value = tc;
    }
  }
  const bot = params.get('bot');
  if (bot && [...$('level').options].some((o) => o.value === bot)) {
    form.querySelector('input[name=opponent][value=bot]').checked = true;
    $('level').value = bot;
  }
  // "Play a bot", "Play a friend", and the analysis board's "Continue from here" (its FEN).
  const opponent = params.get('opponent');
  const choice = opponent && form.querySelector(`input[name=opponent][value="${CSS.escape(opponent)}"]`);
  if (choice) choice.checked = true;
  const fen = params.get('fen');
  if (fen) {
    $('fen').value = fen;
    $('fen-details').open = true;
  }
}

/** The big ways in at the top: each opens its part of the lobby, ready to go. */
function wireEntries() {
  const form = $('create');
  for (const [id, opponent] of [['entry-bot', 'bot'], ['entry-friend', 'friend']]) {
    $(id).addEventListener('click', (e) => {
      e.preventDefault();
      form.querySelector(`input[name=opponent][value=${opponent}]`).checked = true;
      syncForm();
      $('create-title').scrollIntoView({ block: 'start' });
      $('create-button').focus({ preventScroll: true });
    });
  }
  $('entry-quick').addEventListener('click', (e) => {
    e.preventDefault();
    $('quick-title').scrollIntoView({ block: 'start' });
    document.querySelector('#pools .pool').focus({ preventScroll: true });
  });
}

/** The reader's own games under way, those where it is their move first, the least time
 * left first among them (a correspondence move due soonest on top). */
async function refreshMyGames() {
  const box = $('my-games');
  if (!box) return;
  try {
    const res = await fetch('/api/account/playing', { credentials: 'same-origin' });
    if (!res.ok) return;
    const games = (await res.json()).nowPlaying || [];
    const left = (g) => (g.secondsLeft === undefined ? Infinity : g.secondsLeft);
    games.sort((a, b) => (b.isMyTurn - a.isMyTurn) || (left(a) - left(b)));
    $('my-games-list').replaceChildren(...games.map((g) => {
      const item = document.createElement('li');
      const link = document.createElement('a');
      link.href = `/game/${g.gameId}`;
      link.textContent = `${t(g.color)} – ${playerName(g.opponent.username)}`;
      const state = document.createElement('span');
      state.className = g.isMyTurn ? 'turn' : 'muted';
      state.textContent = g.isMyTurn ? t('your_turn_short') : t('their_turn', { name: playerName(g.opponent.username) });
      item.append(link, ' · ', state);
      if (g.secondsLeft !== undefined) item.append(` · ${formatClock(g.secondsLeft * 1000)}`);
      return item;
    }));
    box.hidden = games.length === 0;
  } catch {
    // Shown at the next refresh.
  }
}

languageSwitcher();
prefill();
wireEntries();
refreshMyGames();
$('create').addEventListener('submit', createGame);
$('import').addEventListener('submit', importGame);
$('create').addEventListener('change', syncForm);
syncForm();
refreshLists();
refreshPools();
refreshBots();
setInterval(() => {
  refreshMyGames();
  refreshLists();
  refreshPools();
  refreshBots();
}, 5000);

// A small live board of the game on TV.
mountTv(document.getElementById('tv-mini'), { small: true });
