// One call to the game API: JSON in and out, with the page's CSRF token. Any answer comes
// back as {ok, status, data}; an answer that is no JSON (a proxy's error page) becomes an
// error in words. A failed fetch (offline) throws, for the caller to keep its changes.
//
// Imports nothing.

export async function callApi(url, csrf, body, method = "POST") {
  const response = await fetch(url, {
    method,
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrf, Accept: "application/json" },
    body: method === "POST" ? JSON.stringify(body || {}) : undefined,
    credentials: "same-origin",
  });
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = { error: `The server answered ${response.status}.` };
  }
  return { ok: response.ok, status: response.status, data };
}
