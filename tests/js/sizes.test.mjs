// The page's scripts stay small: no module over 500 lines, no function (a function, a
// method, an arrow function with a body) over 60. Sizes are read from the source with
// strings, comments and regular expressions blanked, so that only the code's braces count.

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const SCRIPTS = fileURLToPath(new URL("../../static/js/", import.meta.url));
const MODULE_LINES = 500;
const FUNCTION_LINES = 60;
const NOT_FUNCTIONS = new Set(["if", "for", "while", "switch", "catch", "with"]);

function scripts(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return scripts(path);
    return entry.name.endsWith(".js") ? [path] : [];
  });
}

// A quoted string or template literal from `start`: where it ends (past the quote).
function endOfString(source, start) {
  const quote = source[start];
  let depth = 0; // ${...} inside a template literal
  for (let j = start + 1; j < source.length; j++) {
    if (source[j] === "\\") j++;
    else if (quote === "`" && source.startsWith("${", j)) depth++;
    else if (quote === "`" && depth && source[j] === "}") depth--;
    else if (source[j] === quote && !depth) return j + 1;
  }
  return source.length;
}

// A regular expression literal from `start`: where it ends (past the closing slash).
function endOfRegex(source, start) {
  let inClass = false;
  for (let j = start + 1; j < source.length; j++) {
    if (source[j] === "\\") j++;
    else if (source[j] === "[") inClass = true;
    else if (source[j] === "]") inClass = false;
    else if (source[j] === "/" && !inClass) return j + 1;
  }
  return source.length;
}

// The source with every string, comment and regular expression turned to spaces
// (newlines kept, so that line numbers stay).
function blanked(source) {
  const spaces = (text) => text.replace(/[^\n]/g, " ");
  let out = "";
  let last = ""; // the last character of code: a slash after an operand divides
  for (let i = 0; i < source.length; ) {
    let end = i + 1;
    if (source.startsWith("//", i)) end = source.indexOf("\n", i) < 0 ? source.length : source.indexOf("\n", i);
    else if (source.startsWith("/*", i)) end = source.indexOf("*/", i) + 2;
    else if ("\"'`".includes(source[i])) end = endOfString(source, i);
    else if (source[i] === "/" && (last === "" || "(,=:[!&|?{};".includes(last))) end = endOfRegex(source, i);
    else {
      out += source[i];
      if (!/\s/.test(source[i])) last = source[i];
      i = end;
      continue;
    }
    out += spaces(source.slice(i, end));
    last = "x";
    i = end;
  }
  return out;
}

// Whether the brace at `at` opens a function's body: after `=>`, or after the parameters
// of a function or a method (not of an if, a for, a while...).
function opensFunction(code, at) {
  const before = code.slice(0, at).trimEnd();
  if (before.endsWith("=>")) return true;
  if (!before.endsWith(")")) return false;
  let depth = 0;
  let k = before.length - 1;
  for (; k >= 0; k--) {
    if (before[k] === ")") depth++;
    else if (before[k] === "(" && --depth === 0) break;
  }
  const word = /([A-Za-z_$][\w$]*)\s*$/.exec(before.slice(0, k));
  return !!word && !NOT_FUNCTIONS.has(word[1]);
}

// Every function's body: [first line, lines].
function functionSizes(code) {
  const sizes = [];
  for (let at = code.indexOf("{"); at >= 0; at = code.indexOf("{", at + 1)) {
    if (!opensFunction(code, at)) continue;
    let depth = 0;
    let end = at;
    for (; end < code.length; end++) {
      if (code[end] === "{") depth++;
      else if (code[end] === "}" && --depth === 0) break;
    }
    const first = code.slice(0, at).split("\n").length;
    sizes.push([first, code.slice(at, end).split("\n").length]);
  }
  return sizes;
}

test("no module of the page's scripts is over 500 lines", () => {
  const long = scripts(SCRIPTS)
    .map((path) => [path, readFileSync(path, "utf8").split("\n").length - 1])
    .filter(([, lines]) => lines > MODULE_LINES);
  assert.deepEqual(long, []);
});

test("no function of the page's scripts is over 60 lines", () => {
  const long = scripts(SCRIPTS).flatMap((path) =>
    functionSizes(blanked(readFileSync(path, "utf8")))
      .filter(([, lines]) => lines > FUNCTION_LINES)
      .map(([line, lines]) => `${path}:${line}: ${lines} lines`),
  );
  assert.deepEqual(long, []);
});

test("the measure sees a long function, and no braces in strings, comments or patterns", () => {
  const body = Array.from({ length: 70 }, (_, k) => `  total += ${k};`).join("\n");
  const source = `function long() {\n${body}\n}\nif (x) {\n}\nconst s = "{ {";\n// }\nconst r = /[{]/;\n`;
  assert.deepEqual(functionSizes(blanked(source)), [[1, 72]]);
  assert.equal(blanked("a = '}' + `${b}`;").includes("}"), false);
});
