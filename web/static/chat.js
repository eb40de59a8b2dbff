// The game page's chat (docs/API.md "Game chat"): players talk in the players' room,
// logged-in spectators in the spectators' room, and each sees only its own. Lines are shown
// as text, never as HTML. A player may turn chat off (a preference).

import { t, prefs, savePrefs, problemText } from './i18n.js';

const $ = (id) => document.getElementById(id);
let gameId = null;
const seen = new Set();

/** Sets up the panel for the game `page` and loads the room's lines so far. */
export async function initChat(page) {
  gameId = page.id;
  const player = !!page.you;
  $('chat-room').textContent = player ? t('chat_players') : t('chat_spectators');
  $('chat-presets').hidden = !player;
  $('btn-chat-toggle').addEventListener('click', () => {
    savePrefs({ chat: prefs.chat === false });
    drawState(page);
  });
  for (const button of $('chat-presets').querySelectorAll('[data-say]')) {
    button.addEventListener('click', () => say(t(button.dataset.say)));
  }
  // A counter of the 140 characters a line may have; a paste cut to fit says so.
  const input = $('chat-input');
  const count = (cut) => {
    $('chat-count').textContent = cut ? t('chat_cut', { n: input.maxLength }) : `${input.value.length}/${input.maxLength}`;
    $('chat-count').classList.toggle('error', !!cut);
  };
  input.addEventListener('input', () => count(false));
  input.addEventListener('paste', (e) => {
    const pasted = (e.clipboardData && e.clipboardData.getData('text')) || '';
    const room = input.maxLength - input.value.length + (input.selectionEnd - input.selectionStart);
    if (pasted.length > room) setTimeout(() => count(true), 0);
  });
  $('chat-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    say(text).then((ok) => {
      if (ok) {
        input.value = '';
        count(false);
      }
    });
  });
  // On a phone upright the chat opens over the page from its button.
  const openChat = (open) => {
    document.body.classList.toggle('chat-open', open);
    $('btn-chat').setAttribute('aria-expanded', String(open));
  };
  $('btn-chat').addEventListener('click', () => openChat(!document.body.classList.contains('chat-open')));
  $('btn-chat-close').addEventListener('click', () => openChat(false));
  drawState(page);
  try {
    const res = await fetch(`/api/games/${gameId}/chat`, { credentials: 'same-origin' });
    if (res.ok) for (const line of await res.json()) addLine(line);
  } catch {
    // The lines to come still arrive over the socket.
  }
}

function drawState(page) {
  const on = prefs.chat !== false;
  const canWrite = !!page.you || !!page.logged_in;
  $('btn-chat-toggle').textContent = on ? t('chat_turn_off') : t('chat_turn_on');
  $('btn-chat-toggle').setAttribute('aria-pressed', String(!on));
  $('chat-lines').hidden = !on;
  $('chat-off').hidden = on;
  $('chat-form').hidden = !on || !canWrite;
  $('chat-presets').hidden = !on || !page.you;
  $('chat-login').hidden = !on || canWrite;
}

/** A `chat` frame from the socket, or a line of the list. */
export function addLine(line) {
  if (!line || seen.has(line.id)) return;
  seen.add(line.id);
  const li = document.createElement('li');
  const name = document.createElement('b');
  name.textContent = line.name;
  const text = document.createElement('span');
  text.textContent = ` ${line.text}`;
  li.append(name, text);
  const list = $('chat-lines');
  list.append(li);
  list.scrollTop = list.scrollHeight;
}

async function say(text) {
  try {
    const res = await fetch(`/api/games/${gameId}/chat`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ text }),
    });
    if (res.ok) return true;
    let body = {};
    try {
      body = await res.json();
    } catch {
      body = {};
    }
    $('flash').textContent = problemText(body) || res.statusText;
  } catch {
    $('flash').textContent = t('not_connected');
  }
  return false;
}
