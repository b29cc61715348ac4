// Search over the book's compact index, loaded on first use. The index maps each word to the
// sections it occurs in (as gaps between section numbers); typed words match as prefixes. Each
// result shows the section's sentence holding the most of the typed words, those words marked.
const STOP = new Set("a an and are as at be but by for from has have if in into is it its not of on or so that the their then there these this to was we were when which will with you".split(" "));
const words = (text) => text.toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter((w) => w.length >= 2 && !STOP.has(w));
const TEASER_LENGTH = 180;

/** The sentence holding the most distinct typed words (the first, on a tie), or the first one. */
function bestSentence(sentences, terms) {
  let best = sentences[0] || "", bestCount = 0;
  for (const sentence of sentences) {
    const found = words(sentence);
    const count = terms.filter((term) => found.some((word) => word.startsWith(term))).length;
    if (count > bestCount) { best = sentence; bestCount = count; }
  }
  return best;
}

const WORD = /([\p{L}\p{N}_]+)/u;

/** Where the first marked word of `text` starts. */
function firstMark(text, marks) {
  let offset = 0;
  for (const [i, piece] of text.split(WORD).entries()) {
    if (i % 2 && marks(piece)) return offset;
    offset += piece.length;
  }
  return 0;
}

/** A long sentence cut to about TEASER_LENGTH characters around `at`, at spaces, with ellipses. */
function cut(text, at) {
  if (text.length <= TEASER_LENGTH) return text;
  const start = Math.max(0, Math.min(at - 60, text.length - TEASER_LENGTH));
  const from = start > 0 ? text.indexOf(" ", start) + 1 : 0;
  const space = text.lastIndexOf(" ", from + TEASER_LENGTH);
  const to = space > from ? space : from + TEASER_LENGTH;
  return (from > 0 ? "… " : "") + text.slice(from, to) + (to < text.length ? " …" : "");
}

/** The teaser: the sentence as text, each typed word <mark>ed. */
function teaser(sentence, terms) {
  const marks = (word) => terms.some((term) => word.toLowerCase().startsWith(term));
  const span = document.createElement("span");
  span.className = "teaser";
  cut(sentence, firstMark(sentence, marks)).split(WORD).forEach((piece, i) => {
    if (i % 2 && marks(piece)) {
      const mark = document.createElement("mark");
      mark.textContent = piece;
      span.append(mark);
    } else if (piece) {
      span.append(piece);
    }
  });
  return span;
}

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
      const [page, anchor, title, sentences] = index.sections[section];
      const [path, pageTitle] = index.pages[page];
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = base + path + (anchor ? "#" + anchor : "");
      link.textContent = title;
      const where = document.createElement("small");
      where.textContent = pageTitle;
      link.append(where);
      const sentence = bestSentence(sentences || [], terms);
      if (sentence) link.append(teaser(sentence, terms));
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
