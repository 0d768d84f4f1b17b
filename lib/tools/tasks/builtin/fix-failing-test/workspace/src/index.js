'use strict';
const { slugify } = require('./slugify');

/** Builds the path of a blog post from its title and date. */
function postPath(title, date) {
  const day = date.toISOString().slice(0, 10);
  return '/posts/' + day + '/' + slugify(title);
}

module.exports = { postPath, slugify };
