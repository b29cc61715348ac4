// The check of the print page, apart from the browser so that it can be shown to fail: which
// chapters of SUMMARY.md a printed page lacks.

/** The chapters of SUMMARY.md that have a page, in order: `[Title](file.md)`, listed or not. */
export function summaryChapters(summary) {
  const chapters = [];
  for (const match of summary.matchAll(/\[([^\]]+)\]\(([^)]+\.md)\)/g)) {
    chapters.push({ title: match[1], page: match[2].replace(/\.md$/, '.html') });
  }
  return chapters;
}

/** The chapters missing from the printed sections (`{ page, text }`, as the page shows them):
 *  a chapter is there when a section of its page holds its title. Each missing one is named. */
export function missingChapters(chapters, sections) {
  return chapters
    .filter(({ title, page }) => !sections.some((section) => section.page === page && section.text.includes(title)))
    .map(({ title, page }) => `${title} (${page})`);
}
