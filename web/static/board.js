// The board: draws a position, highlights the last move, checks and legal destinations, and
// lets a player move by drag-and-drop or by two clicks (mouse, touch or keyboard). It knows
// no rules: what may move where comes from the server (`dests`). On the opponent's turn it
// can hold one premove (any own piece to any other square): the page sends it when the
// server's next `dests` allow it, and drops it otherwise.

import { pieceSvg, pieceOfLetter } from './pieces.js';

const FILES = 'abcdefgh';

/** Squares to FEN letters, from the placement field of a FEN. */
export function parsePlacement(fen) {
  const pieces = new Map();
  const rows = fen.split(' ')[0].split('/');
  rows.forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (ch >= '1' && ch <= '8') {
        file += Number(ch);
      } else {
        pieces.set(FILES[file] + (8 - i), ch);
        file += 1;
      }
    }
  });
  return pieces;
}

const ROLE_NAMES = { p: 'pawn', n: 'knight', b: 'bishop', r: 'rook', q: 'queen', k: 'king' };

export class Board {
  /**
   * @param {HTMLElement} root an empty element to draw in
   * @param {{orientation?: string, onMove?: Function, t?: Function}} options
   */
  constructor(root, options = {}) {
    this.root = root;
    this.orientation = options.orientation || 'white';
    this.onMove = options.onMove || (() => {});
    this.t = options.t || ((k) => k);
    this.pieces = new Map();
    this.dests = {};
    this.promotions = {}; // "e7e8" -> ["q", "r", "b", "n"]: the server's promotion moves
    this.movable = null; // the color the user may move now, or null
    this.premovable = null; // the color that may set a premove now, or null
    this.premove = null; // [from, to] set on the opponent's turn
    this.onPremove = options.onPremove || (() => {});
    this.lastMove = null;
    this.check = null;
    this.arrows = []; // [from, to] pairs drawn over the board (an engine's best move)
    this.selected = null;
    this.drag = null;
    this.squares = new Map();
    this.root.classList.add('board');
    this.root.setAttribute('role', 'grid');
    this.root.setAttribute('aria-label', this.t('board'));
    this.build();
    // A right-click cancels a premove (and opens no menu on the board).
    this.root.addEventListener('contextmenu', (e) => {
      e.preventDefault();
      this.setPremove(null);
    });
    this.root.addEventListener('pointerdown', (e) => this.pointerDown(e));
    window.addEventListener('pointermove', (e) => this.pointerMove(e));
    window.addEventListener('pointerup', (e) => this.pointerUp(e));
    window.addEventListener('pointercancel', () => this.cancelDrag());
    this.root.addEventListener('keydown', (e) => {
      if ((e.key === 'Enter' || e.key === ' ') && e.target.dataset && e.target.dataset.sq) {
        e.preventDefault();
        this.activate(e.target.dataset.sq);
      }
    });
  }

  /** Shows a position: `fen`, and optionally `dests`, `movable`, `lastMove` [from, to], `check`. */
  set({ fen, dests = {}, promotions = {}, movable = null, premovable = null, lastMove = null, check = null }) {
    this.pieces = parsePlacement(fen);
    this.dests = dests || {};
    this.promotions = promotions || {};
    this.movable = movable;
    this.premovable = movable ? null : premovable;
    this.lastMove = lastMove;
    this.check = check;
    if (this.selected && !this.canMoveFrom(this.selected)) this.selected = null;
    this.render();
  }

  /** Sets (or with null clears) the premove, and tells the page. */
  setPremove(move) {
    const had = this.premove;
    this.premove = move;
    this.selected = null;
    this.render();
    if (had || move) this.onPremove(move);
  }

  /** Where the piece on `from` may be moved (or premoved) now. */
  targets(from) {
    if (this.movable) return this.dests[from] || [];
    if (!this.premovable || !this.canMoveFrom(from)) return [];
    // A premove may go anywhere but onto one's own pieces: the server judges it later.
    const own = this.premovable[0];
    return [...this.squares.keys()].filter((sq) => {
      const letter = this.pieces.get(sq);
      return sq !== from && !(letter && pieceOfLetter(letter).color === own);
    });
  }

  /** Draws arrows over the board (each `[from, to]`), replacing those drawn before. */
  setArrows(arrows) {
    this.arrows = arrows || [];
    this.drawArrows();
  }

