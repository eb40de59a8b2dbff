// Translated strings: the server puts the page's language catalogue in a JSON script element.

const catalogue = JSON.parse(document.getElementById('i18n').textContent || '{}');

/** The text for `key`, with `{name}` placeholders filled from `vars`. */
export function t(key, vars = {}) {
  const text = catalogue[key] !== undefined ? catalogue[key] : key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (vars[name] !== undefined ? vars[name] : ''));
}

/**
 * The reader's preferences (sound, letters, confirm_resign, orientation, lang): the account's
 * on every device, or this browser's for an anonymous reader. The server puts them in the page.
 */
export const prefs = JSON.parse(document.getElementById('prefs')?.textContent || '{}');

/** Saves a change of preferences (to the account, or this browser's cookie). */
export function savePrefs(patch) {
  Object.assign(prefs, patch);
  const body = {};
  for (const [key, value] of Object.entries(patch)) {
    body[key] = typeof value === 'boolean' ? (value ? 'on' : 'off') : value;
  }
  fetch('/account/preferences', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  }).catch(() => {});
}

/** The page's language code (`en` or `zh`). */
export const lang = document.documentElement.lang.startsWith('zh') ? 'zh' : 'en';

/**
 * A server refusal as a sentence in the page's language that says what to do: the server
 * sends a stable `code` with its English detail (socket `error` frames: `message`; HTTP
 * bodies: `error`), and the catalogue has `err_<code>` for each; a code it lacks falls back to
 * the server's sentence.
 */
export function problemText(problem) {
  const sentence = problem.message || problem.error || '';
  const key = `err_${problem.code}`;
  return catalogue[key] === undefined ? sentence : t(key, { n: problem.n });
}

/**
 * Shows a refusal in `el` (or with `null` clears it): the sentence of [`problemText`], and the
 * server's own words (which ply of a PGN, which field) folded under "Details", there for whoever
 * wants them and out of the way of whoever does not.
 */
export function showProblem(el, problem) {
  if (!el) return;
  el.textContent = '';
  if (!problem) return;
  const sentence = problemText(problem);
  el.append(sentence);
  const detail = problem.message || problem.error || '';
  if (detail && detail !== sentence) {
    const more = document.createElement('details');
    more.className = 'detail';
    const summary = document.createElement('summary');
    summary.textContent = t('error_details');
    const code = document.createElement('code');
    code.textContent = detail;
    more.append(summary, code);
    el.append(' ', more);
  }
}

/** How a game ended, in the reader's words: the core's termination (`insufficient material`)
 * as its catalogue key (`end_insufficient_material`), as the server's `Tr::ending` builds it. */
export function endingWords(termination) {
  return t(`end_${termination.replace(/[^a-z]+/g, '_')}`);
}

const LETTERS_ZH = { K: '王', Q: '后', R: '车', B: '象', N: '马' };

/** How the reader letters the pieces in moves: `zh` (马f3) or `latin` (Nf3); by default, as
 * the page's language does. One choice for every move list, engine line and score sheet. */
export function letters() {
  return prefs.letters === 'latin' || prefs.letters === 'zh' ? prefs.letters : (lang === 'zh' ? 'zh' : 'latin');
}

/** A move in SAN (or a line of them) with the reader's piece letters. */
export function moveText(san) {
  return letters() === 'zh' ? san.replace(/[KQRBN]/g, (c) => LETTERS_ZH[c]) : san;
}

/** Wires the language switcher: a cookie the server reads, then a reload. */
export function languageSwitcher() {
  const select = document.getElementById('lang');
  if (!select) return;
  select.value = lang;
  select.addEventListener('change', () => {
    document.cookie = `lang=${select.value}; path=/; max-age=31536000; samesite=lax`;
    location.reload();
  });
}

/**
 * A clock as every board shows it: days and hours for correspondence (`2d 23h`), `h:mm:ss`,
 * `m:ss`, and tenths under ten seconds.
 */
export function formatClock(ms) {
  // Correspondence: days and hours.
  if (ms >= 86400000) {
    return t('days_short', { d: Math.floor(ms / 86400000), h: Math.floor((ms % 86400000) / 3600000) });
  }
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n) => String(n).padStart(2, '0');
  if (h > 0) return `${h}:${two(m)}:${two(s)}`;
  if (ms < 10000) return `${m}:${two(s)}.${Math.floor((ms % 1000) / 100)}`;
  return `${m}:${two(s)}`;
}

/**
 * A player's name in the page's language: a bot's ("Rookery bot level 3") and a guest's
 * generated one ("Quiet Heron 42") are said in the reader's words; any other name is the
 * player's own.
 */
export function playerName(name) {
  if (!name) return name;
  const bot = /^Rookery bot level (\d+)$/.exec(name);
  if (bot) return t('bot_name', { n: bot[1] });
  const guest = /^(\w+) (\w+) (\d+)$/.exec(name);
  if (guest && catalogue[`guest:${guest[1]}`] !== undefined && catalogue[`guest:${guest[2]}`] !== undefined) {
    return t('guest_name', { adj: t(`guest:${guest[1]}`), animal: t(`guest:${guest[2]}`), n: guest[3] });
  }
  return name;
}

/**
 * An opening's name in the page's language: lichess's English names, the family (before
 * the colon) in the reader's words where it has a common name ("西西里防御：Najdorf Variation").
 */
export function openingName(name) {
  if (!name) return name;
  const colon = name.indexOf(':');
  const family = colon < 0 ? name : name.slice(0, colon);
  const rest = colon < 0 ? '' : name.slice(colon + 1).trim();
  const key = `opening:${family}`;
  if (catalogue[key] === undefined) return name;
  const said = t(key);
  if (!rest) return said;
  return lang === 'zh' ? `${said}：${rest}` : `${said}: ${rest}`;
}
