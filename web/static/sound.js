// Short synthesized sounds (WebAudio, no files): move, capture, check, game end. Muted or
// not is a preference (the account's, or this browser's). The audio context starts on the
// first user gesture, as browsers require.

import { prefs, savePrefs } from './i18n.js';

let context = null;
let muted = prefs.sound === false;

function ensure() {
  if (!context && window.AudioContext) context = new AudioContext();
  return context;
}
window.addEventListener('pointerdown', ensure, { once: true });
window.addEventListener('keydown', ensure, { once: true });

function tone(freq, start, length, gain = 0.08) {
  const ctx = context;
  if (!ctx || ctx.state !== 'running') return;
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.frequency.value = freq;
  osc.type = 'triangle';
  const t0 = ctx.currentTime + start;
  amp.gain.setValueAtTime(gain, t0);
  amp.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
  osc.connect(amp).connect(ctx.destination);
  osc.start(t0);
  osc.stop(t0 + length + 0.02);
}

export function isMuted() {
  return muted;
}

export function setMuted(value) {
  muted = value;
  savePrefs({ sound: !value });
}

/** Plays `kind`: "move", "capture", "check" or "end". */
export function play(kind) {
  if (muted) return;
  switch (kind) {
    case 'capture':
      tone(220, 0, 0.12, 0.12);
      break;
    case 'check':
      tone(660, 0, 0.08);
      tone(880, 0.08, 0.12);
      break;
    case 'end':
      tone(523, 0, 0.3);
      tone(659, 0.05, 0.3);
      tone(784, 0.1, 0.4);
      break;
    default:
      tone(440, 0, 0.07);
  }
}