  drawArrows() {
    this.root.querySelector(':scope > svg.arrows')?.remove();
    if (!this.arrows.length) return;
    const NS = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(NS, 'svg');
    svg.setAttribute('class', 'arrows');
    svg.setAttribute('viewBox', '0 0 8 8');
    svg.setAttribute('aria-hidden', 'true');
    svg.innerHTML = '<defs><marker id="arrowhead" viewBox="0 0 4 4" refX="2" refY="2" markerWidth="2.5" markerHeight="2.5" orient="auto"><path d="M0,0 L4,2 L0,4 z"/></marker></defs>';
    const centre = (sq) => {
      const file = FILES.indexOf(sq[0]);
      const rank = Number(sq[1]);
      const x = this.orientation === 'white' ? file : 7 - file;
      const y = this.orientation === 'white' ? 8 - rank : rank - 1;
      return [x + 0.5, y + 0.5];
    };
    for (const [from, to] of this.arrows) {
      const [x1, y1] = centre(from);
      const [x2, y2] = centre(to);
      // Stop short of the centre so the head sits inside the square.
      const len = Math.hypot(x2 - x1, y2 - y1) || 1;
      const line = document.createElementNS(NS, 'line');
      line.setAttribute('x1', x1);
      line.setAttribute('y1', y1);
      line.setAttribute('x2', x2 - ((x2 - x1) / len) * 0.35);
      line.setAttribute('y2', y2 - ((y2 - y1) / len) * 0.35);
      line.setAttribute('marker-end', 'url(#arrowhead)');
      line.dataset.move = from + to;
      svg.appendChild(line);
    }
    this.root.appendChild(svg);
  }

  setOrientation(color) {
    if (color !== this.orientation) {
      this.orientation = color;
      this.build();
      this.render();
    }
  }

  flip() {
    this.setOrientation(this.orientation === 'white' ? 'black' : 'white');
  }

  build() {
    this.root.textContent = '';
    this.squares.clear();
    for (let row = 0; row < 8; row++) {
      const line = document.createElement('div');
      line.className = 'rank';
      line.setAttribute('role', 'row');
      for (let col = 0; col < 8; col++) {
        const file = this.orientation === 'white' ? col : 7 - col;
        const rank = this.orientation === 'white' ? 8 - row : row + 1;
        const sq = FILES[file] + rank;
        const el = document.createElement('div');
        el.className = 'sq ' + ((file + rank) % 2 === 0 ? 'light' : 'dark');
        el.dataset.sq = sq;
        el.setAttribute('role', 'gridcell');
        if (col === 0) el.insertAdjacentHTML('beforeend', `<span class="coord rank-label">${rank}</span>`);
        if (row === 7) el.insertAdjacentHTML('beforeend', `<span class="coord file-label">${FILES[file]}</span>`);
        const holder = document.createElement('div');
        holder.className = 'holder';
        el.appendChild(holder);
        line.appendChild(el);
        this.squares.set(sq, el);
      }
      this.root.appendChild(line);
    }
    this.drawArrows();
  }

  render() {
    const targets = this.selected && this.movable ? this.targets(this.selected) : [];
    for (const [sq, el] of this.squares) {
      const letter = this.pieces.get(sq);
      const holder = el.querySelector('.holder');
      const key = letter || '';
      if (holder.dataset.piece !== key) {
        holder.dataset.piece = key;
        if (letter) {
          const { color, role } = pieceOfLetter(letter);
          holder.innerHTML = pieceSvg(color, role);
        } else {
          holder.textContent = '';
        }
      }
      let label = sq;
      if (letter) {
        const { color, role } = pieceOfLetter(letter);
        label += ', ' + this.t(color === 'w' ? 'white' : 'black') + ' ' + this.t(ROLE_NAMES[role]);
      }
      el.setAttribute('aria-label', label);
      const selectable = this.canMoveFrom(sq);
      const target = targets.includes(sq);
      el.classList.toggle('last', !!this.lastMove && this.lastMove.includes(sq));
      el.classList.toggle('check', this.check === sq);
      el.classList.toggle('selected', this.selected === sq);
      el.classList.toggle('dest', target && !letter);
      el.classList.toggle('capture', target && !!letter);
      el.classList.toggle('movable', selectable);
      el.classList.toggle('premove', !!this.premove && this.premove.includes(sq));
      el.tabIndex = selectable || target ? 0 : -1;
    }
  }

  canMoveFrom(sq) {
    const letter = this.pieces.get(sq);
    if (!letter) return false;
    if (this.movable) return !!this.dests[sq] && pieceOfLetter(letter).color === this.movable[0];
    return !!this.premovable && pieceOfLetter(letter).color === this.premovable[0];
  }

