// The tournament pages: the form that makes a tournament (/events), and on a tournament's
// page the arbiter's controls and a player's join and withdraw. Every change is one POST of
// an action to /api/events/{id}; the page is then read again, or the refusal shown in the
// reader's language.

import { languageSwitcher, showProblem as say } from './i18n.js';

languageSwitcher();

const error = document.getElementById('event-error');

function showProblem(problem) {
  say(error, problem);
}

async function send(url, body) {
  say(error, null);
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = await res.json().catch(() => ({ code: 'internal', error: res.statusText }));
  if (!res.ok) {
    showProblem(answer);
    return null;
  }
  return answer;
}

// /events: the new tournament's form; online fields shown for an online one.
const form = document.getElementById('new-event');
if (form) {
  const where = document.getElementById('ev-where');
  const show = () => {
    const online = where.value === 'online';
    for (const el of form.querySelectorAll('.online-only')) el.hidden = !online;
    for (const el of form.querySelectorAll('.otb-only')) el.hidden = online;
  };
  where.addEventListener('change', show);
  show();
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const v = (name) => form.elements[name].value.trim();
    const body = {
      name: v('name'), system: v('system'), rounds: Number(v('rounds')), rated: form.elements.rated.checked,
    };
    if (where.value === 'online') {
      body.clock = v('clock');
      if (v('starts_at')) body.starts_at = new Date(v('starts_at')).getTime();
      const interval = v('round_interval');
      body.round_interval = interval === 'arbiter' ? 'arbiter' : Number(interval);
      if (v('forfeit_after')) body.forfeit_after = Number(v('forfeit_after'));
      if (v('password')) body.password = v('password');
    } else if (v('time_limit')) {
      body.time_limit = v('time_limit');
    }
    const made = await send('/api/events', body);
    if (made) location.assign(`/events/${made.id}`);
  });
}

// /events/{id}: one action at a time.
const panel = document.querySelector('[data-event]');
if (panel) {
  const id = panel.dataset.event;
  const act = async (action) => {
    if (await send(`/api/events/${id}`, action)) location.reload();
  };
  const on = (elementId, event, handler) => {
    const el = document.getElementById(elementId);
    if (el) el.addEventListener(event, handler);
  };
  on('ev-pair', 'click', () => act({ action: 'pair' }));
  // A player of an online tournament waiting on its page is taken to his game when his
  // round begins: the account's event stream says `gameStart` with this tournament's id.
  if (panel.dataset.plays) watchForMyGame(id);
  // Online, under way: the page follows the tournament (results, the next round), read
  // again when it changes unless the reader is typing in one of its forms.
  if (panel.dataset.live) follow(id);
  on('ev-entry', 'click', (e) => act({ action: 'entry', open: e.target.dataset.open === 'true' }));
  on('ev-leave', 'click', (e) => act({ action: 'withdraw', player: Number(e.target.dataset.player) }));
  on('ev-join', 'submit', (e) => {
    e.preventDefault();
    const password = document.getElementById('join-password');
    act(password ? { action: 'join', password: password.value } : { action: 'join' });
  });
  on('ev-enter', 'submit', (e) => {
    e.preventDefault();
    const f = e.target.elements;
    const rating = f.rating.value.trim();
    act({ action: 'enter', name: f.name.value, rating: rating ? Number(rating) : null });
  });
  on('ev-bye', 'submit', (e) => {
    e.preventDefault();
    const f = e.target.elements;
    act({ action: 'bye', player: Number(f.player.value), round: Number(f.round.value), kind: f.kind.value });
  });
  on('ev-moves', 'submit', (e) => {
    e.preventDefault();
    const f = e.target.elements;
    act({ action: 'moves', round: Number(f.round.value), board: Number(f.board.value), pgn: f.pgn.value });
  });
  on('ev-withdraw', 'submit', (e) => {
    e.preventDefault();
    act({ action: 'withdraw', player: Number(e.target.elements.player.value) });
  });
  // A result: sent as soon as it is picked; a correction with the reason written beside it.
  for (const select of document.querySelectorAll('select.set-result')) {
    select.addEventListener('change', async () => {
      const { round, board, was } = select.dataset;
      const reason = document.querySelector(`input.why[data-round="${round}"][data-board="${board}"]`);
      const action = {
        action: 'result',
        round: Number(round),
        board: Number(board),
        result: select.value || null,
      };
      if (reason && reason.value.trim()) action.reason = reason.value.trim();
      if (await send(`/api/events/${id}`, action)) {
        location.reload();
      } else {
        select.value = was;
      }
    });
  }
}

/** Reads the account's event stream (lichess's NDJSON) and goes to the first game of this
 * tournament that starts. */
async function watchForMyGame(id) {
  // The game the page shows already is not a new one (the stream names it on connecting).
  const shown = document.querySelector('#my-game a')?.getAttribute('href')?.split('/').pop();
  try {
    const res = await fetch('/api/stream/event');
    if (!res.ok || !res.body) return;
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let pending = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      pending += decoder.decode(value, { stream: true });
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) {
        if (!line.trim()) continue;
        const event = JSON.parse(line);
        const game = event.type === 'gameStart' ? event.game : null;
        if (game && game.swissId === id && game.gameId !== shown) {
          location.assign(`/game/${game.gameId}`);
          return;
        }
      }
    }
  } catch {
    // The page still shows the game on a reload.
  }
}

/** Every five seconds, reads the tournament; when its rounds or results changed, reloads. */
async function follow(id) {
  const signature = (t) => JSON.stringify([t.next_round, t.pairings.map((r) => r.map((b) => b.result))]);
  let seen = null;
  for (;;) {
    try {
      const res = await fetch(`/api/events/${id}`);
      if (res.ok) {
        const now = signature(await res.json());
        const typing = document.activeElement && ['INPUT', 'TEXTAREA', 'SELECT'].includes(document.activeElement.tagName);
        if (seen !== null && now !== seen && !typing) {
          location.reload();
          return;
        }
        seen = now;
      }
    } catch {
      // Try again at the next turn.
    }
    await new Promise((r) => setTimeout(r, 5000));
  }
}
