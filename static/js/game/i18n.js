// The page's words in the player's language: gettext, ngettext, pgettext and interpolate,
// as Django's JavaScript catalog has them, reading the catalog the page carries in
// <script id="js-catalog" type="application/json"> ({catalog: {msgid: text or [plural
// forms]}, plural: "a C expression in n"}, from puzzles/site/js_catalog.py). Read once,
// when first asked; with no catalog (English, or a test in Node with no page) or no entry,
// the English words come back as they are written. The strings handed in are literals, so
// that `manage.py makemessages -d djangojs` finds them.
//
// Imports nothing.

const CONTEXT = "\u0004"; // Django keeps "context\u0004msgid" for a pgettext entry
const SAFE_RULE = /^[\sn0-9!=<>&|?:%()+-]*$/;
const english = (n) => (n !== 1 ? 1 : 0);

let table = null; // {catalog, plural(n) -> index}, once read

// A catalog's plural rule (a C expression in n, as "(n != 1)" or "n%10==1 && n%100!=11 ?
// 0 : ...") as a function of n; English's when it is missing, unsafe or does not parse.
// Read by a small parser, not eval'd: the page's Content-Security-Policy allows no eval.
function pluralRule(expr) {
  if (typeof expr !== "string" || !expr.trim() || !SAFE_RULE.test(expr)) return english;
  try {
    const rule = parseRule(expr);
    return (n) => Number(rule(n));
  } catch {
    return english;
  }
}

// The binary operators by precedence, the loosest first: [token, what it does, ...]; as in
// C, a logical or compared value is 1 or 0.
const BINARY = [
  ["||", (a, b) => +(!!a || !!b)],
  ["&&", (a, b) => +(!!a && !!b)],
  ["==", (a, b) => +(a === b), "!=", (a, b) => +(a !== b)],
  ["<=", (a, b) => +(a <= b), ">=", (a, b) => +(a >= b), "<", (a, b) => +(a < b), ">", (a, b) => +(a > b)],
  ["+", (a, b) => a + b, "-", (a, b) => a - b],
  ["%", (a, b) => a % b],
];

// The rule's expression as a function of n: ?:, ||, &&, comparisons, + - %, !, unary -,
// parentheses, n and whole numbers, with C's precedence.
function parseRule(expr) {
  const tokens = expr.match(/\d+|n|==|!=|<=|>=|&&|\|\||[?:%()<>!+-]/g) || [];
  if (tokens.join("") !== expr.replace(/\s+/g, "")) throw new Error("unreadable plural rule");
  let at = 0;
  const take = (token) => (tokens[at] === token ? (at++, true) : false);
  const need = (token) => {
    if (!take(token)) throw new Error(`plural rule: ${token} expected`);
  };
  const primary = () => {
    const token = tokens[at++];
    if (token === "n") return (n) => n;
    if (/^\d+$/.test(token || "")) return () => Number(token);
    if (token === "!") return ((inner) => (n) => +!inner(n))(primary());
    if (token === "-") return ((inner) => (n) => -inner(n))(primary());
    if (token !== "(") throw new Error("plural rule: a value expected");
    const inner = ternary();
    need(")");
    return inner;
  };
  const level = (depth) => {
    if (depth === BINARY.length) return primary();
    let left = level(depth + 1);
    for (;;) {
      const ops = BINARY[depth];
      const k = ops.findIndex((op, i) => i % 2 === 0 && op === tokens[at]);
      if (k < 0) return left;
      at++;
      const [a, b, apply] = [left, level(depth + 1), ops[k + 1]];
      left = (n) => apply(a(n), b(n));
    }
  };
  const ternary = () => {
    const test = level(0);
    if (!take("?")) return test;
    const yes = ternary();
    need(":");
    const no = ternary();
    return (n) => (test(n) ? yes(n) : no(n));
  };
  const rule = ternary();
  if (at !== tokens.length) throw new Error("plural rule: more than one expression");
  return rule;
}

// Uses `given` ({catalog, plural}, or null for none) from now on: the page's is read this
// way once; a test hands in its own.
export function useCatalog(given) {
  const catalog = given && typeof given.catalog === "object" && given.catalog ? given.catalog : {};
  table = { catalog, plural: pluralRule(given && given.plural) };
}

function read() {
  let given = null;
  try {
    const holder = typeof document !== "undefined" && document.getElementById("js-catalog");
    if (holder) given = JSON.parse(holder.textContent);
  } catch {
    given = null; // words unreadable: English
  }
  useCatalog(given);
}

function catalog() {
  if (!table) read();
  return table;
}

// Whether a catalog with any entry is in use (English has none).
export function translated() {
  return Object.keys(catalog().catalog).length > 0;
}

// The page's language ("de", "pt-br"), which API calls name in Accept-Language so that the
// server answers in it; "" where there is no page (the model's tests).
export function pageLanguage() {
  return (typeof document !== "undefined" && document.documentElement && document.documentElement.lang) || "";
}

export function gettext(msgid) {
  const found = catalog().catalog[msgid];
  if (typeof found === "string" && found) return found;
  if (Array.isArray(found) && typeof found[0] === "string" && found[0]) return found[0];
  return msgid;
}

export function ngettext(singular, plural, n) {
  const { catalog: entries, plural: rule } = catalog();
  const found = entries[singular];
  if (Array.isArray(found)) {
    const form = found[rule(n)];
    if (typeof form === "string" && form) return form;
  } else if (typeof found === "string" && found && n === 1) {
    return found;
  }
  return n === 1 ? singular : plural;
}

export function pgettext(context, msgid) {
  const key = context + CONTEXT + msgid;
  const found = gettext(key);
  return found === key ? msgid : found;
}

// "%(name)s" and "%(name)d" in `fmt` replaced by `obj`'s fields, as Django's
// interpolate(fmt, obj, true); a placeholder with no field is left as it is.
export function interpolate(fmt, obj) {
  return String(fmt).replace(/%\((\w+)\)([sd])/g, (match, name, kind) => {
    if (!obj || !(name in obj)) return match;
    return kind === "d" ? String(Math.trunc(Number(obj[name]))) : String(obj[name]);
  });
}

// The items as a list in words: "row 1, column 2 and row 3, column 4".
export function listed(items) {
  if (!items.length) return "";
  return items.reduce((first, second) => interpolate(gettext("%(first)s and %(second)s"), { first, second }));
}

// A difficulty by its code ("easy") as the page's language names it; the code itself in
// English, as sentences use it ("Play today's easy daily").
export function tierName(code) {
  const names = {
    easy: pgettext("difficulty", "easy"),
    medium: pgettext("difficulty", "medium"),
    hard: pgettext("difficulty", "hard"),
    expert: pgettext("difficulty", "expert"),
    master: pgettext("difficulty", "master"),
    extreme: pgettext("difficulty", "extreme"),
  };
  return names[code] || code;
}
