'use strict';

/**
 * Turns a title into a URL slug: lower case, ASCII letters and digits,
 * words joined by single hyphens, no hyphen at either end.
 */
function slugify(title) {
  return String(title)
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/, '-')
    .replace(/^-+|-+$/g, '');
}

module.exports = { slugify };
