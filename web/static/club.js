// The club pages. /team: the form that makes a club (POST /api/clubs). /team/{id}: joining,
// asking to join, leaving; for its leaders, answering requests, removing a member, naming a
// leader, the message to every member and the club's rules. Every change is one of lichess's
// team doors; the page is then read again, or the refusal shown in the reader's language.

import { languageSwitcher, showProblem } from './i18n.js';

languageSwitcher();

const $ = (id) => document.getElementById(id);

async function post(url, body) {
  const error = $('club-error');
  showProblem(error, null);
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body || {}),
  });
  const answer = await res.json().catch(() => ({ code: 'internal', error: res.statusText }));
  if (!res.ok) {
    showProblem(error, answer);
    return null;
  }
  return answer;
}

/** A form's fields as an object (checkboxes as true or false). */
function fields(form) {
  const out = {};
  for (const el of form.elements) {
    if (!el.name) continue;
    out[el.name] = el.type === 'checkbox' ? el.checked : el.value;
  }
  return out;
}

const made = $('new-club');
if (made) {
  made.addEventListener('submit', async (e) => {
    e.preventDefault();
    const club = await post('/api/clubs', fields(made));
    if (club) location.href = `/team/${club.id}`;
  });
}

const page = document.querySelector('[data-club]');
if (page) {
  const id = page.dataset.club;
  const then = (answer) => {
    if (answer) location.reload();
  };
  const on = (elId, event, fn) => {
    const el = $(elId);
    if (el) el.addEventListener(event, fn);
  };
  on('club-join', 'submit', async (e) => {
    e.preventDefault();
    then(await post(`/team/${id}/join`, fields(e.target)));
  });
  on('club-quit', 'click', async () => then(await post(`/team/${id}/quit`)));
  on('club-pm', 'submit', async (e) => {
    e.preventDefault();
    then(await post(`/team/${id}/pm-all`, fields(e.target)));
  });
  on('club-rules', 'submit', async (e) => {
    e.preventDefault();
    const f = fields(e.target);
    then(await post(`/api/team/${id}/rules`, f));
  });
  for (const button of document.querySelectorAll('[data-accept]')) {
    button.addEventListener('click', async () =>
      then(await post(`/api/team/${id}/request/${encodeURIComponent(button.dataset.accept)}/accept`)));
  }
  for (const button of document.querySelectorAll('[data-decline]')) {
    button.addEventListener('click', async () =>
      then(await post(`/api/team/${id}/request/${encodeURIComponent(button.dataset.decline)}/decline`)));
  }
  for (const button of document.querySelectorAll('[data-kick]')) {
    button.addEventListener('click', async () =>
      then(await post(`/api/team/${id}/kick/${encodeURIComponent(button.dataset.kick)}`)));
  }
  for (const button of document.querySelectorAll('[data-lead]')) {
    button.addEventListener('click', async () =>
      then(await post(`/api/team/${id}/leader/${encodeURIComponent(button.dataset.lead)}`, { leader: true })));
  }
}
