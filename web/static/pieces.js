// Piece drawings for the board: simple shapes drawn for Rookery (same licence as the code).
// Each is an SVG in a 45x45 box; white pieces are light with a dark outline, black pieces
// dark with a light inner line.

const SHAPES = {
  p: `<circle cx="22.5" cy="13.5" r="5.5"/>
      <path d="M15.5 35 C15.5 28 18 25.5 20 24 C17.5 22.5 17 20 18.5 18.5 H26.5 C28 20 27.5 22.5 25 24 C27 25.5 29.5 28 29.5 35 Z"/>
      <path d="M12 35.5 H33 V39.5 H12 Z"/>`,
  r: `<path d="M11.5 9.5 H16 V13 H20 V9.5 H25 V13 H29 V9.5 H33.5 V17 H11.5 Z"/>
      <path d="M14.5 17 H30.5 L29.5 32 H15.5 Z"/>
      <path d="M11 32 H34 V35.5 H11 Z M10 35.5 H35 V39.5 H10 Z"/>
      <path class="line" d="M14.5 17 H30.5 M15.5 32 H29.5"/>`,
  n: `<path d="M15 39 H34 C34.5 30 32 21 27.5 16 C26.5 11 23.5 8.5 19.5 7.5 L18.5 10.5 C16 12 12 16.5 9.5 21 C8.5 23.5 10.5 25.5 13 24.5 C15 23.5 17 22.5 19.5 22 C18.5 27 14.5 31 15 39 Z"/>
      <circle class="eye" cx="17.5" cy="14" r="1.3"/>
      <path class="line" d="M24.5 12 C28.5 16 30.5 22 30.5 30"/>`,
  b: `<circle cx="22.5" cy="7.5" r="2.5"/>
      <path d="M22.5 10 C16.5 14.5 15 20.5 17 26 H28 C30 20.5 28.5 14.5 22.5 10 Z"/>
      <path d="M16 26 H29 V29.5 H16 Z"/>
      <path d="M11 38.5 C15 33 30 33 34 38.5 V40 H11 Z"/>
      <path class="line" d="M20 17 L25.5 21.5 M22.5 29.5 V34"/>`,
  q: `<path d="M11.5 36 L9.5 14 L16 25 L17 11 L22.5 23 L28 11 L29 25 L35.5 14 L33.5 36 Z"/>
      <circle cx="9.5" cy="12.5" r="2.3"/><circle cx="17" cy="9.5" r="2.3"/>
      <circle cx="28" cy="9.5" r="2.3"/><circle cx="35.5" cy="12.5" r="2.3"/>
      <circle cx="22.5" cy="8" r="2.3"/>
      <path d="M10.5 36 H34.5 V40 H10.5 Z"/>
      <path class="line" d="M12 31.5 H33"/>`,
  k: `<path d="M21.5 4.5 H23.5 V8 H27 V10 H23.5 V14 H21.5 V10 H18 V8 H21.5 Z"/>
      <path d="M22.5 14.5 C20 14.5 19 17 20.5 21 C15 17.5 9.5 19 9.5 25 C9.5 29 12.5 32 13.5 35 H31.5 C32.5 32 35.5 29 35.5 25 C35.5 19 30 17.5 24.5 21 C26 17 25 14.5 22.5 14.5 Z"/>
      <path d="M12 35 H33 V39.5 H12 Z"/>
      <path class="line" d="M22.5 21 V31 M13.5 31 H31.5"/>`,
};

// The second set: discs with the pieces' Chinese names, as the seeds write them.
const NAMES = { k: '王', q: '后', r: '车', b: '象', n: '马', p: '兵' };

function disc(role) {
  return `<circle class="disc" cx="22.5" cy="22.5" r="19"/><circle class="line" cx="22.5" cy="22.5" r="15.5"/>
    <text x="22.5" y="23.5" text-anchor="middle" dominant-baseline="central">${NAMES[role]}</text>`;
}

/** An SVG element's markup for a piece: `color` is "w" or "b", `role` one of "pkqrbn". The
 * set is the reader's preference (`data-pieces` on the page). */
export function pieceSvg(color, role) {
  const discs = document.documentElement.dataset.pieces === 'discs';
  const cls = `piece ${color === 'w' ? 'white' : 'black'}${discs ? ' discs' : ''}`;
  const shape = discs ? disc(role) : SHAPES[role];
  return `<svg class="${cls}" viewBox="0 0 45 45" aria-hidden="true" focusable="false">${shape}</svg>`;
}

/** The piece of a FEN letter (`K`, `q`, ...). */
export function pieceOfLetter(letter) {
  const color = letter === letter.toUpperCase() ? 'w' : 'b';
  return { color, role: letter.toLowerCase() };
}
