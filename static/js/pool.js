// The admin's pool page: refresh stock, rates, workers, job progress and rejection reasons
// every two seconds.
const page = document.getElementById("pool-page");

function setField(row, name, value) {
  const el = row.querySelector(`[data-field="${name}"]`);
  if (!el) return;
  if (el.tagName === "METER" || el.tagName === "PROGRESS") el.value = value;
  else el.textContent = value;
}

function setReasons(row, job) {
  const list = row.querySelector('[data-field="reasons"]');
  if (list) {
    list.replaceChildren(
      ...job.reasons.map(({ line, reason }) => {
        const item = document.createElement("li");
        item.textContent = `line ${line}: ${reason}`;
        return item;
      }),
    );
  }
  const link = row.querySelector('[data-field="reasons_link"]');
  if (link) {
    link.textContent = job.reasons_link;
    link.hidden = !job.rejected;
  }
}

function setWorkers(workers) {
  const block = document.getElementById("workers");
  if (!block) return;
  for (const name of ["last_beat", "queued", "unacked"]) setField(block, name, workers[name]);
  const body = block.querySelector('[data-field="processes"]');
  if (!body || !workers.processes.length) return;
  body.replaceChildren(
    ...workers.processes.map((p) => {
      const row = document.createElement("tr");
      for (const value of [p.kind, p.name, p.pid, p.state, p.started, p.seen]) {
        const cell = document.createElement("td");
        cell.textContent = value;
        row.append(cell);
      }
      return row;
    }),
  );
}

async function refresh() {
  try {
    const response = await fetch(page.dataset.statusUrl, { headers: { Accept: "application/json" } });
    if (!response.ok) return;
    const status = await response.json();
    for (const pool of status.pools) {
      const row = page.querySelector(`tr[data-difficulty="${pool.difficulty}"]`);
      if (!row) continue;
      setField(row, "fresh", pool.fresh);
      setField(row, "meter", pool.fresh);
      for (const name of ["made_last_hour", "drawn_last_hour", "last_refill", "batches", "batch_seconds"]) {
        setField(row, name, pool[name]);
      }
      setField(row, "flag", pool.below_low ? "below low" : "");
    }
    setWorkers(status.workers);
    for (const job of status.jobs) {
      const row = page.querySelector(`tr[data-job="${job.id}"]`);
      if (!row) continue;
      setField(row, "state", job.error ? `${job.state}: ${job.error}` : job.state);
      setField(row, "progress", job.progress);
      setField(row, "percent", `${job.progress}%`);
      setField(row, "done", job.done);
      setField(row, "rejected", job.rejected);
      setReasons(row, job);
    }
  } catch {
    // The next tick tries again.
  }
}

if (page) setInterval(refresh, 2000);
