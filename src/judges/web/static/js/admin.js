// The operators' page (server/community/moderation.py, templates/admin.html): each form's buttons ask the
// JSON API, with the reason typed; the page reloads to show the reports left and the audit log.
const statusLine = /** @type {HTMLElement} */ (document.getElementById("admin-status"));

/** @param {string} path @param {Record<string, unknown>} body */
async function act(path, body) {
  const response = await fetch(`/api/admin/${path}?lang=${document.documentElement.lang.replace("-", "_")}`, {
    method: "POST", headers: {"Content-Type": "application/json"}, credentials: "same-origin", body: JSON.stringify(body)});
  if (response.ok) return null;
  const data = await response.json().catch(() => ({}));
  return data.text || data.message || response.statusText;
}

/** @param {HTMLFormElement} form @param {string} what */
function request(form, what) {
  const data = form.dataset;
  const field = (/** @type {string} */ name) => {
    const input = /** @type {HTMLInputElement | null} */ (form.querySelector(`[name="${name}"]`));
    return input ? input.value : "";
  };
  const reason = field("reason");
  const report = data.report ? Number(data.report) : null;
  const name = data.name || field("name");
  if (what === "hide") return ["hide", {game: data.game, message: Number(data.message), reason, report}];
  if (what === "close") return ["close", {game: data.game, reason, report}];
  if (what === "dismiss") return ["dismiss", {report, reason}];
  if (what === "lift") return ["lift", {name, reason}];
  const until = field("until");
  return ["sanction", {name, kind: what, reason, report, until: what === "suspend" && until ? new Date(until).toISOString() : null}];
}

for (const form of /** @type {NodeListOf<HTMLFormElement>} */ (document.querySelectorAll("form.admin-act"))) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = /** @type {HTMLButtonElement | null} */ (/** @type {SubmitEvent} */ (event).submitter);
    const [path, body] = request(form, button ? button.dataset.act || "" : "");
    const error = await act(/** @type {string} */ (path), /** @type {Record<string, unknown>} */ (body));
    statusLine.textContent = error || statusLine.dataset.done || "";
    statusLine.classList.toggle("error", !!error);
    if (!error) setTimeout(() => location.reload(), 400);
  });
}
