// Talking to the server: one call to the game API (JSON in and out, with the page's CSRF
// token; any answer comes back as {ok, status, data, retryAfter}, an answer that is no
// JSON, such as a proxy's error page, as an error in words, retryAfter the Retry-After
// header's text or null; a failed fetch, offline, throws for the caller to keep its
// changes), the game's endpoints by command name, and a fresh CSRF token.
//
// Imports the catalog's words (i18n.js). Nothing runs as it loads: fetch is looked up when a call is made.

import { gettext, interpolate, pageLanguage } from "./i18n.js";

// The headers of every API call: its token, and the page's language for the answer's words.
export function apiHeaders(csrf, json = true) {
  const headers = { "X-CSRFToken": csrf };
  if (json) Object.assign(headers, { "Content-Type": "application/json", Accept: "application/json" });
  const language = pageLanguage();
  if (language) headers["Accept-Language"] = language;
  return headers;
}

export async function callApi(url, csrf, body, method = "POST") {
  const response = await fetch(url, {
    method,
    headers: apiHeaders(csrf),
    body: method === "POST" ? JSON.stringify(body || {}) : undefined,
    credentials: "same-origin",
  });
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = { error: interpolate(gettext("The server answered %(status)s."), { status: response.status }) };
  }
  const retryAfter = response.headers.get("Retry-After");
  return { ok: response.ok, status: response.status, data, retryAfter };
}

// One game's API (docs/api.md): commands ("changes", "hint", "pause", ...) are posted to
// <base>/<command>; reads ("", "path", "replay?start=0", "state?since=4") are got from
// <base>/<what>. The
// token is the page's until a renewed one replaces it.
export class GameApi {
  constructor(base, csrf) {
    this.base = base;
    this.csrf = csrf;
  }

  url(what) {
    return what ? `${this.base}/${what}` : this.base;
  }

  call(command, body) {
    return callApi(this.url(command), this.csrf, body);
  }

  read(what = "") {
    return callApi(this.url(what), this.csrf, null, "GET");
  }

  // The game's state when it moved on from `version` ({ok, status, data}), null while it
  // is still there (204: nothing to read).
  async news(version) {
    const result = await this.read(`state?since=${version}`);
    return result.status === 204 ? null : result;
  }

  // A post that outlives the page (keepalive), for a page on its way out: no answer read.
  parting(command, body = null) {
    const headers = apiHeaders(this.csrf, false);
    const init = { method: "POST", keepalive: true, headers, credentials: "same-origin" };
    if (body !== null) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    return fetch(this.url(command), init).catch(() => {});
  }
}

// The CSRF token of the page as the server serves it now, when it differs from `current`
// (a page kept offline may carry one from before a log-in elsewhere); null else.
export async function freshToken(pageUrl, current) {
  try {
    const response = await fetch(pageUrl, { cache: "no-store", credentials: "same-origin" });
    if (!response.ok) return null;
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const meta = page.querySelector('meta[name="csrf-token"]');
    if (!meta || !meta.content || meta.content === current) return null;
    return meta.content;
  } catch {
    return null;
  }
}
