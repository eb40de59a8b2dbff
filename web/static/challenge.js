// Challenges between people, through lichess's challenge API: a player's page challenges its
// account (POST /api/challenge/{name}) and waits for the answer; the lobby lists the
// challenges to the reader (GET /api/challenge) with Accept and Decline. An accepted
// challenge's game has the challenge's id.

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

const form = $('challenge-form');
if (form) wireChallengeForm(form);
if ($('incoming')) {
  refreshIncoming();
  setInterval(refreshIncoming, 4000);
}
