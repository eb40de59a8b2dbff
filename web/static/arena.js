// The arena pages. /tournament: the form that makes an arena (lichess's own
// POST /api/tournament). /tournament/{id}: the page follows lichess's GET /api/tournament/{id}
// every two seconds (the countdown, the standings page by page with one's own place, the
// podium, the best games on small live boards) and the arena's chat; joining, pausing and
// ending go through lichess's doors (POST /api/tournament/{id}/join|withdraw|terminate). A
// player whose next game is made is taken to it, as lichess does.

import { languageSwitcher, showProblem as say, t } from './i18n.js';
import { mountTv } from './tv.js';

languageSwitcher();

const $ = (id) => document.getElementById(id);
const POLL_MS = 2000;
const CHAT_MS = 3000;
const PAGE = 10;
const BOARDS = 3;

function showProblem(problem) {
  say($('arena-error'), problem);
}

async function post(url, body, form = false) {
  showProblem(null);
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': form ? 'application/x-www-form-urlencoded' : 'application/json' },
    body: form ? new URLSearchParams(body).toString() : JSON.stringify(body || {}),
  });
  const answer = await res.json().catch(() => ({ code: 'internal', error: res.statusText }));
  if (!res.ok) {
    showProblem(answer);
    return null;
  }
  return answer;
}

// /tournament: a new arena.
const form = $('new-arena');
if (form) {
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const fields = {};
    for (const el of form.elements) {
      if (!el.name) continue;
      if (el.type === 'checkbox') fields[el.name] = el.checked ? 'true' : 'false';
      else if (el.value.trim() !== '') fields[el.name] = el.value.trim();
    }
    const made = await post('/api/tournament', fields, true);
    if (made) location.href = `/tournament/${made.id}`;
  });
}

const section = document.querySelector('[data-arena]');
if (section) follow(section.dataset.arena, section.dataset.me === '1');

function follow(id, loggedIn) {
  // The page shown: the reader's own until he turns pages himself.
  let page = null;
  let last = null;
  let shownGame = sessionStorage.getItem(`arena-game-${id}`);
  const read = async () => {
    try {
      const res = await fetch(`/api/tournament/${id}${page ? `?page=${page}` : ''}`);
      if (res.ok) {
        last = await res.json();
        draw(last);
      }
    } catch {
      // Next time.
    }
  };
  const draw = (a) => {
    drawClock(a);
    drawActions(a, loggedIn);
    drawStandings(a);
    drawPodium(a);
    drawDuels(a);
    const mine = a.me && a.me.gameId;
    $('my-arena-game').hidden = !mine;
    if (mine) {
      $('my-arena-game-link').href = `/game/${mine}`;
      // A new game of the reader's: go to it (once; coming back to the page stays here).
      if (mine !== shownGame && document.visibilityState === 'visible') {
        shownGame = mine;
        sessionStorage.setItem(`arena-game-${id}`, mine);
        location.href = `/game/${mine}`;
      }
    }
  };
  $('page-prev').addEventListener('click', () => turn(-1));
  $('page-next').addEventListener('click', () => turn(1));
  $('page-mine').addEventListener('click', () => {
    page = null;
    read();
  });
  const turn = (by) => {
    if (!last) return;
    const pages = Math.max(1, Math.ceil(last.nbPlayers / PAGE));
    page = Math.min(pages, Math.max(1, (last.standing.page || 1) + by));
    read();
  };
  const act = async (what) => {
    const body = {};
    const word = $('arena-password');
    if (what === 'join' && word && word.value) body.password = word.value;
    if (await post(`/api/tournament/${id}/${what}`, body)) read();
  };
  const join = $('arena-join');
  if (join) {
    join.addEventListener('submit', (e) => {
      e.preventDefault();
      act('join');
    });
    $('btn-arena-pause').addEventListener('click', () => act('withdraw'));
    const end = $('btn-arena-terminate');
    if (end) end.addEventListener('click', () => act('terminate'));
  }
  setInterval(() => last && drawClock(last), 500);
  setInterval(read, POLL_MS);
  read();
  mountBoards(id, () => last);
  chat(id);
}

let clockBase = null;
function drawClock(a) {
  // The seconds the answer gave, counted down from when it came.
  const key = `${a.id}:${a.secondsToStart}:${a.secondsToFinish}`;
  if (!clockBase || clockBase.key !== key) clockBase = { key, at: performance.now() };
  const gone = (performance.now() - clockBase.at) / 1000;
  const mmss = (s) => {
    const left = Math.max(0, Math.floor(s - gone));
    const h = Math.floor(left / 3600);
    const m = Math.floor((left % 3600) / 60);
    const sec = String(left % 60).padStart(2, '0');
    return h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
  };
  let text;
  if (a.isFinished) text = t('arena_finished');
  else if (a.isStarted) text = t('arena_ends_in', { t: mmss(a.secondsToFinish) });
  else text = t('arena_starts_in_clock', { t: mmss(a.secondsToStart) });
  $('arena-clock').textContent = text;
}

function drawActions(a, loggedIn) {
  if (!loggedIn) return;
  const me = a.me;
  const playing = me && !me.withdraw;
  $('arena-join').hidden = a.isFinished || !!playing;
  const joinButton = $('btn-arena-join');
  joinButton.textContent = me && me.withdraw ? t('arena_come_back') : t('ev_join');
  joinButton.disabled = !!(me && me.pauseDelay);
  if (me && me.pauseDelay) joinButton.textContent = t('arena_back_in', { n: me.pauseDelay });
  const pause = $('btn-arena-pause');
  pause.hidden = a.isFinished || !playing;
  pause.textContent = a.isStarted ? t('arena_pause') : t('arena_leave');
  const end = $('btn-arena-terminate');
  if (end) end.hidden = a.isFinished;
}

