// Text helpers: HTML escaping, and the small subset of markdown that briefings, hints and
// explanations use (paragraphs, "- " lists, `code`, **strong**, *emphasis*, and symbol links
// [`Ready`] as chapters write them). Everything is escaped before any markup is added, so engine
// text can never inject HTML.

const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and attribute values. */
export function escape(value) {
  return String(value ?? '').replace(/[&<>"']/g, (char) => ENTITIES[char]);
}

/** A paros-core symbol's place in the book's API pages, which sit beside the game's folder:
 *  rustdoc's own search finds it by name, so a method (`ColocatedNode::learn_chosen`) and a free
 *  function (`recover_slot`) link alike. The book's build checks each name a level declares. */
export function symbolLink(name) {
  return new URL(`../api/paros_core/index.html?search=${encodeURIComponent(name)}`, import.meta.url).href;
}

/** Inline markdown: symbol links and code spans first, so their contents are not read as
 *  emphasis. */
export function inline(source) {
  return escape(source)
    .split(/(\[`[A-Za-z_][A-Za-z0-9_:]*`\]|`[^`]+`)/)
    .map((part) =>
      part.startsWith('[`')
        ? `<a class="pp-symbol" href="${escape(symbolLink(part.slice(2, -2)))}"><code>${part.slice(2, -2)}</code></a>`
        : part.startsWith('`') && part.endsWith('`') && part.length > 1
        ? `<code>${part.slice(1, -1)}</code>`
        : part
            .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
            .replace(/\*([^*]+)\*/g, '<em>$1</em>'),
    )
    .join('');
}

/** Block markdown: blank-line separated paragraphs and "- " bullet lists. */
export function markdown(source) {
  return String(source ?? '')
    .trim()
    .split(/\n\s*\n/)
    .filter((block) => block.trim())
    .map((block) => {
      const lines = block.split('\n').map((item) => item.trim());
      if (lines.every((item) => /^[-*] /.test(item))) {
        return `<ul>${lines.map((item) => `<li>${inline(item.slice(2))}</li>`).join('')}</ul>`;
      }
      return `<p>${inline(lines.join(' '))}</p>`;
    })
    .join('');
}
