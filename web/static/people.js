// People: challenges and following, through lichess's APIs. A player's page challenges its
// account (POST /api/challenge/{name}) and waits for the answer, and follows or unfollows it
// (POST /api/rel/follow|unfollow/{name}); the lobby lists the challenges to the reader (GET
// /api/challenge) with Accept and Decline, and the players the reader follows who are online,
// with their games (GET /api/rel/following). An accepted challenge's game has its id.

import { t, showProblem, playerName } from './i18n.js';

const $ = (id) => document.getElementById(id);

async function post(url, fields) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields || {}),
    credentials: 'same-origin',
  });
  const body = await res.json().catch(() => ({ code: 'internal', error: res.statusText }));
  return { ok: res.ok, body };
}

async function challenges() {
  const res = await fetch('/api/challenge', { credentials: 'same-origin' });
  return res.ok ? res.json() : { in: [], out: [] };
}

/** The fields of a clock choice: `300+3` (seconds and increment) or `3d` (days a move). */
function clockFields(choice) {
  const days = /^(\d+)d$/.exec(choice);
  if (days) return { days: days[1] };
  const [limit, increment] = choice.split('+');
  return { 'clock.limit': limit, 'clock.increment': increment };
}

/** A player's page: challenge, then wait until the game starts or the answer is no. */
function wireChallengeForm(form) {
  const status = $('challenge-status');
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const name = form.dataset.name;
    $('btn-challenge').disabled = true;
    showProblem(status, null);
    const { ok, body } = await post(`/api/challenge/${encodeURIComponent(name)}`, {
      ...clockFields($('challenge-clock').value),
      color: 'random',
    });
    if (!ok) {
      showProblem(status, body);
      $('btn-challenge').disabled = false;
      return;
    }
    const id = body.id || (body.challenge && body.challenge.id);
    status.textContent = t('challenge_sent', { name });
    for (;;) {
      await new Promise((r) => setTimeout(r, 1500));
      const list = await challenges().catch(() => null);
      if (!list || (list.out || []).some((c) => c.id === id)) continue;
      // Gone from the list: a game under that id, or declined.
      const game = await fetch(`/api/games/${id}`);
      if (game.ok) {
        location.href = `/game/${id}`;
        return;
      }
      status.textContent = t('challenge_declined', { name });
      $('btn-challenge').disabled = false;
      return;
    }
  });
}

/** The lobby: the challenges to the reader, each to accept or decline. */
async function refreshIncoming() {
  const box = $('incoming');
  const list = await challenges().catch(() => null);
  if (!list) return;
  const rows = (list.in || []).map((c) => {
    const item = document.createElement('li');
    const clock = c.timeControl.type === 'clock'
      ? c.timeControl.show
      : c.timeControl.type === 'correspondence' ? `${c.timeControl.daysPerTurn}d` : '∞';
    const words = document.createElement('span');
    words.textContent = `${t('challenge_from', { name: playerName(c.challenger.name), clock })} `;
    const accept = document.createElement('button');
    accept.type = 'button';
    accept.className = 'primary';
    accept.textContent = t('accept');
    accept.addEventListener('click', async () => {
      const { ok, body } = await post(`/api/challenge/${c.id}/accept`);
      if (ok) location.href = `/game/${c.id}`;
      else showProblem(words, body);
    });
    const decline = document.createElement('button');
    decline.type = 'button';
    decline.textContent = t('decline');
    decline.addEventListener('click', async () => {
      await post(`/api/challenge/${c.id}/decline`);
      refreshIncoming();
    });
    item.append(words, accept, ' ', decline);
    item.dataset.challenge = c.id;
    return item;
  });
  $('incoming-list').replaceChildren(...rows);
  box.hidden = rows.length === 0;
}

/** A player's page: Follow / Unfollow. */
function wireFollow(button, name) {
  button.addEventListener('click', async () => {
    const following = button.dataset.following === 'true';
    const { ok, body } = await post(`/api/rel/${following ? 'unfollow' : 'follow'}/${encodeURIComponent(name)}`);
    if (!ok) {
      showProblem($('challenge-status'), body);
      return;
    }
    button.dataset.following = String(!following);
    button.setAttribute('aria-pressed', String(!following));
    button.textContent = following ? t('follow') : t('unfollow');
  });
}

/** The lobby: the followed players online now, each with the game it plays. */
async function refreshFollowing() {
  const res = await fetch('/api/rel/following', { credentials: 'same-origin' }).catch(() => null);
  if (!res || !res.ok) return;
  const people = (await res.text()).split('\n').filter(Boolean).map((line) => JSON.parse(line));
  const rows = people.filter((p) => p.online).map((p) => {
    const item = document.createElement('li');
    const link = document.createElement('a');
    link.href = `/@/${encodeURIComponent(p.username)}`;
    link.textContent = p.username;
    item.append(link);
    if (p.playing) {
      const game = document.createElement('a');
      game.href = `/game/${p.playing}`;
      game.textContent = t('watch_game');
      item.append(' · ', game);
    }
    return item;
  });
  $('following-list').replaceChildren(...rows);
  $('following').hidden = rows.length === 0;
}

const form = $('challenge-form');
if (form) wireChallengeForm(form);
if ($('btn-follow')) wireFollow($('btn-follow'), form.dataset.name);
if ($('incoming')) {
  refreshIncoming();
  refreshFollowing();
  setInterval(() => {
    refreshIncoming();
    refreshFollowing();
  }, 4000);
}
