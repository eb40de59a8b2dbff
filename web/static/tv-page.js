// The TV page: the language switcher and one TV.

import { languageSwitcher } from './i18n.js';
import { mountTv } from './tv.js';

languageSwitcher();
mountTv(document.getElementById('tv'));
