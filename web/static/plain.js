// Pages with no script of their own (a player's page, "not found"): the language switcher.
// A file, not an inline script: the Content-Security-Policy allows scripts from files only.

import { languageSwitcher } from './i18n.js';

languageSwitcher();
