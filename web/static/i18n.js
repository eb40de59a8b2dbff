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

/** Refusals whose English sentence says where the trouble is (a ply, a line, a field). */
const DETAILED = new Set(['bad_pgn', 'import_refused', 'tournament_refused', 'bad_fen', 'bad_time_control', 'illegal_move']);

/**
 * A server refusal in the page's language: the server sends a stable `code` with its English
 * sentence (socket `error` frames: `message`; HTTP bodies: `error`), and the catalogue has
 * `err_<code>` for each. Where the English sentence carries a detail worth keeping (which
 * ply of a PGN, which field), it follows the translation.
 */
export function problemText(problem) {
  const sentence = problem.message || problem.error || '';
  const key = `err_${problem.code}`;
  if (lang === 'en' || catalogue[key] === undefined) return sentence;
  const text = t(key, { n: problem.n });
  return DETAILED.has(problem.code) && sentence ? `${text}（${sentence}）` : text;
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
