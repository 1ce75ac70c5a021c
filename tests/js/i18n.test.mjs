// The page's words go through a catalog (static/js/game/i18n.js): with none, the English
// words as written; with one, its translations, its plural rule (a three-form one, as
// Russian's) and its context keys; the page's own catalog read from its JSON script.

import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { gettext, interpolate, listed, ngettext, pgettext, useCatalog } from "../../static/js/game/i18n.js";
import { savedWords } from "../../static/js/game/words.js";

const RUSSIAN = {
  plural: "(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)",
  catalog: {
    "No mistakes so far.": "Пока ошибок нет.",
    "%(count)s cell selected": ["%(count)s клетка выбрана", "%(count)s клетки выбраны", "%(count)s клеток выбрано"],
    "game status\u0004Solved": "Решено",
    "%(first)s and %(second)s": "%(first)s и %(second)s",
  },
};

afterEach(() => useCatalog(null));

test("with no catalog the English words come back as written", () => {
  useCatalog(null);
  assert.equal(gettext("No mistakes so far."), "No mistakes so far.");
  assert.equal(ngettext("%(count)s day", "%(count)s days", 1), "%(count)s day");
  assert.equal(ngettext("%(count)s day", "%(count)s days", 0), "%(count)s days");
  assert.equal(ngettext("%(count)s day", "%(count)s days", 21), "%(count)s days");
  assert.equal(pgettext("game status", "Solved"), "Solved");
  assert.equal(listed(["a", "b", "c"]), "a and b and c");
  assert.equal(listed([]), "");
});

test("no page at all (Node has no document): English", async () => {
  const fresh = await import(`../../static/js/game/i18n.js?fresh=${Date.now()}`);
  assert.equal(typeof globalThis.document, "undefined");
  assert.equal(fresh.gettext("Saved"), "Saved");
  assert.equal(fresh.translated(), false);
});

test("interpolate fills named placeholders, %(name)s and %(name)d, and leaves unknown ones", () => {
  assert.equal(interpolate("%(digit)s in %(place)s", { digit: 5, place: "row 2, column 7" }), "5 in row 2, column 7");
  assert.equal(interpolate("%(count)d left", { count: 3.7 }), "3 left");
  assert.equal(interpolate("%(a)s and %(b)s", { a: "x" }), "x and %(b)s");
  assert.equal(interpolate("%(a)s", { a: "%(b)s" }), "%(b)s"); // a value is not read again
});

test("a catalog's words, its three plural forms, and its context keys", () => {
  useCatalog(RUSSIAN);
  assert.equal(gettext("No mistakes so far."), "Пока ошибок нет.");
  assert.equal(gettext("Saved"), "Saved"); // no entry: English
  const selected = (n) => interpolate(ngettext("%(count)s cell selected", "%(count)s cells selected", n), { count: n });
  assert.equal(selected(1), "1 клетка выбрана");
  assert.equal(selected(21), "21 клетка выбрана");
  assert.equal(selected(3), "3 клетки выбраны");
  assert.equal(selected(5), "5 клеток выбрано");
  assert.equal(selected(11), "11 клеток выбрано");
  assert.equal(ngettext("%(count)s day", "%(count)s days", 5), "%(count)s days"); // no entry
  assert.equal(pgettext("game status", "Solved"), "Решено");
  assert.equal(pgettext("other context", "Solved"), "Solved");
  assert.equal(listed(["a", "b"]), "a и b");
});

test("plural rules are read without eval, as C reads them", () => {
  const forms = (plural, ns) => {
    const entry = { x: ["0", "1", "2", "3", "4", "5"] };
    useCatalog({ catalog: entry, plural });
    return ns.map((n) => ngettext("x", "xs", n)).join("");
  };
  const arabic = "n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5";
  assert.equal(forms(arabic, [0, 1, 2, 3, 10, 11, 99, 100, 102, 103]), "0123344553");
  assert.equal(forms(RUSSIAN.plural, [1, 2, 5, 11, 21, 22, 25, 111, 112]), "012201222");
  const polish = "(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)";
  assert.equal(forms(polish, [1, 2, 5, 12, 22, 25]), "012212");
  assert.equal(forms("(n > 1)", [0, 1, 2]), "001"); // French
  assert.equal(forms("0", [1, 2]), "00"); // Japanese
  assert.equal(forms("!(n == 1)", [1, 2]), "01");
});

test("an unsafe or broken plural rule falls back to English's n != 1", () => {
  const entry = { "%(count)s day": ["one", "many"] };
  useCatalog({ catalog: entry, plural: "alert(1)" });
  assert.equal(ngettext("%(count)s day", "%(count)s days", 1), "one");
  assert.equal(ngettext("%(count)s day", "%(count)s days", 2), "many");
  useCatalog({ catalog: entry, plural: "n ==" });
  assert.equal(ngettext("%(count)s day", "%(count)s days", 0), "many");
  useCatalog({ catalog: entry, plural: "(n != 1" });
  assert.equal(ngettext("%(count)s day", "%(count)s days", 1), "one");
  useCatalog({ catalog: entry, plural: "n 1" });
  assert.equal(ngettext("%(count)s day", "%(count)s days", 2), "many");
  useCatalog({ catalog: entry, plural: null });
  assert.equal(ngettext("%(count)s day", "%(count)s days", 1), "one");
});

test("the game's words are the catalog's: one sentence, its values named", () => {
  useCatalog({
    plural: "(n != 1)",
    catalog: { "Saving %(count)s change…": ["Speichere %(count)s Änderung…", "Speichere %(count)s Änderungen…"] },
  });
  const words = (waiting) => savedWords({ broken: false, waiting, unkept: false, offline: false, playing: true })[0];
  assert.equal(words(1), "Speichere 1 Änderung…");
  assert.equal(words(4), "Speichere 4 Änderungen…");
  useCatalog(null);
  assert.equal(words(4), "Saving 4 changes…");
});

test("the page's catalog is read from its JSON script, once", async () => {
  let reads = 0;
  globalThis.document = {
    getElementById(id) {
      reads++;
      return id === "js-catalog" ? { textContent: JSON.stringify(RUSSIAN) } : null;
    },
  };
  try {
    const page = await import(`../../static/js/game/i18n.js?page=${Date.now()}`);
    assert.equal(page.pgettext("game status", "Solved"), "Решено");
    assert.equal(page.gettext("No mistakes so far."), "Пока ошибок нет.");
    assert.equal(reads, 1);
  } finally {
    delete globalThis.document;
  }
});

test("API calls name the page's language, so the server answers in it", async () => {
  const { apiHeaders } = await import("../../static/js/game/http.js");
  assert.equal(apiHeaders("t")["Accept-Language"], undefined);
  globalThis.document = { documentElement: { lang: "de" } };
  try {
    const headers = apiHeaders("t");
    assert.equal(headers["Accept-Language"], "de");
    assert.equal(headers["X-CSRFToken"], "t");
    assert.equal(apiHeaders("t", false)["Content-Type"], undefined);
  } finally {
    delete globalThis.document;
  }
});
