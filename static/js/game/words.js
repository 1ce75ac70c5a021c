// What the game says in words, from plain values: the conflicts and mistakes a change
// brought, the check's answer, a practice's progress, the saving line, and the changes the server refused.
// Places are named by the page's namer (places.js), handed in as `where`.
//
// Imports nothing.

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
    const others = partners.map(where).join(" and ");
    told.push(`Conflict: the ${digit} in ${where(i)} is also in ${others || "its row, column or box"}.`);
  }
  for (const i of state.wrong || []) {
    if (!known.wrong.has(i)) told.push(`The ${state.values[i]} in ${where(i)} is a mistake.`);
  }
  return told.join(" ");
}

// The check's answer: how many digits are wrong, the one named when there is one.
export function checkedWords(wrong, values, where) {
  if (!wrong.length) return "No mistakes so far.";
  if (wrong.length > 1) return `${wrong.length} digits are wrong, marked on the board.`;
  return `1 digit is wrong: the ${values[wrong[0]]} in ${where(wrong[0])}.`;
}

// The practice's eliminations found so far, the last one named ("" once found).
export function practiceProgress(practice, where) {
  const taken = (practice && practice.taken_out) || [];
  if (!practice || practice.found || !taken.length) return "";
  const [cell, digit] = taken[taken.length - 1];
  return `${digit} out of ${where(cell)}: that is one. ${taken.length} found so far.`;
}

// Whether everything is saved, and how many changes wait, in words; and the few words a
// phone's one-line header has room for ("" for the whole words). `busy`: the seconds left
// of a wait the server asked for (0: none); `sending`: a batch is on its way (else what
// waits is kept here until the next batch goes).
export function savedWords({ broken, waiting, unkept, offline, playing, busy = 0, sending = true }) {
  if (broken) return ["Not saved", "Not saved"];
  const changes = waiting === 1 ? "1 change" : `${waiting} changes`;
  const where = unkept ? "waiting (this browser's storage is full)" : "kept on this device";
  if (offline && waiting) return [`Offline: ${changes} ${where}`, `Offline · ${waiting}`];
  if (busy && waiting) return [`Busy: ${changes} ${where}, sending in ${busy} s`, `Busy · ${waiting}`];
  if (waiting && !sending && !unkept) return [`${changes[0].toUpperCase()}${changes.slice(1)} kept on this device`, `Kept · ${waiting}`];
  if (waiting) return [`Saving ${changes}…`, `Saving ${waiting}`];
  if (offline) return ["Offline: all saved", "Offline"];
  return [playing ? "Saved" : "", ""];
}

// Help asked while the server asks the page to wait (`ms` left).
export function busyWords(ms) {
  return `The server is busy: ask again in ${Math.ceil(ms / 1000)} s. Your moves are kept.`;
}

// Changes another device's made impossible: {id, cell, reason} each.
export function refusedWords(refused, where) {
  const words = refused.map((r) => r.reason || `Your change in ${where(r.cell)} was not saved.`);
  return `${[...new Set(words)].join(" ")} The board shows the game as stored.`;
}

export function closedWords(error, lost) {
  const count = lost === 1 ? "One change was" : `${lost} changes were`;
  return `${error || "The game changed."}${lost ? ` ${count} not saved.` : ""}`;
}

export function unreadableWords(count, error) {
  const what = count === 1 ? "A change" : `${count} changes`;
  return `${what} could not be saved: ${error || "the server refused them"}`;
}