function drawStandings(a) {
  const body = $('arena-standings').querySelector('tbody');
  body.textContent = '';
  const myRank = a.me ? a.me.rank : null;
  for (const p of a.standing.players) {
    const row = document.createElement('tr');
    if (p.rank === myRank) row.className = 'me';
    const rank = document.createElement('td');
    rank.textContent = p.rank;
    const name = document.createElement('td');
    const link = document.createElement('a');
    link.href = `/@/${encodeURIComponent(p.name)}`;
    link.textContent = p.name;
    name.append(link, ` ${p.rating}`);
    if (p.withdraw) {
      const paused = document.createElement('span');
      paused.className = 'paused';
      paused.title = t('arena_paused');
      paused.textContent = ' ⏸';
      name.append(paused);
    }
    const sheet = document.createElement('td');
    sheet.className = 'sheet';
    // lichess writes the latest game first; the page reads left to right, oldest first.
    sheet.textContent = [...(p.sheet.scores || '')].reverse().join(' ');
    if (p.sheet.fire) {
      const fire = document.createElement('span');
      fire.className = 'fire';
      fire.title = t('arena_on_fire');
      fire.textContent = ' ×2';
      sheet.append(fire);
    }
    const score = document.createElement('td');
    score.className = 'score';
    score.textContent = p.score;
    row.append(rank, name, sheet, score);
    body.append(row);
  }
  const pages = Math.max(1, Math.ceil(a.nbPlayers / PAGE));
  const now = a.standing.page || 1;
  $('page-now').textContent = t('arena_page', { n: now, of: pages });
  $('page-prev').disabled = now <= 1;
  $('page-next').disabled = now >= pages;
  const minePage = myRank ? Math.ceil(myRank / PAGE) : null;
  $('page-mine').hidden = !minePage || minePage === now;
}

function drawPodium(a) {
  const podium = $('podium');
  podium.hidden = !a.isFinished || !a.podium || a.podium.length === 0;
  if (podium.hidden) return;
  const list = $('podium-list');
  list.textContent = '';
  for (const p of a.podium) {
    const item = document.createElement('li');
    item.className = `place-${p.rank}`;
    const name = document.createElement('strong');
    name.textContent = p.name;
    item.append(name, ` ${t('arena_podium_line', { score: p.score, games: p.nb.game, wins: p.nb.win, berserk: p.nb.berserk })}`);
    list.append(item);
  }
}

function drawDuels(a) {
  const list = $('duels');
  list.textContent = '';
  for (const d of a.duels || []) {
    const item = document.createElement('li');
    const link = document.createElement('a');
    link.href = `/game/${d.id}`;
    link.textContent = `${d.p[0].n} (#${d.p[0].k}) – ${d.p[1].n} (#${d.p[1].k})`;
    item.append(link);
    list.append(item);
  }
  if (!a.duels || a.duels.length === 0) {
    const item = document.createElement('li');
    item.className = 'muted';
    item.textContent = t('arena_no_games');
    list.append(item);
  }
}

/** Small live boards, each following the k-th best game under way. */
function mountBoards(id, latest) {
  const root = $('arena-boards');
  for (let k = 0; k < BOARDS; k += 1) {
    const box = document.createElement('div');
    box.className = 'tv small';
    root.append(box);
    const source = async (after) => {
      const a = latest();
      const duels = (a && a.duels) || [];
      const d = duels.filter((g) => g.id !== after)[k];
      if (!d) return null;
      return {
        id: d.id,
        white: d.p[0].n,
        black: d.p[1].n,
        white_rating: d.p[0].r,
        black_rating: d.p[1].r,
        time_control: a.clock ? `${a.clock.limit / 60}+${a.clock.increment}` : '',
      };
    };
    mountTv(box, { small: true, source });
  }
  // Only as many boards as games under way.
  setInterval(() => {
    const a = latest();
    const n = (a && a.duels ? a.duels.length : 0);
    [...root.children].forEach((box, k) => {
      box.hidden = k >= n;
    });
  }, 1000);
}

function chat(id) {
  const lines = $('arena-chat-lines');
  const seen = new Set();
  const read = async () => {
    try {
      const res = await fetch(`/api/tournament/${id}/chat`);
      if (!res.ok) return;
      for (const line of await res.json()) {
        if (seen.has(line.id)) continue;
        seen.add(line.id);
        const item = document.createElement('li');
        const who = document.createElement('strong');
        who.textContent = line.name;
        item.append(who, ` ${line.text}`);
        lines.append(item);
        lines.scrollTop = lines.scrollHeight;
      }
    } catch {
      // Next time.
    }
  };
  const chatForm = $('arena-chat-form');
  if (chatForm) {
    const input = $('arena-chat-input');
    const count = () => {
      $('arena-chat-count').textContent = `${input.value.length}/140`;
    };
    input.addEventListener('input', count);
    chatForm.addEventListener('submit', async (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      if (await post(`/api/tournament/${id}/chat`, { text })) {
        input.value = '';
        count();
        read();
      }
    });
  }
  setInterval(read, CHAT_MS);
  read();
}
