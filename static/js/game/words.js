// What the game says in words, from plain values: the conflicts and mistakes a change
// brought, the check's answer, a practice's progress, the saving line, and the changes the server refused.
// Places are named by the page's namer (places.js), handed in as `where`.
//
// Every sentence is one msgid of the catalog (i18n.js), its values named in it.
//
// Imports the catalog's words (i18n.js).

import { gettext, interpolate, listed, ngettext } from "./i18n.js";

// The conflicts and marked mistakes of `state` not in `known` ({conflicts, wrong}: sets),
// from the cell just filled first; a pair of clashing cells is one conflict, said once.
export function troubleWords(state, known, { peers, selected, where }) {
  const conflicts = new Set(state.conflicts || []);
  const told = [];
  const fresh = [...conflicts].filter((i) => !known.conflicts.has(i));
  const said = new Set();
  for (const i of fresh.sort((a, b) => (b === selected) - (a === selected))) {
    if (said.has(i)) continue;
    const digit = state.values[i];
    const partners = peers[i].filter((j) => state.values[j] === digit && conflicts.has(j));
    partners.forEach((j) => said.add(j));
    said.add(i);
    const values = { digit, place: where(i), others: listed(partners.map(where)) };
    const words = partners.length
      ? gettext("Conflict: the %(digit)s in %(place)s is also in %(others)s.")
      : gettext("Conflict: the %(digit)s in %(place)s is also in its row, column or box.");
    told.push(interpolate(words, values));
  }
  for (const i of state.wrong || []) {
    const values = { digit: state.values[i], place: where(i) };
    if (!known.wrong.has(i)) told.push(interpolate(gettext("The %(digit)s in %(place)s is a mistake."), values));
  }
  return told.join(" ");
}

// The check's answer: how many digits are wrong, the one named when there is one.
export function checkedWords(wrong, values, where) {
  if (!wrong.length) return gettext("No mistakes so far.");
  if (wrong.length > 1) {
    const words = ngettext("%(count)s digit is wrong, marked on the board.", "%(count)s digits are wrong, marked on the board.", wrong.length);
    return interpolate(words, { count: wrong.length });
  }
  return interpolate(gettext("1 digit is wrong: the %(digit)s in %(place)s."), { digit: values[wrong[0]], place: where(wrong[0]) });
}

// The practice's eliminations found so far, the last one named ("" once found).
export function practiceProgress(practice, where) {
  const taken = (practice && practice.taken_out) || [];
  if (!practice || practice.found || !taken.length) return "";
  const [cell, digit] = taken[taken.length - 1];
  const words = ngettext(
    "%(digit)s out of %(place)s: that is one. %(count)s found so far.",
    "%(digit)s out of %(place)s: that is one. %(count)s found so far.",
    taken.length,
  );
  return interpolate(words, { digit, place: where(cell), count: taken.length });
}

// Whether everything is saved, and how many changes wait, in words; and the few words a
// phone's one-line header has room for ("" for the whole words). `busy`: the seconds left
// of a wait the server asked for (0: none); `sending`: a batch is on its way (else what
// waits is kept here until the next batch goes).
export function savedWords({ broken, waiting, unkept, offline, playing, busy = 0, sending = true }) {
  if (broken) return [gettext("Not saved"), gettext("Not saved")];
  const values = { count: waiting, seconds: busy };
  const say = (words) => interpolate(words, values);
  if (offline && waiting) return [say(offlineWords(waiting, unkept)), say(gettext("Offline · %(count)s"))];
  if (busy && waiting) return [say(busyLineWords(waiting, unkept)), say(gettext("Busy · %(count)s"))];
  if (waiting && !sending && !unkept) {
    return [say(ngettext("%(count)s change kept on this device", "%(count)s changes kept on this device", waiting)), say(gettext("Kept · %(count)s"))];
  }
  if (waiting) return [say(ngettext("Saving %(count)s change…", "Saving %(count)s changes…", waiting)), say(gettext("Saving %(count)s"))];
  if (offline) return [gettext("Offline: all saved"), gettext("Offline")];
  return [playing ? gettext("Saved") : "", ""];
}

// The saving line offline, the changes kept here or (`unkept`) waiting.
function offlineWords(waiting, unkept) {
  return unkept
    ? ngettext(
        "Offline: %(count)s change waiting (this browser's storage is full)",
        "Offline: %(count)s changes waiting (this browser's storage is full)",
        waiting,
      )
    : ngettext("Offline: %(count)s change kept on this device", "Offline: %(count)s changes kept on this device", waiting);
}

// The saving line while the server asks for a wait (`seconds` of it left).
function busyLineWords(waiting, unkept) {
  return unkept
    ? ngettext(
        "Busy: %(count)s change waiting (this browser's storage is full), sending in %(seconds)s s",
        "Busy: %(count)s changes waiting (this browser's storage is full), sending in %(seconds)s s",
        waiting,
      )
    : ngettext(
        "Busy: %(count)s change kept on this device, sending in %(seconds)s s",
        "Busy: %(count)s changes kept on this device, sending in %(seconds)s s",
        waiting,
      );
}

// Help asked while the server asks the page to wait (`ms` left).
export function busyWords(ms) {
  const seconds = Math.ceil(ms / 1000);
  return interpolate(gettext("The server is busy: ask again in %(seconds)s s. Your moves are kept."), { seconds });
}

// Changes another device's made impossible: {id, cell, reason} each.
export function refusedWords(refused, where) {
  const mine = (cell) => interpolate(gettext("Your change in %(place)s was not saved."), { place: where(cell) });
  const words = refused.map((r) => r.reason || mine(r.cell));
  return interpolate(gettext("%(refused)s The board shows the game as stored."), { refused: [...new Set(words)].join(" ") });
}

// The game closed to this page (`error`, the server's words), `lost` changes not saved.
export function closedWords(error, lost) {
  const why = error || gettext("The game changed.");
  if (!lost) return why;
  const count =
    lost === 1
      ? gettext("One change was not saved.")
      : interpolate(ngettext("%(count)s change was not saved.", "%(count)s changes were not saved.", lost), { count: lost });
  return `${why} ${count}`;
}

export function unreadableWords(count, error) {
  if (!error) {
    return count === 1
      ? gettext("A change could not be saved: the server refused them")
      : interpolate(ngettext("%(count)s change could not be saved: the server refused them", "%(count)s changes could not be saved: the server refused them", count), { count });
  }
  const words =
    count === 1
      ? gettext("A change could not be saved: %(error)s")
      : ngettext("%(count)s change could not be saved: %(error)s", "%(count)s changes could not be saved: %(error)s", count);
  return interpolate(words, { count, error });
}

// What the game (model.js) says as it goes: all notes filled, a practice's step found, the
// page out of date, a digit chosen first, the way of input switched, a cell revealed.
export const gameWords = {
  filled: () => gettext("Every empty cell now holds the digits it can take."),
  found: (technique) => interpolate(gettext("Found it: that is the step “%(technique)s” makes."), { technique }),
  outOfDate: (error) => interpolate(gettext("%(error)s Reload the page to go on."), { error: error || gettext("This page is out of date.") }),
  digitChosen: (digit) => interpolate(gettext("%(digit)s chosen: tap the cells it goes in. Tap %(digit)s again to stop."), { digit }),
  inputMode: (digitFirst) =>
    digitFirst ? gettext("Digit first: choose a digit, then tap its cells.") : gettext("Cell first: tap a cell, then its digit."),
  revealed: (digit, place) => interpolate(gettext("Revealed: the %(digit)s in %(place)s."), { digit, place }),
};