  squareAt(x, y) {
    const el = document.elementFromPoint(x, y);
    const square = el && el.closest ? el.closest('[data-sq]') : null;
    return square && this.root.contains(square) ? square.dataset.sq : null;
  }

  /** A click (or Enter) on a square: select, move, or deselect. */
  activate(sq) {
    if (this.selected && this.targets(this.selected).includes(sq)) {
      this.tryMove(this.selected, sq);
    } else if (this.canMoveFrom(sq) && this.selected !== sq) {
      this.selected = sq;
      this.render();
    } else if (this.premove && !this.selected) {
      // A click elsewhere cancels the premove.
      this.setPremove(null);
    } else {
      this.selected = null;
      this.render();
    }
  }

  pointerDown(e) {
    if (e.button !== undefined && e.button !== 0) return;
    const sq = this.squareAt(e.clientX, e.clientY);
    if (!sq) return;
    if (this.selected && this.targets(this.selected).includes(sq)) {
      e.preventDefault();
      this.tryMove(this.selected, sq);
      return;
    }
    if (!this.canMoveFrom(sq)) {
      if (this.premove && !this.selected) {
        this.setPremove(null);
        return;
      }
      this.selected = null;
      this.render();
      return;
    }
    e.preventDefault();
    const wasSelected = this.selected === sq;
    this.selected = sq;
    this.render();
    const holder = this.squares.get(sq).querySelector('.holder');
    const rect = holder.getBoundingClientRect();
    const ghost = holder.cloneNode(true);
    ghost.className = 'holder ghost';
    ghost.style.width = rect.width + 'px';
    ghost.style.height = rect.height + 'px';
    document.body.appendChild(ghost);
    this.drag = { from: sq, ghost, size: rect.width, moved: false, wasSelected, x: e.clientX, y: e.clientY };
    holder.classList.add('dragging');
    this.placeGhost(e.clientX, e.clientY);
  }

  placeGhost(x, y) {
    const { ghost, size } = this.drag;
    ghost.style.left = x - size / 2 + 'px';
    ghost.style.top = y - size / 2 + 'px';
  }

  pointerMove(e) {
    if (!this.drag) return;
    if (Math.abs(e.clientX - this.drag.x) + Math.abs(e.clientY - this.drag.y) > 3) this.drag.moved = true;
    this.placeGhost(e.clientX, e.clientY);
  }

  pointerUp(e) {
    if (!this.drag) return;
    const { from, moved, wasSelected } = this.drag;
    const to = this.squareAt(e.clientX, e.clientY);
    this.cancelDrag();
    if (to && to !== from && this.targets(from).includes(to)) {
      this.tryMove(from, to);
    } else if (to === from && !moved && wasSelected) {
      // A second click on the selected piece drops the selection.
      this.selected = null;
      this.render();
    }
  }

  cancelDrag() {
    if (!this.drag) return;
    this.drag.ghost.remove();
    const el = this.squares.get(this.drag.from);
    if (el) el.querySelector('.holder').classList.remove('dragging');
    this.drag = null;
  }

  tryMove(from, to) {
    if (!this.movable) {
      this.setPremove([from, to]);
      return;
    }
    const letter = this.pieces.get(from) || '';
    const roles = this.promotions[from + to];
    this.selected = null;
    if (roles && roles.length) {
      this.render();
      this.pickPromotion(from, to, letter === letter.toUpperCase() ? 'w' : 'b', roles);
      return;
    }
    this.render();
    this.onMove(from, to, '');
  }

  /** Asks which of `roles` (the server's list) a pawn becomes, then moves. */
  pickPromotion(from, to, color, roles) {
    const picker = document.createElement('div');
    picker.className = 'promotion';
    picker.setAttribute('role', 'dialog');
    picker.setAttribute('aria-label', this.t('promote_to'));
    for (const role of roles) {
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.role = role;
      button.setAttribute('aria-label', this.t(ROLE_NAMES[role]));
      button.innerHTML = pieceSvg(color, role);
      button.addEventListener('click', () => {
        picker.remove();
        this.onMove(from, to, role);
      });
      picker.appendChild(button);
    }
    const cancel = document.createElement('button');
    cancel.type = 'button';
    cancel.className = 'cancel';
    cancel.textContent = '×';
    cancel.setAttribute('aria-label', this.t('cancel'));
    cancel.addEventListener('click', () => picker.remove());
    picker.appendChild(cancel);
    this.root.appendChild(picker);
    picker.querySelector('button').focus();
  }
}
