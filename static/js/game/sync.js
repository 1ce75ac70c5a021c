// Sending: the changes waiting in the queue go to the server in batches, one request at a
// time, each carrying every change made since the last went out. While the player plays,
// a batch goes `every` ms after the first change that waits (the cadence: a player at
// human pace sends a request every few moves, not one a move), at once when MANY changes
// wait (a batch's digits stay within the server's pace for a person) and when the page
// hurries it (a solve, help, a pause, a hidden tab: `hurry`). Every change is kept on
// the device before it waits here, so the cadence risks none. No answer (offline, a
// dropped connection) leaves them queued: they go again, after a pause that grows, at once
// when the browser says it is back online. A server too
// busy to answer (a 503 or 429 with Retry-After) is waited out as long as it asks: nothing
// goes out meanwhile, the page's other requests included (they ask `held()`). The server
// stores a change once whatever the number of times it is sent, so a resend is harmless.
// A server whose threads are all at work asks for a longer cadence in a batch's answer
// (send_every, ms): it holds until an answer says nothing of it.
//
// POST <api>/changes {"device", "changes": [...]} answers {"state", "applied", "refused"},
// and send_every while the server is strained (docs/api.md).
//
// Imports nothing: the post, what to send and what to do with the answer are handed in,
// and the browser's online and offline events are told to it (link.js, app.js).

const BATCH = 200; // the most changes the server takes in one request
// The cadence the page is given when none is (the site's setting, SEND_EVERY_MS): a batch
// goes this long after the first change that waits.
export const EVERY_MS = 8000;
// A batch goes at once when this many changes wait: its digits stay within the burst the
// server takes as a person's pace (DIGIT_BURST, 10), whatever the cadence.
export const MANY = 6;
const LONGEST_MS = 60000; // the longest cadence a server's answer may ask for
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

// The cadence a batch's answer asks for (send_every, ms), kept within the page's own and
// LONGEST_MS; the page's own when it asks for none, or for what is no number.
export function askedEvery(data, own) {
  const asked = data ? data.send_every : undefined;
  if (typeof asked !== "number" || !Number.isFinite(asked)) return own;
  return Math.min(LONGEST_MS, Math.max(own, asked));
}

export class Sync {
  // post(body): the request, a promise of {ok, status, data} that throws with no answer;
  // take(): the changes to send next (oldest first); answered(data, sent): the server's
  // answer {state, applied, refused}; failed(status, data, sent): an answer that is no
  // state (4xx); changed(): the sending status moved (offline, sending, waiting); timers:
  // {now(), set(fn, ms), clear(id)}, the browser's unless a test hands in its own.
  // every: the cadence in ms (EVERY_MS when not handed in); a strained server's answer
  // may ask for a longer one for a while (askedEvery), as may the page itself when it was
  // served by a strained server (asked, ms): until the first answer says otherwise.
  constructor({ post, device, take, answered, failed, changed, online = true, timers = TIMERS, every = EVERY_MS, asked }) {
    Object.assign(this, { post, device, take, answered, failed, changed, timers, own: every });
    this.every = askedEvery({ send_every: asked }, every);
    this.sending = false;
    this.offline = !online;
    this.stopped = false;
    this.tries = 0;
    this.timer = null;
    this.until = 0; // the time the server asked the page to wait until
    this.since = null; // when the first change not yet taken for sending was queued
    this.urgent = false; // hurried: what waits goes at once, this answer's leftovers too
    this.answeredAt = null; // when the server last answered a batch (its state is news)
  }

  // A change was queued: it goes with the next batch, `every` ms after the first change
  // that waits, at once when MANY wait.
  queued() {
    if (this.since === null) this.since = this.timers.now();
    this.soon(this.take().length >= MANY ? 0 : this.due());
  }

  // What waits goes at once (a solve, help, a pause, a hidden tab): the calls that follow
  // it need it saved first, and the server's clock and judgement want it now.
  hurry() {
    if (!this.take().length) return;
    this.urgent = true;
    this.soon(0);
  }

  // The ms until the waiting changes are due to go (0: now).
  due() {
    if (this.urgent || this.since === null) return 0;
    return Math.max(0, this.since + this.every - this.timers.now());
  }

  // Whether a batch was answered less than `ms` ago: its answer brought the game as the
  // server has it, and told the server's clock the player is there.
  answeredWithin(ms) {
    return this.answeredAt !== null && this.timers.now() - this.answeredAt < ms;
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

  // Send what waits after `delay` ms, and not before a wait the server asked for is over.
  soon(delay) {
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
    this.since = null; // what is queued from now on waits its own cadence
    this.urgent = false;
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
      this.answeredAt = this.timers.now();
      this.every = askedEvery(data, this.own);
      this.answered(data, sent);
    } else if (status === 429 || status >= 500) {
      return this.retry(false, result); // the server is busy or down for a moment: later
    } else {
      this.tries = 0;
      this.failed(status, data, sent);
    }
    this.changed();
    // What is left: changes queued while this batch was on its way wait their cadence;
    // past a full batch, MANY or hurried, the rest goes at once.
    const left = this.take().length;
    if (!this.stopped && left) this.soon(left >= MANY || this.since === null ? 0 : this.due());
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
