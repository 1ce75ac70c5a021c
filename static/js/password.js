// A password field's "Show" button: the password typed once can be read back instead of
// typed twice. The button says what it will do next.
for (const button of document.querySelectorAll("[data-show-password]")) {
  const field = document.getElementById(button.getAttribute("aria-controls"));
  if (!field) continue;
  button.addEventListener("click", () => {
    const shown = field.type === "password";
    field.type = shown ? "text" : "password";
    button.textContent = shown ? "Hide" : "Show";
  });
}
