// Places on the board named for people: "row 2, column 5", or "r2c5" for a player who chose
// compact places (the `compact_places` setting, which the server's hints follow too:
// engine/wording.py `place`). The page names every place through here.
//
// Imports the catalog's words (i18n.js).

import { gettext, interpolate } from "./i18n.js";

// The cell's name; `start` for the head of a sentence or of a cell's label ("Row 2, column 5").
// The compact name stays as players write it, lower case, wherever it stands.
export function place(i, { compact = false, start = false } = {}) {
  const row = Math.floor(i / 9) + 1;
  const column = (i % 9) + 1;
  if (compact) return `r${row}c${column}`;
  return interpolate(start ? gettext("Row %(row)s, column %(column)s") : gettext("row %(row)s, column %(column)s"), { row, column });
}

// The namer of one page: its setting given once, every place named the same way.
export function placeNamer(compact) {
  const name = (i) => place(i, { compact });
  name.atStart = (i) => place(i, { compact, start: true });
  return name;
}
