// paros field guide: theme switch, sidebar toggle, keyboard (arrows, "/"), lazy search.
(() => {
  const root = document.documentElement;
  const base = root.dataset.root || "";
  const byId = (id) => document.getElementById(id);

  const themeButton = byId("theme-toggle");
  themeButton?.addEventListener("click", () => {
    const dark = root.dataset.theme
      ? root.dataset.theme === "dark"
      : matchMedia("(prefers-color-scheme: dark)").matches;
    root.dataset.theme = dark ? "light" : "dark";
    try { localStorage.setItem("paros-theme", root.dataset.theme); } catch (_) {}
  });

  const sidebarButton = byId("sidebar-toggle");
  sidebarButton?.addEventListener("click", () => {
    const open = document.body.classList.toggle("sidebar-open");
    sidebarButton.setAttribute("aria-expanded", String(open));
  });
  // Show the current chapter in the sidebar without scrolling the page itself.
  const sidebar = byId("sidebar");
  const current = sidebar?.querySelector("[aria-current]");
  if (current) sidebar.scrollTop = current.offsetTop - sidebar.clientHeight / 2;

  const panel = byId("search");
  const input = byId("search-input");
  const searchButton = byId("search-toggle");
  let searchModule = null;
  const openSearch = () => {
    panel.hidden = false;
    searchButton?.setAttribute("aria-expanded", "true");
    input.focus();
    const results = byId("search-results");
    // A full URL: on a page at the root, "static/search.js" alone would be a bare specifier.
    searchModule ??= import(new URL(base + "static/search.js", document.baseURI).href)
      .then((module) => module.attach(base, input, results))
      .catch(() => {
        // Browsers refuse modules and fetches from file:// pages: search needs the site served.
        const item = document.createElement("li");
        item.textContent = "Search could not load its index; open the book through a web server.";
        results.replaceChildren(item);
        searchModule = null;
      });
  };
  const closeSearch = () => {
    panel.hidden = true;
    searchButton?.setAttribute("aria-expanded", "false");
  };
  searchButton?.addEventListener("click", () => (panel.hidden ? openSearch() : closeSearch()));

  const typing = (target) => target instanceof HTMLElement &&
    (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !panel.hidden) { closeSearch(); return; }
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || typing(event.target)) return;
    // A level on the page may use the arrows itself.
    if (event.target instanceof HTMLElement && event.target.closest(".paros-level, #paros-play")) return;
    if (event.key === "/") { event.preventDefault(); openSearch(); return; }
    const rel = event.key === "ArrowLeft" ? "prev" : event.key === "ArrowRight" ? "next" : null;
    const link = rel && document.querySelector(`link[rel="${rel}"]`);
    if (link) location.href = link.href;
  });
})();
