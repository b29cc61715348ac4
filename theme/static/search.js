// Search over the book's compact index, loaded on first use. The index maps each word to the
// sections it occurs in (as gaps between section numbers); typed words match as prefixes.
const STOP = new Set("a an and are as at be but by for from has have if in into is it its not of on or so that the their then there these this to was we were when which will with you".split(" "));
const words = (text) => text.toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter((w) => w.length >= 2 && !STOP.has(w));

export async function attach(base, input, list) {
  const response = await fetch(base + "search-index.json");
  const index = await response.json();
  const keys = Object.keys(index.words).sort();
  const postings = (word) => {
    let section = 0;
    return index.words[word].map((gap) => (section += gap));
  };
  const lowerBound = (prefix) => {
    let low = 0, high = keys.length;
    while (low < high) { const mid = (low + high) >> 1; if (keys[mid] < prefix) low = mid + 1; else high = mid; }
    return low;
  };
  const matching = (term) => {
    const scores = new Map();
    for (let i = lowerBound(term); i < keys.length && keys[i].startsWith(term); i++) {
      const weight = keys[i] === term ? 2 : 1;
      for (const section of postings(keys[i])) scores.set(section, Math.max(scores.get(section) || 0, weight));
    }
    return scores;
  };
  const render = () => {
    const terms = words(input.value);
    list.replaceChildren();
    if (!terms.length) return;
    let total = null;
    for (const term of terms) {
      const scores = matching(term);
      if (total === null) { total = scores; continue; }
      for (const [section, score] of total) {
        if (scores.has(section)) total.set(section, score + scores.get(section)); else total.delete(section);
      }
    }
    // A section whose heading holds a word ranks above one that only mentions it.
    for (const [section, score] of total) {
      const heading = index.sections[section][2].toLowerCase();
      total.set(section, score + 3 * terms.filter((term) => heading.includes(term)).length);
    }
    const ranked = [...total].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, 30);
    for (const [section] of ranked) {
      const [page, anchor, title] = index.sections[section];
      const [path, pageTitle] = index.pages[page];
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = base + path + (anchor ? "#" + anchor : "");
      link.textContent = title;
      const where = document.createElement("small");
      where.textContent = pageTitle;
      link.append(where);
      item.append(link);
      list.append(item);
    }
    if (!ranked.length) {
      const item = document.createElement("li");
      item.textContent = "No section contains every word.";
      list.append(item);
    }
  };
  input.addEventListener("input", render);
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") list.querySelector("a")?.click();
  });
  render();
}
