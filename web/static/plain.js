// Pages with no script of their own (a player's page, "not found"): the language switcher.
// A file, not an inline script: the Content-Security-Policy allows scripts from files only.

import { languageSwitcher } from './i18n.js';

languageSwitcher();

// The settings form: turning notifications on asks the browser's permission there and then.
const notify = document.getElementById('pref-notify');
if (notify && 'Notification' in window) {
  notify.addEventListener('change', () => {
    if (notify.value === 'on' && Notification.permission === 'default') Notification.requestPermission();
  });
}
