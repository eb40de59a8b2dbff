// Translated strings: the server puts the page's language catalogue in a JSON script element.

const catalogue = JSON.parse(document.getElementById('i18n').textContent || '{}');

/** The text for `key`, with `{name}` placeholders filled from `vars`. */
export function t(key, vars = {}) {
  const text = catalogue[key] !== undefined ? catalogue[key] : key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (vars[name] !== undefined ? vars[name] : ''));
}

/** The page's language code (`en` or `zh`). */
export const lang = document.documentElement.lang.startsWith('zh') ? 'zh' : 'en';

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
