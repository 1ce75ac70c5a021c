// Sending: the changes waiting in the queue go to the server in batches, one request at a
// time, each carrying every change made since the last went out (quick taps share one
// request). No answer (offline, a dropped connection) leaves them queued: they go again,
// after a pause that grows, at once when the browser says it is back online. A server too
// busy to answer (a 503 or 429 with Retry-After) is waited out as long as it asks: nothing
// goes out meanwhile, the page's other requests included (they ask `held()`). The server
// stores a change once whatever the number of times it is sent, so a resend is harmless.
//
// POST <api>/changes {"device", "changes": [...]} answers {"state", "applied", "refused"}
// (docs/api.md).
//
// Imports nothing: the post, what to send and what to do with the answer are handed in,
// and the browser's online and offline events are told to it (link.js, app.js).

const BATCH = 200; // the most changes the server takes in one request
const GATHER_MS = 40; // a burst of taps within this goes out in one request
const RETRY_MS = [1000, 2000, 4000, 8000, 15000];
const ASKED_MS = [1000, 120000]; // the least and the most of a server's Retry-After kept to
const SECONDS = /^\s*\d+(\.\d+)?\s*$/;
const TIMERS = { now: () => Date.now(), set: (fn, ms) => setTimeout(fn, ms), clear: (id) => clearTimeout(id) };

// Whether an answer says the server is too busy for now: a 429, a 503, or any 5xx that
// says how long to wait.
export function busyAnswer(result) {
  const { status } = result;
  return status === 429 || status === 503 || (status >= 500 && askedSeconds(result) !== null);
}

// The seconds an answer asks the page to wait: its Retry-After header, else its JSON
// body's retry_after; null when it has neither as a number of seconds (an HTTP date is
// not taken: the device's clock may be wrong).
function askedSeconds({ retryAfter, data }) {
  const value = retryAfter ?? (data ? data.retry_after : null);
  if (typeof value === "number") return Number.isFinite(value) && value >= 0 ? value : null;
  return typeof value === "string" && SECONDS.test(value) ? Number(value) : null;
}

// How long, in ms, a busy answer asks the page to wait, kept within ASKED_MS; null when
// the answer is not busy or says nothing usable (the caller's backoff applies then).
export function askedWait(result) {
  if (result.ok || !busyAnswer(result)) return null;
  const seconds = askedSeconds(result);
  if (seconds === null) return null;
  return Math.min(ASKED_MS[1], Math.max(ASKED_MS[0], Math.ceil(seconds * 1000)));
}

export class Sync {
  // post(body): the request, a promise of {ok, status, data} that throws with no answer;
  // take(): the changes to send next (oldest first); answered(data, sent): the server's
  // answer {state, applied, refused}; failed(status, data, sent): an answer that is no
  // state (4xx); changed(): the sending status moved (offline, sending, waiting); timers:
  // {now(), set(fn, ms), clear(id)}, the browser's unless a test hands in its own.
  constructor({ post, device, take, answered, failed, changed, online = true, timers = TIMERS }) {
    Object.assign(this, { post, device, take, answered, failed, changed, timers });
    this.sending = false;
    this.offline = !online;
    this.stopped = false;
    this.tries = 0;
    this.timer = null;
    this.until = 0; // the time the server asked the page to wait until
  }

  // The ms left of the wait the server asked for (0: none).
  held() {
    return Math.max(0, this.until - this.timers.now());
  }

  // The server asked the page to wait `ms` (this request's answer or another's): the
  // changes go once it is over, and nothing goes before.
  hold(ms) {
    this.until = Math.max(this.until, this.timers.now() + ms);
    this.changed();
    if (this.timer !== null) this.soon(0);
  }

  wentOnline() {
    this.offline = false;
    this.changed();
    this.soon(0);
  }

  wentOffline() {
    this.offline = true;
    this.changed();
  }

  // Something was queued: send it shortly (with whatever else comes within GATHER_MS), and
  // not before a wait the server asked for is over.
  soon(delay = GATHER_MS) {
    if (this.stopped || this.sending) return;
    this.timers.clear(this.timer);
    this.timer = this.timers.set(() => {
      this.timer = null;
      this.flush();
    }, Math.max(delay, this.held()));
  }

  async flush() {
    if (this.sending || this.stopped) return;
    if (this.held()) return this.soon(0);
    const sent = this.take().slice(0, BATCH);
    if (!sent.length) return this.changed();
    this.sending = true;
    this.changed();
    let result = null;
    try {
      result = await this.post({ device: this.device, changes: sent });
    } catch {
      result = null; // no answer: offline, or the connection dropped
    }
    this.sending = false;
    if (result === null) return this.retry(true);
    this.offline = false;
    const { ok, status, data } = result;
    if (ok && data.state) {
      this.tries = 0;
      this.answered(data, sent);
    } else if (status === 429 || status >= 500) {
      return this.retry(false, result); // the server is busy or down for a moment: later
    } else {
      this.tries = 0;
      this.failed(status, data, sent);
    }
    this.changed();
    if (!this.stopped && this.take().length) this.soon(0);
  }

  // Sent again later: after the wait a busy answer asked for, else after the backoff's
  // next step (a busy answer's backoff holds the page's other requests too).
  retry(unanswered, result = null) {
    this.offline = unanswered;
    const asked = result && askedWait(result);
    const wait = asked || RETRY_MS[Math.min(this.tries++, RETRY_MS.length - 1)];
    if (result && busyAnswer(result)) this.hold(wait);
    this.changed();
    this.soon(wait);
  }
}
