// The lobby: create a game (against a person or a bot), join an open seek, watch a live game.

import { t, languageSwitcher, problemText } from './i18n.js';

const $ = (id) => document.getElementById(id);

/**
 * Posts `body` (of `type`) to `path` and opens the page the answer names (`url`); a refusal
 * is shown in `errorBox` and the `button` may be pressed again.
 */
async function postAndOpen(path, type, body, button, errorBox) {
  button.disabled = true;
  try {
    const res = await fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': type },
      body,
      credentials: 'same-origin',
    });
    const reply = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(problemText(reply) || res.statusText);
    location.href = reply.url;
  } catch (e) {
    errorBox.textContent = e.message;
    button.disabled = false;
  }
}

async function createGame(event) {
  event.preventDefault();
  const form = event.target;
  const data = new FormData(form);
  let control = data.get('time_control');
  if (control === 'custom') control = data.get('custom_time_control') || '';
  const body = { time_control: control, color: data.get('color') };
  const fen = (data.get('fen') || '').trim();
  if (fen) body.fen = fen;
  if (data.get('opponent') === 'bot') body.bot = Number(data.get('level'));
  // An open challenge is listed here for anyone; a friend's game is reached by its link only.
  if (data.get('opponent') === 'seek') body.seek = true;
  // Rated: only for a logged-in player against a person (the server says why otherwise).
  if (data.get('rated') && data.get('opponent') !== 'bot') body.rated = true;
  const button = form.querySelector('button[type=submit]');
  await postAndOpen('/api/games', 'application/json', JSON.stringify(body), button, $('create-error'));
}

/** Sends the pasted PGN to the import API and opens the stored game, or says why not. */
async function importGame(event) {
  event.preventDefault();
  await postAndOpen('/api/import', 'application/x-chess-pgn', $('import-pgn').value, $('import-button'), $('import-error'));
}

/** A player's name with their title before it ("GM Anna"), as text. */
function titled(game, color) {
  const title = game[`${color}_title`];
  return title ? `${title} ${game[color]}` : game[color];
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

function syncForm() {
  const form = $('create');
  const custom = form.elements.time_control.value === 'custom';
  $('custom-tc').hidden = !custom;
  $('level-row').hidden = form.elements.opponent.value !== 'bot';
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
}

languageSwitcher();
prefill();
$('create').addEventListener('submit', createGame);
$('import').addEventListener('submit', importGame);
$('create').addEventListener('change', syncForm);
syncForm();
refreshLists();
setInterval(refreshLists, 5000);
