// Sending: the changes waiting in the queue go to the server in batches, one request at a
// time, each carrying every change made since the last went out (quick taps share one
// request). No answer (offline, a dropped connection) leaves them queued: they go again,
// after a pause that grows, at once when the browser says it is back online. The server
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

export class Sync {
  // post(body): the request, a promise of {ok, status, data} that throws with no answer;
  // take(): the changes to send next (oldest first); answered(data, sent): the server's
  // answer {state, applied, refused}; failed(status, data, sent): an answer that is no
  // state (4xx); changed(): the sending status moved (offline, sending).
  constructor({ post, device, take, answered, failed, changed, online = true }) {
    Object.assign(this, { post, device, take, answered, failed, changed });
    this.sending = false;
    this.offline = !online;
    this.stopped = false;
    this.tries = 0;
    this.timer = null;
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

  // Something was queued: send it shortly (with whatever else comes within GATHER_MS).
  soon(delay = GATHER_MS) {
    if (this.stopped || this.sending) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), delay);
  }

  async flush() {
    if (this.sending || this.stopped) return;
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
      return this.retry(false); // the server is busy or down for a moment: later
    } else {
      this.tries = 0;
      this.failed(status, data, sent);
    }
    this.changed();
    if (!this.stopped && this.take().length) this.soon(0);
  }

  retry(unanswered) {
    this.offline = unanswered;
    this.changed();
    const wait = RETRY_MS[Math.min(this.tries++, RETRY_MS.length - 1)];
    this.soon(wait);
  }
}
