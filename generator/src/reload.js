// Live reload for `paros-book serve`: reloads on a rebuild, shows build errors in an overlay.
(() => {
  const overlay = document.createElement("div");
  overlay.id = "paros-build-error";
  overlay.setAttribute("role", "alert");
  overlay.style.cssText =
    "position:fixed;inset:auto 1rem 1rem 1rem;max-height:50vh;overflow:auto;z-index:1000;" +
    "background:#2b0d0d;color:#ffd7d7;border:2px solid #e5484d;border-radius:6px;padding:1rem;" +
    "font:14px/1.5 ui-monospace,monospace;white-space:pre-wrap;display:none";
  const show = (message) => {
    overlay.textContent = "paros-book: the build failed; this is the last good page.\n\n" + message;
    overlay.style.display = "block";
    if (!overlay.isConnected) document.body.append(overlay);
  };
  const source = new EventSource("/__paros/events");
  source.addEventListener("error", (event) => { if (event.data) show(event.data); });
  source.addEventListener("reload", () => location.reload());
  source.addEventListener("ok", () => location.reload());
})();
