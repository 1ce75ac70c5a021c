// Every page: a form button, once pressed, stays pressed until the next page loads, so a
// double click cannot start two games (or two guest sessions) at once.
document.addEventListener("submit", (event) => {
  const button = event.submitter;
  if (button && (event.target.method || "").toLowerCase() === "post") {
    setTimeout(() => (button.disabled = true));
  }
});

// Coming back with the browser's Back button shows the page as it was left: free the buttons.
window.addEventListener("pageshow", () => {
  document.querySelectorAll("form button[disabled]").forEach((button) => (button.disabled = false));
});

// On a narrow screen the main links fold behind a menu button, so the header stays one row.
const toggle = document.querySelector("[data-nav-toggle]");
if (toggle) {
  const nav = toggle.closest(".nav");
  toggle.addEventListener("click", () => {
    const open = toggle.getAttribute("aria-expanded") !== "true";
    toggle.setAttribute("aria-expanded", String(open));
    nav.classList.toggle("open", open);
  });
}

// The day of the dailies and streaks is the player's own: the browser names its time zone
// in the tz cookie on every page. A page that shows a day (data-zone: the zone it was drawn
// for) drawn for another zone, on the first visit or after a trip, is drawn again once.
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
if (zone && /^[\w/+-]+$/.test(zone)) {
  document.cookie = `tz=${zone}; path=/; max-age=31536000; SameSite=Lax`;
  const drawnFor = document.body.dataset.zone;
  if (drawnFor && drawnFor !== zone && !sessionStorage.getItem("zone-redrawn")) {
    sessionStorage.setItem("zone-redrawn", zone);
    location.reload();
  }
}
